"""The worked Swiss cases of ``tests/data/pairing_vectors.json``: the engine reaches the proved least (R, D) of
every case, and the first (pairing-spec §4's worked example) has its one correct seating."""

from __future__ import annotations

import pytest

from preferans.pairing import pair
from preferans.pairing.check import check
from tests import golden

CASES = golden.load("pairing_vectors.json")["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["note"] for c in CASES])
def test_every_vector_reaches_the_least_repeats_then_displacement(case) -> None:
    """«A Swiss seating is correct when it has the least R of all seatings with the sizes of §1, and, among
    those, the least D» (pairing-spec §4)."""
    data = case["input"]
    seating = pair(data["form"], data["per_table"], data["players"], data.get("history", []), data["seed"], 5)
    assert (seating.repeats, seating.displacement) == (case["repeats"], case["displacement"])
    assert seating.optimal
    checked = check(
        data["form"],
        data["per_table"],
        data["players"],
        data.get("history", []),
        seating.tables,
        seating.byes,
    )
    assert checked.valid and checked.correct and checked.least == (case["repeats"], case["displacement"])


def test_worked_example_has_its_unique_seating() -> None:
    """pairing-spec §4 worked example: «The correct seating is {A, C, D, E} and {B, F, G, H} (R = 0, D = 4)»."""
    data = CASES[0]["input"]
    seating = pair(data["form"], data["per_table"], data["players"], data["history"], data["seed"])
    assert [sorted(t) for t in seating.tables] == CASES[0]["tables_as_sets"]


def test_same_input_same_seats() -> None:
    """Seats at a table by lot from the seed: the same input gives the same output (formats §9.1 «seed»)."""
    data = CASES[0]["input"]
    runs = {pair(data["form"], 4, data["players"], data["history"], 11).tables for _ in range(3)}
    assert len(runs) == 1
    other = {pair(data["form"], 4, data["players"], data["history"], s).tables for s in range(20)}
    assert len(other) > 1  # the seed does draw the seats
