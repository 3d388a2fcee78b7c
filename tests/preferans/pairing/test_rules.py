"""Pairing-spec §1–§4 item by item (``docs/rules/pairing-spec.md``; the book: 004 Part III)."""

from __future__ import annotations

import random
import time

import pytest

from preferans.pairing import intervals, pair, split_tables
from preferans.pairing.enumerate import least_by_enumeration
from preferans.pairing.measure import shift
from preferans.pairing.pair import build_problem
from preferans.pairing.search import improve
from preferans.pairing.solver import solve


@pytest.mark.parametrize(
    ("n", "s", "sizes", "byes"),
    [
        (12, 4, [4, 4, 4], 0),
        (11, 4, [4, 4, 3], 0),
        (6, 4, [3, 3], 0),
        (13, 3, [4, 3, 3, 3], 0),
        (12, 3, [3, 3, 3, 3], 0),
        (7, 3, [4, 3], 0),
        (5, 4, [4], 1),
        (5, 3, [4], 1),
        (2, 4, [], 2),
        (1, 3, [], 1),
    ],
)
def test_table_sizes(n, s, sizes, byes) -> None:
    """Pairing §1: «t = ⌈n/4⌉ when s = 4, t = ⌊n/3⌋ when s = 3; f = n − 3t of them hold 4 players… the tables of
    4 first… (n = 1, 2, 5), the lowest-ranked players get a bye, as few as possible»."""
    assert split_tables(n, s) == (sizes, byes)


def test_byes_go_to_the_lowest_ranked() -> None:
    """Pairing §4: «Byes (§1) go to the lowest-ranked in both forms and count in neither R nor D»."""
    for form in ("compensation", "swiss"):
        seating = pair(form, 4, list("ABCDE"), [[list("ABCD")]])
        assert seating.byes == ("E",) and sorted(seating.tables[0]) == list("ABCD")


def test_rank_intervals_and_displacement() -> None:
    """Pairing §2 and §4: «d(r, k) = max(0, a_k − r, r − b_k)»; tables of 4 first fill ranks in order."""
    assert intervals([4, 4, 3]) == [(0, 3), (4, 7), (8, 10)]
    assert [shift(r, (4, 7)) for r in (0, 1, 4, 7, 8, 10)] == [4, 3, 0, 0, 1, 3]


def test_compensation_is_the_books_tables() -> None:
    """004 Part III: «Игроки с самым высоким рейтингом занимают первый стол в следующем туре, затем в соответствии
    с рейтингом заполняется второй стол и т. д.» — even when the same players met before."""
    players = [f"p{i}" for i in range(11)]
    history = [[players[0:4], players[4:8], players[8:11]]]
    seating = pair("compensation", 4, players, history, seed=3)
    assert [sorted(t) for t in seating.tables] == [sorted(t) for t in history[0]]
    assert (seating.repeats, seating.displacement, seating.optimal) == (6 + 6 + 3, 0, True)


def test_swiss_avoids_repeats_before_displacement() -> None:
    """Pairing §4: «nobody meets an earlier opponent while the field allows otherwise, and, subject to that,
    everyone plays as close to his place in the ranking as possible»."""
    players = [f"p{i}" for i in range(16)]
    history = [[players[0:4], players[4:8], players[8:12], players[12:16]]]
    seating = pair("swiss", 4, players, history, seed=1)
    assert seating.repeats == 0 and seating.optimal
    # every table takes one player of each old table; by hand: ranks 1, 2, 3 go to tables 2, 3, 4
    # (4 − 1 + 8 − 2 + 12 − 3 = 18, and 18 for ranks 12–14 upwards), rank 4 to table 1 (1) and 6, 7 to tables 3,
    # 4 (2 + 5, or 1 + 6: 7), the same for ranks 8–11: 18 + 18 + 8 + 8 = 52
    assert sorted(len({players.index(p) // 4 for p in t}) for t in seating.tables) == [4, 4, 4, 4]
    assert seating.displacement == 52
    # 12 players after tables of 4: every table must keep two old acquaintances (three old tables, four seats)
    few = players[:12]
    again = pair("swiss", 4, few, [[few[0:4], few[4:8], few[8:12]]], seed=1)
    assert (
        again.repeats
        == 3
        == least_by_enumeration(build_problem(few, [4, 4, 4], [[few[0:4], few[4:8], few[8:12]]]))[0]
    )


def test_swiss_without_history_is_the_book() -> None:
    """Pairing §4: with no earlier meetings the book seating has R = 0 and D = 0, so it is the correct one."""
    players = [f"p{i}" for i in range(20)]
    seating = pair("swiss", 3, players)
    assert (seating.repeats, seating.displacement, seating.optimal) == (0, 0, True)
    assert [sorted(t) for t in seating.tables] == [
        sorted(players[a : b + 1]) for a, b in intervals([4, 4, 3, 3, 3, 3])
    ]


def test_history_ids_not_in_the_field_only_count_among_themselves() -> None:
    """Formats §9.1: ids of withdrawn or cut players in ``history`` «only count for pairs they form with each
    other (which never matter)»."""
    players = list("ABCDEFGH")
    seating = pair("swiss", 4, players, [[["X", "Y", "Z"]], [["A", "X"], ["B", "Y", "Z"]]])
    assert (seating.repeats, seating.displacement) == (0, 0)


@pytest.mark.parametrize("seed", range(25))
def test_solver_agrees_with_plain_enumeration(seed) -> None:
    """The software's cross-check: on random fields of at most 12 players with random earlier rounds, the solver's
    (R, D) equals the least found by enumerating every seating, and it is flagged proved."""
    rng = random.Random(seed)
    n = rng.randint(3, 12)
    s = rng.choice([3, 4])
    players = [f"q{i}" for i in range(n)]
    history = random_history(rng, players, s, rng.randint(0, 5))
    sizes, byes = split_tables(n, s)
    problem = build_problem(players[: n - byes], sizes, history)
    least = least_by_enumeration(problem)
    solved = solve(problem, improve(problem, time.monotonic() + 0.5), 5)
    assert problem.valid(solved.seat) and solved.proved
    assert problem.cost(solved.seat) == least
    seating = pair("swiss", s, players, history, seed, 5)  # the product's path (enumeration up to 12 players)
    assert (seating.repeats, seating.displacement) == least and seating.optimal


def random_history(
    rng: random.Random, players: list[str], per_table: int, rounds: int
) -> list[list[list[str]]]:
    """``rounds`` earlier rounds, each ``players`` shuffled by ``rng`` into tables of the sizes of pairing §1."""
    history = []
    for _ in range(rounds):
        order = players[:]
        rng.shuffle(order)
        sizes, _b = split_tables(len(players), per_table)
        start, tables = 0, []
        for size in sizes:
            tables.append(order[start : start + size])
            start += size
        history.append(tables)
    return history
