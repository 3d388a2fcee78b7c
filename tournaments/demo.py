"""The demo tournament: a realistic small event a newcomer can look around in.

20 participants on 5 four-player tables, the basic movement, boards dealt from a fixed seed, three rounds
played (plausible random protocol rows), one artificial adjustment, one procedural penalty, round 4 under way.
Built as a bundle and imported, so it goes through exactly the path a real import takes.
"""

from __future__ import annotations

import random
from typing import Any

from boards.deal import board_to_dict, deal_boards
from scoring.preferans import make_rules
from scoring.preferans.simulate import random_row
from tournaments.movements import build_movement

DEMO_SLUG = "demo"
DEMO_NAME = "Демонстрационный турнир"
NAMES = [
    ("Иванов Иван", "Спартак"), ("Петров Пётр", "Динамо"), ("Сидорова Анна", "Спартак"),
    ("Кузнецов Алексей", "ЦСКА"), ("Смирнова Ольга", "Динамо"), ("Попов Сергей", "Локомотив"),
    ("Васильев Дмитрий", "ЦСКА"), ("Соколова Мария", "Спартак"), ("Михайлов Андрей", "Локомотив"),
    ("Новикова Елена", "Динамо"), ("Фёдоров Николай", "ЦСКА"), ("Морозова Татьяна", "Локомотив"),
    ("Волков Павел", "Спартак"), ("Алексеева Ирина", "Динамо"), ("Лебедев Михаил", "ЦСКА"),
    ("Семёнова Наталья", "Локомотив"), ("Егоров Владимир", "Спартак"), ("Павлова Светлана", "Динамо"),
    ("Козлов Игорь", "ЦСКА"), ("Степанова Юлия", "Локомотив"),
]  # fmt: skip
PLAYED_ROUNDS = 3


def demo_bundle(seed: int = 2026) -> dict[str, Any]:
    rng = random.Random(seed)
    variant, players, per_set = "sochi", 4, 4
    movement_spec = {"scheme": "basic", "tables": 5}
    movement = build_movement(movement_spec, per_table=players, deals_per_set=per_set)
    boards = deal_boards(rng, sets=movement.sets, per_set=per_set, players=players)
    dealer_of = {b.number: b.dealer.value for b in boards}
    rules = make_rules(variant)
    results: list[dict[str, Any]] = []
    for rnd, ta in movement.seatings():
        if rnd.number > PLAYED_ROUNDS:
            continue
        seats = {line.value: p for line, p in ta.seats}
        for board in movement.boards_of_set(ta.set):
            row = random_row(rng, rules=rules, players=players, dealer=dealer_of[board])
            results.append({"board": board, "round": rnd.number, "table": ta.table, "seats": seats, **row})
    # A fouled deal at one table: the director gave artificial results (rules §11.2).
    first = results[5]
    results[5] = {
        "board": first["board"], "round": first["round"], "table": first["table"], "seats": first["seats"],
        "adjusted": {"N": "A+", "E": "A-", "S": "A", "W": "A"},
    }  # fmt: skip
    return {
        "format": "duplicate-preferans-bundle",
        "version": 1,
        "tournament": {
            "name": DEMO_NAME,
            "variant": variant,
            "rules": {},
            "players_per_table": players,
            "deals_per_set": per_set,
            "scoring": {"unequal_results": "neuberg", "artificial": {"A-": 40, "A": 50, "A+": 60}},
        },
        "participants": [
            {"number": n, "name": name, "club": club} for n, (name, club) in enumerate(NAMES, start=1)
        ],
        "sessions": [
            {
                "number": 1,
                "movement": movement_spec,
                "boards": [board_to_dict(b) for b in boards],
                "results": results,
                "penalties": [{"participant": 7, "matchpoints": "-2", "reason": "12.2.2 slow play"}],
            }
        ],
    }
