"""A small two-room event (seed §2 «несколько комнат», §5 procedure 2) as a bundle: 24 participants, the basic
movement on 3 tables in each of 2 rooms, 3 rounds, 3 sets of 2 boards; both rooms play the same boards.

Every table plays 6♠ by the first hand after the dealer, both defenders whisting; the declarer's tricks vary
with the room, table and board, so that a board's six rows differ and the rooms' rows must be compared together.
"""

from __future__ import annotations

import copy
from typing import Any

from preferans.movements.serialize import build_movement, movement_to_dict

SEATS = ("N", "E", "S", "W")
MOVEMENT = {"scheme": "basic", "tables": 3, "rooms": 2}
DEALS = 2


def dealer_of(board: int) -> str:
    return SEATS[(board - 1) % DEALS]


def played(board: int, tricks: int) -> dict[str, Any]:
    """6♠ by the first hand after the board's dealer, both defenders whist, closed."""
    i = SEATS.index(dealer_of(board))
    declarer, w1, w2 = SEATS[(i + 1) % 4], SEATS[(i + 2) % 4], SEATS[(i + 3) % 4]
    rest = 10 - tricks
    return {
        "contract": "6S",
        "declarer": [declarer, tricks],
        "w1": [w1, rest - rest // 2],
        "w2": [w2, rest // 2],
        "calls": {w1: "whist", w2: "whist"},
        "play": "closed",
    }


def tricks_at(room: int, table: int, board: int) -> int:
    return 4 + (room * 3 + table + board) % 5


def movement_json() -> dict[str, Any]:
    """The movement as the ``movement`` command prints it (rooms, a room on every table, properties)."""
    return movement_to_dict(build_movement(MOVEMENT, per_table=4, deals_per_set=DEALS))


def two_rooms(*, results: bool = True) -> dict[str, Any]:
    rows = []
    if results:
        for rnd in movement_json()["rounds"]:
            for t in rnd["tables"]:
                for board in (DEALS * (t["set"] - 1) + 1, DEALS * t["set"]):
                    row = {"board": board, "round": rnd["round"], "table": t["table"]}
                    if t["room"] != 1:
                        row["room"] = t["room"]
                    rows.append(
                        row | {"seats": t["seats"]} | played(board, tricks_at(t["room"], t["table"], board))
                    )
    return {
        "format": "duplicate-preferans-bundle",
        "version": 1,
        "tournament": {
            "name": "Two rooms",
            "variant": "sochi",
            "players_per_table": 4,
            "deals_per_set": DEALS,
        },
        "participants": [{"number": n, "name": f"Игрок {n}"} for n in range(1, 25)],
        "sessions": [
            {
                "number": 1,
                "movement": copy.deepcopy(MOVEMENT),
                "boards": [
                    {"number": b, "set": (b - 1) // DEALS + 1, "dealer": dealer_of(b)} for b in range(1, 7)
                ],
                "results": rows,
            }
        ],
    }
