"""The demo tournament: a realistic small event a newcomer can look around in.

20 participants on 5 four-player tables, the basic movement, boards dealt from a fixed seed, three rounds
played (plausible random protocol rows), one artificial adjustment, one procedural penalty, round 4 under way.
Built as a bundle and imported, so it goes through exactly the path a real import takes.
"""

from __future__ import annotations

from typing import Any

from preferans.simulate import simulated_bundle

DEMO_SLUG = "demo"
DEMO_NAME = "Демонстрационный турнир"
NAMES = [
    ("Иванов Иван", "Спартак"),
    ("Петров Пётр", "Динамо"),
    ("Сидорова Анна", "Спартак"),
    ("Кузнецов Алексей", "ЦСКА"),
    ("Смирнова Ольга", "Динамо"),
    ("Попов Сергей", "Локомотив"),
    ("Васильев Дмитрий", "ЦСКА"),
    ("Соколова Мария", "Спартак"),
    ("Михайлов Андрей", "Локомотив"),
    ("Новикова Елена", "Динамо"),
    ("Фёдоров Николай", "ЦСКА"),
    ("Морозова Татьяна", "Локомотив"),
    ("Волков Павел", "Спартак"),
    ("Алексеева Ирина", "Динамо"),
    ("Лебедев Михаил", "ЦСКА"),
    ("Семёнова Наталья", "Локомотив"),
    ("Егоров Владимир", "Спартак"),
    ("Павлова Светлана", "Динамо"),
    ("Козлов Игорь", "ЦСКА"),
    ("Степанова Юлия", "Локомотив"),
]
PLAYED_ROUNDS = 3


def federation_id(n: int) -> str:
    """The demo players' federation numbers: the register links them across the demo events by these."""
    return f"DEMO-{n:03d}"


def demo_bundle(seed: int = 2026) -> dict[str, Any]:
    bundle = simulated_bundle(
        name=DEMO_NAME,
        movement={"scheme": "basic", "tables": 5},
        played_rounds=PLAYED_ROUNDS,
        participants=[
            {"number": n, "name": name, "club": club, "federation_id": federation_id(n)}
            for n, (name, club) in enumerate(NAMES, start=1)
        ],
        seed=seed,
    )
    session = bundle["sessions"][0]
    # A deal spoilt at one table: the director gave artificial results (rules §11.2).
    spoilt = session["results"][5]
    session["results"][5] = {
        "board": spoilt["board"],
        "round": spoilt["round"],
        "table": spoilt["table"],
        "seats": spoilt["seats"],
        "adjusted": {"N": "A+", "E": "A-", "S": "A", "W": "A"},
    }
    session["penalties"] = [{"participant": 7, "matchpoints": "-2", "reason": "12.2.2 затягивание игры"}]
    return bundle
