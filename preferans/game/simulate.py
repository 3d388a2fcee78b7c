"""Plausible random protocol rows, for the demo tournament, simulations and benchmarks.

Not a card-play engine: it draws the facts a table could write into a protocol (mostly sixes and sevens,
made or down one, both or one defender whisting, now and then a misère or raspasy) and keeps only rows the
validator accepts, so every row it returns is legal for the given rules and table. Randomness is passed in.
"""

from __future__ import annotations

import random
from typing import Any

from .ledger import TableSeats
from .rows import validate_row
from .variants import Progression, RaspasyMode, Rules, WhistMode

_SUITS = ("S", "C", "D", "H", "NT")
_LEVELS = (6, 6, 6, 6, 7, 7, 7, 8, 8, 9, 10)


def random_row(rng: random.Random, *, rules: Rules, players: int, dealer: str | None) -> dict[str, Any]:
    """One legal protocol row (spec §11.3) for a table of ``players`` with the given dealer pocket."""
    table = TableSeats.standard(players, dealer if players == 4 else None)
    for _ in range(100):
        row = _draw(rng, rules, table, dealer)
        if not validate_row(row, rules=rules, players=players, dealer=dealer):
            return row
    raise RuntimeError("could not draw a legal row")  # pragma: no cover - the draws below are legal by design


def _draw(rng: random.Random, rules: Rules, table: TableSeats, dealer: str | None) -> dict[str, Any]:
    kind = rng.choices(["contract", "misere", "raspasy"], weights=[82, 8, 10])[0]
    if kind == "raspasy":
        return _raspasy(rng, rules, table, dealer)
    declarer = rng.choice(table.active)
    d1, d2 = table.after(declarer)
    if kind == "misere":
        taken = rng.choices([0, 1, 2], weights=[70, 22, 8])[0]
        rest = 10 - taken
        t1 = rng.randint(0, rest)
        return {
            "contract": "MIS",
            "declarer": [declarer, taken],
            "w1": [d1, t1],
            "w2": [d2, rest - t1],
            "play": "open",
        }
    level = rng.choice(_LEVELS)
    contract = f"{level}{rng.choice(_SUITS)}"
    calls = rng.choices(
        [("whist", "whist"), ("whist", "pass"), ("pass", "whist"), ("pass", "pass")], weights=[25, 40, 15, 20]
    )[0]
    if level <= 7 and calls == ("pass", "pass") and rng.random() < 0.4:
        half = {6: 2, 7: 1}[level]
        return {
            "contract": contract,
            "declarer": [declarer, level],
            "w1": [d1, 10 - level - half],
            "w2": [d2, half],
            "calls": {d1: "pass", d2: "half"},
            "play": "none",
        }
    if calls == ("pass", "pass"):
        return {
            "contract": contract,
            "declarer": [declarer, 10],
            "w1": [d1, 0],
            "w2": [d2, 0],
            "calls": {d1: "pass", d2: "pass"},
            "play": "none",
        }
    made = max(0, min(10, level + rng.choices([-2, -1, 0, 0, 0, 0, 1, 1, 2], k=1)[0]))
    rest = 10 - made
    t1 = rng.randint(0, rest)
    play = "closed" if calls == ("whist", "whist") else rng.choice(["open", "closed"])
    if rules.whist_mode is WhistMode.ODESSA and play == "open":
        play = "closed"
    return {
        "contract": contract,
        "declarer": [declarer, made],
        "w1": [d1, t1],
        "w2": [d2, rest - t1],
        "calls": {d1: calls[0], d2: calls[1]},
        "play": play,
    }


def _raspasy(rng: random.Random, rules: Rules, table: TableSeats, dealer: str | None) -> dict[str, Any]:
    first = table.first_hand() or dealer or table.active[0]
    hands = (first, *table.after(first))
    total = 10
    if table.players == 4 and rules.raspasy_mode is RaspasyMode.MOUNTAIN:
        total = 10 - rng.choices([0, 1, 2], weights=[50, 35, 15])[0]
    a = rng.randint(0, total)
    b = rng.randint(0, total - a)
    row: dict[str, Any] = {
        "contract": "-",
        "declarer": [hands[0], a],
        "w1": [hands[1], b],
        "w2": [hands[2], total - a - b],
    }
    if rules.progression is not Progression.NONE:
        row["raspasy_step"] = 1
    return row
