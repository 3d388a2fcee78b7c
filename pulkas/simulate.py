"""Playing whole pulka rounds with random legal deals through the one write path — for the demo event,
the benchmark and tests (never for a real event's results)."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from preferans.pulka.simulate import random_pulka
from pulkas.models import PulkaRound, PulkaTable
from pulkas.services.sheet import enter_deal, event_of, table_setup


def play_table(table: PulkaTable, rng: random.Random, *, now: dt.datetime, deals: int | None = None) -> int:
    """Write random deals at ``table`` as its players would (N writes, the others confirm on the same device)
    until the pulka ends or ``deals`` deals are written. Returns the number of deals written."""
    event = event_of(table.round.tournament)
    setup = table_setup(event, table)
    rows = random_pulka(rng, setup, deals=deals or 200)
    seats: dict[str, Any] = table.seats()
    writer, others = seats["N"], [p for s, p in seats.items() if s != "N"]
    for row in rows:
        enter_deal(table=table, row=row, participant=writer, confirmations=others, now=now)
    return len(rows)


def play_round(
    pulka_round: PulkaRound, rng: random.Random, *, now: dt.datetime, deals: int | None = None
) -> int:
    return sum(play_table(t, rng, now=now, deals=deals) for t in pulka_round.tables.order_by("number"))
