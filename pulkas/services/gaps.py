"""What is still open in a pulka event's results (``tournaments.gaps`` says what a gap is and how the director
acknowledges it): deals written and not confirmed by the other players, tables of a running round still playing,
and players tied at an Olympic cut whom the director has not yet decided between."""

from __future__ import annotations

from collections import defaultdict

from pulkas.models import PulkaDeal, PulkaRound, PulkaTable
from tournaments.gaps import DEALS_UNCONFIRMED, PLAYING, TIE, Gap, Gaps
from tournaments.models import Tournament


def pulka_gaps(tournament: Tournament) -> Gaps:
    """The gaps of every started round, in order of round and table."""
    tables = list(
        PulkaTable.objects.filter(round__tournament=tournament)
        .exclude(round__status=PulkaRound.Status.PENDING)
        .select_related("round")
        .order_by("round__number", "number")
    )
    unconfirmed: dict[int, list[int]] = defaultdict(list)
    for table_id, number in (
        PulkaDeal.objects.filter(table__in=tables, status=PulkaDeal.Status.ENTERED)
        .order_by("number")
        .values_list("table_id", "number")
    ):
        unconfirmed[table_id].append(number)
    items: list[Gap] = []
    for table in tables:
        at = (0, table.round.number, 1, table.number)
        if unconfirmed.get(table.pk):
            items.append(Gap(*at, DEALS_UNCONFIRMED, tuple(unconfirmed[table.pk])))
        if not table.finished:
            items.append(Gap(*at, PLAYING))
        elif table.advance and table.advance.get("tied") and table.tie_decision is None:
            items.append(Gap(*at, TIE))
    return Gaps(tuple(items))
