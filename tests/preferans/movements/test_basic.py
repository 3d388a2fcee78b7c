"""Basic movement (seed §5), the skip procedure, rooms and substitutes."""

from __future__ import annotations

from itertools import combinations

import pytest

from preferans.movements import Line, MovementError, basic_movement, check, validate
from preferans.movements.basic import skips
from preferans.movements.model import lines_for


def _line_of(m_rounds: object, per_table: int, tables: int, p: int) -> Line:
    return lines_for(per_table)[(p - 1) // tables]


@pytest.mark.parametrize("per_table", [3, 4])
@pytest.mark.parametrize("tables", [5, 7, 11, 13])
def test_prime_tables_meet_each_player_of_another_line_once(tables: int, per_table: int) -> None:
    m = basic_movement(tables, per_table)
    p = check(m)
    assert len(m.rounds) == tables and m.sets == tables
    assert set(p.sets_played) == {tables}  # every participant plays every set once
    assert p.results_per_board_line == p.results_per_board_line_max == tables
    meets: dict[tuple[int, int], int] = {}
    for rnd in m.rounds:
        for ta in rnd.tables:
            for a, b in combinations(sorted(ta.participants()), 2):
                meets[(a, b)] = meets.get((a, b), 0) + 1
    n = m.participants
    for a, b in combinations(range(1, n + 1), 2):
        same_line = (a - 1) // tables == (b - 1) // tables
        assert meets.get((a, b), 0) == (0 if same_line else 1)


def test_first_round_numbering_matches_the_bundle_example() -> None:
    table1 = basic_movement(5).rounds[0].tables[0]
    assert table1.seat_map() == {Line.N: 1, Line.E: 6, Line.S: 11, Line.W: 16}


def test_steps_and_sets() -> None:
    m = basic_movement(7)
    where1 = m.rounds[0].where()
    where2 = m.rounds[1].where()
    for p, (_, seat) in where1.items():
        nxt = where2[p][1]
        step = {Line.N: 0, Line.E: 1, Line.S: 2, Line.W: -2}[seat.line]
        assert nxt.line == seat.line
        assert (nxt.table - 1) % 7 == (seat.table - 1 + step) % 7
    sets1 = {ta.table: ta.set for ta in m.rounds[0].tables}
    sets2 = {ta.table: ta.set for ta in m.rounds[1].tables}
    for t in range(1, 8):  # the set goes to the table numbered one lower; table 1 hands to table 7
        assert sets2[(t - 2) % 7 + 1] == sets1[t]


@pytest.mark.parametrize("per_table", [3, 4])
@pytest.mark.parametrize("tables", range(3, 26))
def test_skip_procedure_is_valid(tables: int, per_table: int) -> None:
    m = basic_movement(tables, per_table)
    report = validate(m)
    assert report.ok, report.problems
    assert max(report.properties.sets_played) == tables


def test_six_tables_cost_of_skipping() -> None:
    p = check(basic_movement(6))
    assert dict(p.meetings)[2] == 66  # movements.md §2: T = 6, 66 pairs meet twice
    assert skips(6, 4)  # E (and S) must skip


def test_no_skips_for_tables_coprime_to_six() -> None:
    for t in (5, 7, 11, 13, 25, 35):
        assert skips(t, 4) == []


@pytest.mark.parametrize("rounds", [2, 4, 6])
def test_director_may_shorten(rounds: int) -> None:
    m = basic_movement(7, rounds=rounds)
    p = check(m)
    assert len(m.rounds) == rounds and m.full_rounds == 7
    assert p.results_per_board_line == rounds


def test_shortening_beyond_the_cycle_is_refused() -> None:
    with pytest.raises(MovementError, match="2…7 rounds"):
        basic_movement(7, rounds=8)


def test_rooms_play_the_same_boards_and_are_compared_together() -> None:
    m = basic_movement(5, 4, rooms=3)
    p = check(m)
    assert m.participants == 60 and m.rooms == 3
    assert p.results_per_board_line == 15  # 5 per room, compared across the rooms
    for rnd in m.rounds:
        by_room = {(ta.room, ta.table): ta.set for ta in rnd.tables}
        assert all(by_room[(1, t)] == by_room[(r, t)] for r in (2, 3) for t in range(1, 6))


@pytest.mark.parametrize(
    ("tables", "per_table", "extra"), [(5, 4, 1), (7, 4, 2), (11, 4, 3), (7, 3, 1), (13, 3, 2)]
)
def test_substitutes_rest_evenly(tables: int, per_table: int, extra: int) -> None:
    m = basic_movement(tables, per_table, extra=extra)
    p = check(m)
    assert m.participants == tables * per_table + extra
    assert max(p.rests) <= 1
    assert all(len(r.resting) == extra for r in m.rounds)


def test_too_few_tables() -> None:
    with pytest.raises(MovementError):
        basic_movement(1)
