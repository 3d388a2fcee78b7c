"""Simulated events: a bundle for N tables played on a movement with plausible random protocol rows.

Used by the demo tournament, the benchmarks and load tests (Tabbycat's ``simulaterounds`` idea). Deterministic
for a seed. Every row is legal (drawn by ``preferans.game.simulate.random_row``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from preferans.cards.board_form import board_to_dict
from preferans.cards.deal import deal_boards
from preferans.game import make_rules
from preferans.game.simulate import random_row
from preferans.movements import build_movement


def simulated_bundle(
    *,
    name: str,
    movement: Mapping[str, Any],
    players: int = 4,
    deals_per_set: int = 4,
    variant: str = "sochi",
    played_rounds: int | None = None,
    participants: Sequence[Mapping[str, Any]] | None = None,
    seed: int = 1,
) -> dict[str, Any]:
    """A one-session bundle: boards dealt from ``seed``, rows for every table of the first ``played_rounds``."""
    rng = random.Random(seed)
    m = build_movement(movement, per_table=players, deals_per_set=deals_per_set)
    boards = deal_boards(rng, sets=m.sets, per_set=deals_per_set, players=players)
    dealer_of = {b.number: b.dealer.value for b in boards}
    rules = make_rules(variant)
    results: list[dict[str, Any]] = []
    for rnd, ta in m.seatings():
        if played_rounds is not None and rnd.number > played_rounds:
            continue
        seats = {line.value: p for line, p in ta.seats}
        for board in m.boards_of_set(ta.set):
            row = random_row(rng, rules=rules, players=players, dealer=dealer_of[board])
            results.append({"board": board, "round": rnd.number, "table": ta.table, "seats": seats, **row})
    people = list(participants) if participants else [{"number": n} for n in range(1, m.participants + 1)]
    return {
        "format": "duplicate-preferans-bundle",
        "version": 1,
        "tournament": {
            "name": name,
            "variant": variant,
            "rules": {},
            "players_per_table": players,
            "deals_per_set": deals_per_set,
            "scoring": {"unequal_results": "neuberg", "artificial": {"A-": 40, "A": 50, "A+": 60}},
        },
        "participants": people,
        "sessions": [
            {
                "number": 1,
                "movement": dict(movement),
                "boards": [board_to_dict(b) for b in boards],
                "results": results,
                "penalties": [],
            }
        ],
    }
