"""The seating of a compensation or Swiss round after the first (docs/pairing.md, pairing-spec): the players in
the event's running order, the tables of every earlier round of the event, and :func:`preferans.pairing.pair`.

Compensation (004 Part III): every player at his book table, «Игроки с самым высоким рейтингом занимают первый
стол…». Swiss (not in the book): the least repeated meetings, then the least displacement from that order.
"""

from __future__ import annotations

import random

from preferans.pairing import Pairing, pair
from preferans.pulka.forms import TablePlan
from pulkas.models import PulkaTable
from tournaments.models import Tournament

__all__ = ["PAIRING_SECONDS", "earlier_tables", "paired_plan"]

PAIRING_SECONDS = (
    10.0  # the Swiss search's bound (docs/pairing.md: fields up to 64 are proved well within it)
)


def earlier_tables(tournament: Tournament) -> list[list[list[int]]]:
    """Every earlier round's tables (participant keys), oldest first."""
    rounds: dict[int, list[list[int]]] = {}
    tables = PulkaTable.objects.filter(round__tournament=tournament).order_by("round__number", "number")
    for table in tables.select_related("round"):
        rounds.setdefault(table.round.number, []).append(list(table.seat_ids().values()))
    return [rounds[n] for n in sorted(rounds)]


def paired_plan(
    tournament: Tournament, ranked: list[int], per_table: int, rng: random.Random
) -> tuple[TablePlan, Pairing[int]]:
    """The round's tables for ``ranked`` (best first) by the event's form; seats at a table by lot from ``rng``."""
    form = "swiss" if tournament.form == "swiss" else "compensation"
    history = earlier_tables(tournament)  # compensation reports its repeats too
    seating = pair(form, per_table, ranked, history, rng.randrange(2**32), PAIRING_SECONDS)
    return TablePlan(tuple(seating.tables), tuple(seating.byes)), seating
