"""Standings: totals, maxima, percentages, shared ranks, penalties, several sessions (rules §9, §12)."""

from __future__ import annotations

from fractions import Fraction

from preferans.duplicate.standings import Total, add_totals, rank_totals, session_totals


def test_session_totals_sum_matchpoints_and_tops() -> None:
    totals = session_totals(
        [(1, Fraction(4), Fraction(8)), (1, Fraction(3), Fraction(8)), (2, Fraction(1), Fraction(8))]
    )
    assert totals[1] == Total(Fraction(7), Fraction(16))
    assert totals[2] == Total(Fraction(1), Fraction(8))


def test_penalties_change_matchpoints_not_max() -> None:
    totals = session_totals(
        [(3, Fraction(10), Fraction(16))], penalties=[(3, Fraction(-2)), (3, Fraction(1, 2))]
    )
    assert totals[3] == Total(Fraction(17, 2), Fraction(16))


def test_penalty_for_someone_who_did_not_play_this_session() -> None:
    totals = session_totals([], penalties=[(5, Fraction(-3))])
    assert totals[5] == Total(Fraction(-3), Fraction(0))


def test_listed_participants_appear_with_nothing() -> None:
    assert session_totals([], participants=[7]) == {7: Total()}


def test_percent_is_exact_and_zero_without_max() -> None:
    assert Total(Fraction(123, 2), Fraction(160)).percent == Fraction(12300, 320)
    assert Total(Fraction(-3), Fraction(0)).percent == 0


def test_ranks_sorted_by_percent_with_shared_ranks() -> None:
    totals = {
        1: Total(Fraction(4), Fraction(8)),  # 50 %
        2: Total(Fraction(6), Fraction(8)),  # 75 %
        3: Total(Fraction(8), Fraction(16)),  # 50 %
        4: Total(Fraction(2), Fraction(8)),  # 25 %
        5: Total(Fraction(2), Fraction(4)),  # 50 %
    }
    standings = rank_totals(totals, {1: "Иванов", 2: "Петров"})
    assert [(s.participant, s.rank) for s in standings] == [
        (2, "1"),
        (1, "2-4"),
        (3, "2-4"),
        (5, "2-4"),
        (4, "5"),
    ]
    assert standings[0].name == "Петров"
    assert standings[-1].name == ""
    assert standings[0].percent == 75


def test_ties_use_exact_percentages_not_rounded_ones() -> None:
    # 4/7 = 57.142857…% and 57.14% exactly both print "57.14" but are not equal
    totals = {1: Total(Fraction(4), Fraction(7)), 2: Total(Fraction(5714), Fraction(10000))}
    standings = rank_totals(totals)
    assert [(s.participant, s.rank) for s in standings] == [(1, "1"), (2, "2")]


def test_two_way_tie_at_the_top() -> None:
    totals = {9: Total(Fraction(1), Fraction(2)), 3: Total(Fraction(2), Fraction(4))}
    assert [(s.participant, s.rank) for s in rank_totals(totals)] == [(3, "1-2"), (9, "1-2")]


def test_multi_session_sums_then_divides() -> None:
    s1 = {1: Total(Fraction(6), Fraction(8)), 2: Total(Fraction(2), Fraction(8))}
    s2 = {1: Total(Fraction(0), Fraction(24)), 2: Total(Fraction(20), Fraction(24))}
    totals = add_totals([s1, s2])
    assert totals[1] == Total(Fraction(6), Fraction(32))
    assert totals[2] == Total(Fraction(22), Fraction(32))
    standings = rank_totals(totals)
    assert [s.participant for s in standings] == [2, 1]
    assert standings[0].percent == Fraction(2200, 32)


def test_negative_total_after_penalty_ranks_last() -> None:
    totals = {1: Total(Fraction(-1), Fraction(8)), 2: Total(Fraction(0), Fraction(8))}
    assert [(s.participant, s.rank) for s in rank_totals(totals)] == [(2, "1"), (1, "2")]
