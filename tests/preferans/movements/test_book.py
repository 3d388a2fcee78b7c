"""The book's special schemes (seed §5) reproduce the properties table of movements.md §3."""

from __future__ import annotations

import pytest

from preferans.movements import BOOK_SCHEMES, Line, book_movement, check, validate
from preferans.movements.routes import numbering

# participants: (rounds, sets each player plays, results per board per line, meetings {times: pairs})
TABLE = {
    8: (7, 7, 2, {3: 28}),
    9: (9, 8, 2, {2: 9, 3: 18, 4: 9}),
    12: (11, 11, 3, {1: 11, 2: 11, 3: 22, 4: 11, 5: 11}),
    13: (13, 12, 3, {3: 78}),
    16: (7, 7, 4, {0: 64, 3: 56}),  # within a group 3 times; the groups never meet
    18: (9, 8, 4, {0: 81, 2: 18, 3: 36, 4: 18}),  # as for 9, within each group
    24: (11, 11, 6, {0: 144, 1: 22, 2: 22, 3: 44, 4: 22, 5: 22}),  # as for 12, within each group
}


@pytest.mark.parametrize("n", sorted(TABLE))
def test_properties_equal_the_table(n: int) -> None:
    rounds, sets_each, per_line, meetings = TABLE[n]
    m = book_movement(n)
    p = check(m)
    assert m.scheme == "book"
    assert len(m.rounds) == rounds
    assert set(p.sets_played) == {sets_each}
    assert p.results_per_board_line == p.results_per_board_line_max == per_line
    assert dict(p.meetings) == meetings


def test_every_book_number_is_covered() -> None:
    assert sorted(BOOK_SCHEMES) == sorted(TABLE)


def test_sixteen_uses_the_corrected_route() -> None:
    group2 = BOOK_SCHEMES[16].groups[1]
    assert group2.route == ("3W", "3N", "4N", "3S", "4E", "4W", "4S")
    assert group2.fixed == ("3E",)


@pytest.mark.parametrize(
    ("n", "player", "seat"), [(16, 16, (3, Line.E)), (24, 24, (4, Line.E)), (8, 8, (1, Line.N))]
)
def test_fixed_seats_take_the_groups_last_numbers(n: int, player: int, seat: tuple[int, Line]) -> None:
    for rnd in book_movement(n).rounds:
        ta = next(t for t in rnd.tables if t.table == seat[0])
        assert ta.seat_map()[seat[1]] == player


def test_numbering_along_the_route_from_its_first_place() -> None:
    first, moving, fixed = numbering(BOOK_SCHEMES[13])[0]
    assert first == 1
    assert moving[0] == (1, "P") and moving[1] == (2, "2W") and moving[-1] == (13, "1N")
    assert fixed == []
    r1 = book_movement(13).rounds[0]
    assert r1.resting == (1,)
    assert r1.tables[0].seat_map() == {Line.N: 13, Line.E: 6, Line.S: 9, Line.W: 4}


def test_group_two_of_eighteen_is_numbered_ten_to_eighteen_at_tables_three_and_four() -> None:
    for rnd in book_movement(18).rounds:
        for ta in rnd.tables:
            players = set(ta.participants())
            assert players <= (set(range(1, 10)) if ta.table <= 2 else set(range(10, 19)))


@pytest.mark.parametrize("n", [8, 16, 18])
def test_paired_tables_play_the_same_set(n: int) -> None:
    for rnd in book_movement(n).rounds:
        sets = {ta.table: ta.set for ta in rnd.tables}
        assert sets[1] == sets[2]
        if n > 9:
            assert sets[3] == sets[4] != sets[1]


def test_twenty_four_row_order() -> None:
    m = book_movement(24)
    first = {ta.table: ta.set for ta in m.rounds[0].tables}
    # 1-4-Z-Z-2-5-Z-3-6-Z-Z: place 1 → table 1, place 2 → table 4, place 5 → table 2, ...
    assert first == {1: 1, 4: 2, 2: 5, 5: 6, 3: 8, 6: 9}


def test_shortened_paired_scheme_stays_valid() -> None:
    m = book_movement(8, rounds=5)
    report = validate(m)
    assert report.ok, report.problems
    assert m.full_rounds == 7 and report.properties.unused_sets == (6, 7)


def test_shortening_thirteen_leaves_boards_without_comparison() -> None:
    report = validate(book_movement(13, rounds=10))
    assert any(p.startswith("M5: set 2 is played only 1 time(s) in line N") for p in report.problems)
