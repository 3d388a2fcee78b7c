"""A table's sheet loaded: its deals played through the pure core (``preferans.pulka.PulkaGame``), and the cache
of what the core computed (the table's totals, its players' results). The write path is ``pulkas.services.sheet``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from preferans.numbers import format_fraction
from preferans.pulka import PulkaGame, PulkaProblem, PulkaScore, PulkaSetup, SetupError
from pulkas.models import PulkaDeal, PulkaEvent, PulkaTable, PulkaTableResult
from tournaments.errors import Conflict
from tournaments.models import Participant, Tournament
from tournaments.refusals import Refusal, ResultRejected
from tournaments.setup_refusals import setup_refusal


@dataclass
class TableSheet:
    """A table with its deals loaded and played through the core."""

    table: PulkaTable
    event: PulkaEvent
    setup: PulkaSetup
    deals: list[PulkaDeal]
    game: PulkaGame

    @property
    def tournament(self) -> Tournament:
        return self.event.tournament

    def score(self) -> PulkaScore:
        return self.game.score(stopped=self.table.stopped_at is not None)

    def seat_of(self, participant: Participant) -> str | None:
        return next((s for s, pid in self.table.seat_ids().items() if pid == participant.pk), None)

    @property
    def last(self) -> PulkaDeal | None:
        return self.deals[-1] if self.deals else None


def _rejected(problems: Sequence[PulkaProblem]) -> ResultRejected:
    return ResultRejected(Refusal(p.code, p.field, p.message, p.params) for p in problems)


def event_of(tournament: Tournament) -> PulkaEvent:
    event = PulkaEvent.objects.filter(tournament=tournament).first()
    if event is None:
        raise Conflict(_("This tournament is not played in pulkas."), code="not_pulka_event")
    return event


def table_setup(event: PulkaEvent, table: PulkaTable) -> PulkaSetup:
    try:
        olympic = event.tournament.form == "olympic"
        return event.setup(
            table.players, table.first_dealer, table.olympic_advance(event) if olympic else None
        )
    except SetupError as exc:
        raise setup_refusal(exc) from exc


def load_sheet(table: PulkaTable, *, event: PulkaEvent | None = None) -> TableSheet:
    """The table's deals played through the core (they were each checked when written)."""
    if event is None:
        event = event_of(table.round.tournament)
        event.tournament = table.round.tournament  # already loaded with the table: no second read
    setup = table_setup(event, table)
    game = PulkaGame(setup)
    deals = list(table.deals.order_by("number"))
    for deal in deals:
        problems = game.add(deal.row)
        if problems:  # pragma: no cover - every stored deal was checked; settings changed under it
            raise _rejected(problems)
    return TableSheet(table, event, setup, deals, game)


def refresh_cache(sheet: TableSheet) -> PulkaScore:
    """Write what the core computed into the table's cache and its players' results."""
    score = sheet.score()
    table = sheet.table
    table.deals_count = len(score.deals)
    table.ended = score.ended and score.reason in ("pool", "deal_limit")
    table.reason = score.reason
    advance = score.ranking.advance
    table.advance = {"seats": list(advance.seats), "tied": list(advance.tied)} if advance else None
    table.save(update_fields=["deals_count", "ended", "reason", "advance", "version"])
    rule = sheet.event.rating_rule
    vists, whole = score.vists, score.integer_vists
    ids = table.seat_ids()
    PulkaTableResult.objects.filter(table=table).delete()
    PulkaTableResult.objects.bulk_create(
        PulkaTableResult(
            table=table,
            participant_id=ids[seat],
            seat=seat,
            vists=format_fraction(vists[seat]),
            integer_vists=int(whole[seat]),
            rating=format_fraction(rule.round_rating(vists[seat], len(score.deals))),
            rank=score.ranking.rank_text(seat),
        )
        for seat in sheet.setup.seats
    )
    return score
