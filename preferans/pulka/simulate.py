"""Plausible random pulkas, for the demo events, simulations, property tests and benchmarks.

Draws legal protocol rows (:func:`preferans.game.simulate.random_row`) deal after deal for the right dealer,
redrawing any the sheet refuses (the exit from raspasy), until the game ends or ``deals`` rows are written.
Randomness is passed in. Pure Python: no Django import.
"""

from __future__ import annotations

import random
from typing import Any

from preferans.game.simulate import random_row

from .engine import PulkaGame
from .setup import PulkaSetup

__all__ = ["random_pulka"]


def random_pulka(rng: random.Random, setup: PulkaSetup, *, deals: int = 200) -> list[dict[str, Any]]:
    """Rows of one pulka: until it ends (pool or deal limit) or ``deals`` rows have been written."""
    game = PulkaGame(setup)
    rows: list[dict[str, Any]] = []
    while not game.ended and len(rows) < deals:
        number = len(rows) + 1
        label = setup.row_dealer(number)
        for _ in range(200):
            row = random_row(rng, rules=setup.rules, players=setup.players, dealer=label)
            row.pop("raspasy_step", None)
            if not game.add(row):
                rows.append(row)
                break
        else:  # pragma: no cover - a raspasy is always legal, and one in ten draws is raspasy
            raise RuntimeError("could not draw a legal deal")
    return rows
