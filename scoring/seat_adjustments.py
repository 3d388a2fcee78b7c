"""A row's per-seat adjustments in the write path (:func:`scoring.rows.result_save`): the seats whose result is
annulled (rules §11.6 B) and per-seat percentages of the top (§11.2 B1, §11.3 C). The rules are the pure core's
(:mod:`preferans.duplicate.artificial`); here they are checked against the tournament and translated."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from preferans.duplicate.artificial import annulled_problems, parse_percent, seat_percent_problems
from preferans.game.seats import table_seats
from preferans.numbers import format_fraction
from scoring.models import Result
from tournaments.models import Tournament, default_artificial
from tournaments.refusals import Refusal, ResultRejected, adjustment_message


def percentages(tournament: Tournament) -> dict[str, Fraction]:
    """The tournament's A-/A/A+ as fractions."""
    return {g: Fraction(v) for g, v in (tournament.artificial or default_artificial()).items()}


def check_seat_adjustments(
    tournament: Tournament,
    seats: Mapping[str, int],
    adjusted: Mapping[str, str] | None,
    annulled: Sequence[str],
    percent: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """The row's ``annulled`` and ``percent`` as stored, or :class:`ResultRejected` saying what is wrong."""
    seated = [s for s in table_seats(tournament.players_per_table) if s in seats]
    refusals: list[Refusal] = []
    values: dict[str, Fraction] = {}
    for seat, raw in (percent or {}).items():
        try:
            values[str(seat)] = parse_percent(raw)
        except ValueError:
            refusals.append(
                Refusal("percent_value", f"percent.{seat}", f"seat {seat} needs a percentage", {"seat": seat})
            )
    problems = annulled_problems(list(annulled), seats=seated, artificial_row=adjusted is not None)
    if not refusals:
        problems += seat_percent_problems(
            values, adjusted=adjusted, artificial=percentages(tournament), seats=seated
        )
    both = sorted(set(values) & set(annulled))
    if both:
        refusals.append(
            Refusal("percent_annulled", "percent", f"seat {', '.join(both)} is annulled", {"seats": both})
        )
    refusals += [Refusal(p.code, p.field, adjustment_message(p), dict(p.params)) for p in problems]
    if refusals:
        raise ResultRejected(refusals)
    return {
        "annulled": [s for s in seated if s in set(annulled)],
        "percent": {s: format_fraction(values[s]) for s in seated if s in values} or None,
    }


def annulled_either(others: Iterable[Any], seats: Mapping[str, int], annulled: Sequence[str]) -> bool:
    """Whether every participant of this row who also sits on another row of the board has his result annulled
    on one of the two (rules §11.6 B: the director's ruling lets both rows stand)."""
    here = {n: s for s, n in seats.items()}
    for other in others:
        there = other.seats()
        voided_there = {there[s] for s in (other.annulled or ()) if s in there}
        for number in set(here) & set(there.values()):
            if here[number] not in annulled and number not in voided_there:
                return False
    return True


def kept_seat_adjustments(
    session: Any,
    *,
    room: int,
    board: int,
    table: int,
    round: int,
    annulled: Sequence[str] | None,
    percent: Mapping[str, Any] | None,
    kind: str,
) -> tuple[Sequence[str], Mapping[str, Any] | None]:
    """A replaced row's per-seat adjustments that the caller did not give: the stored row's, when the row stays
    the same kind (a correction of a played row keeps the ruling's annulled seat); none otherwise."""
    stored = (
        Result.objects.filter(
            session=session, room=room, board_number=board, table_number=table, round_number=round
        )
        .values_list("adjusted", "assigned", "annulled", "percent")
        .first()
    )
    if stored is None:
        return annulled or (), percent
    adjusted, assigned, old_annulled, old_percent = stored
    same = kind == ("adjusted" if adjusted else "assigned" if assigned else "row")
    return (
        annulled if annulled is not None else (list(old_annulled or ()) if same else ()),
        percent if percent is not None else (dict(old_percent) if same and old_percent else None),
    )
