"""The planner (``--scheme auto``): a valid plan for every N, with the reasons."""

from __future__ import annotations

import pytest

from preferans.movements import MovementError, plan, validate


@pytest.mark.parametrize("n", range(6, 121))
def test_every_plan_passes_the_validator(n: int) -> None:
    p = plan(n)
    report = validate(p.movement)
    assert report.ok, report.problems
    assert p.movement.participants == n
    assert p.explanation
    assert report.properties == p.properties


@pytest.mark.parametrize(
    ("n", "scheme"), [(8, "book"), (9, "book"), (13, "book"), (16, "book"), (24, "book")]
)
def test_book_scheme_where_one_exists(n: int, scheme: str) -> None:
    assert plan(n).movement.scheme == scheme


def test_twelve_gets_the_balanced_cyclic_scheme() -> None:
    p = plan(12)
    assert p.movement.scheme == "cyclic"
    assert p.properties.meetings == ((3, 66),)
    assert len(p.movement.rounds) == 11
    assert "--scheme book" in " ".join(p.explanation)
    assert plan(12, scheme="book").movement.scheme == "book"


@pytest.mark.parametrize(
    ("n", "tables", "per_table"), [(20, 5, 4), (28, 7, 4), (44, 11, 4), (21, 7, 3), (15, 5, 3)]
)
def test_basic_movement_for_a_prime_number_of_tables(n: int, tables: int, per_table: int) -> None:
    m = plan(n).movement
    assert (m.scheme, m.tables, m.per_table, m.rooms) == ("basic", tables, per_table, 1)


def test_long_basic_movement_is_shortened() -> None:
    p = plan(68)  # 17 tables of 4
    assert len(p.movement.rounds) == 13 and p.movement.full_rounds == 17
    assert any("Shortened" in line for line in p.explanation)


@pytest.mark.parametrize("n", [0, 1, 5])
def test_too_few_participants(n: int) -> None:
    with pytest.raises(MovementError, match="at least 6"):
        plan(n)


def test_scheme_that_does_not_exist_for_n() -> None:
    with pytest.raises(MovementError, match="special schemes"):
        plan(14, scheme="book")
    with pytest.raises(MovementError, match="multiple of 4 or 3"):
        plan(22, scheme="basic")
    with pytest.raises(MovementError, match="tables of 4"):
        plan(13, scheme="book", per_table=3)


def test_basic_with_rooms_and_rounds() -> None:
    m = plan(40, scheme="basic", rooms=2).movement
    assert (m.rooms, m.tables, m.per_table) == (2, 5, 4)
    m = plan(28, scheme="basic", rounds=5).movement
    assert len(m.rounds) == 5 and m.full_rounds == 7


@pytest.mark.parametrize("per_table", [3, 4])
@pytest.mark.parametrize("n", [22, 37, 101])
def test_per_table_is_respected(n: int, per_table: int) -> None:
    p = plan(n, per_table=per_table)
    assert p.movement.per_table == per_table
    assert validate(p.movement).ok


def test_auto_with_rounds() -> None:
    p = plan(22, rounds=7)
    assert len(p.movement.rounds) == 7
    assert validate(p.movement).ok


def test_plans_are_deterministic() -> None:
    assert plan(22).movement == plan(22).movement
