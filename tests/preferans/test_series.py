"""Across events, the pure rules (issue 20; docs/players/series.md): sessions' percentages averaged, a final's
carry-over from its qualification, and a series table (best k of n, shared ranks)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from preferans.duplicate.standings import Total, add_totals, average_totals, out_of_the_ranking, rank_totals
from preferans.series import carry_over, carry_share, series_table

F = Fraction


def test_averaged_percent_differs_from_summed_when_sessions_weigh_differently() -> None:
    """Session 1: 30 of 40 (75 %); session 2: 20 of 80 (25 %). Summed: 50/120 = 41 2/3 %; averaged: 50 %."""
    sessions = [{1: Total(F(30), F(40))}, {1: Total(F(20), F(80))}]
    assert add_totals(sessions)[1].percent == F(125, 3)
    averaged = average_totals(sessions)[1]
    assert averaged.percent == F(50)
    assert (averaged.matchpoints, averaged.max) == (F(50), F(120))  # still the sums, shown as they are


def test_a_missed_session_counts_for_nothing_in_the_average() -> None:
    """docs/players/series.md: the mean is over the sessions played (a maximum above 0), as the summed totals
    add nothing to the maximum for a missed session."""
    sessions = [{1: Total(F(30), F(40)), 2: Total(F(10), F(40))}, {1: Total(), 2: Total(F(60), F(80))}]
    totals = average_totals(sessions)
    assert totals[1].percent == F(75)
    assert totals[2].percent == (F(25) + F(75)) / 2
    assert average_totals([{3: Total()}])[3].percent == 0


def test_averaged_percent_ranks_and_survives_the_disqualification_reranking() -> None:
    totals = average_totals(
        [{1: Total(F(30), F(40)), 2: Total(F(44), F(80))}, {1: Total(F(20), F(80)), 2: Total(F(20), F(40))}]
    )
    rows = rank_totals(totals)
    assert [(r.participant, r.percent, r.rank) for r in rows] == [(2, F(105, 2), "1"), (1, F(50), "2")]
    again = out_of_the_ranking(rows, {1})  # the averaged percent is kept, not 100·mp/max
    assert [(r.participant, r.percent, r.rank) for r in again] == [(2, F(105, 2), "1"), (1, F(50), "")]


def test_carry_over_weighs_the_qualification() -> None:
    """percent = (c·Q + F) / (1 + c): c = 1/2, Q = 60, F = 45 → (30 + 45) / (3/2) = 50."""
    totals = carry_over({1: Total(F(45), F(100)), 2: Total(F(55), F(100))}, {1: F(60)}, F(1, 2))
    assert totals[1].percent == F(50)
    assert (totals[1].matchpoints, totals[1].max) == (F(45), F(100))
    assert totals[2].percent == F(55)  # seeded straight into the final: the final alone


def test_no_carry_over_leaves_the_final_alone() -> None:
    totals = {1: Total(F(45), F(100))}
    assert carry_over(totals, {1: F(90)}, F(0)) == totals


@pytest.mark.parametrize(("text", "share"), [("1/2", F(1, 2)), ("0.25", F(1, 4)), ("", F(0)), ("1", F(1))])
def test_carry_share_reads_exact_shares(text: str, share: Fraction) -> None:
    assert carry_share(text) == share


@pytest.mark.parametrize("text", ["3/2", "-1/4", "abc"])
def test_carry_share_refuses_outside_0_to_1(text: str) -> None:
    with pytest.raises(ValueError):
        carry_share(text)


def test_series_best_k_of_n_counts_the_best_and_ignores_the_rest() -> None:
    results = [
        ("ann", "e1", F(60)),
        ("ann", "e2", F(40)),
        ("ann", "e3", F(55)),
        ("bob", "e1", F(70)),
        ("bob", "e3", F(50)),
        ("cid", "e2", F(65)),
    ]
    rows = series_table(results, ["e1", "e2", "e3"], best=2)
    assert [(r.person, r.total, r.rank) for r in rows] == [
        ("bob", F(120), "1"),
        ("ann", F(115), "2"),
        ("cid", F(65), "3"),
    ]
    assert rows[1].counted == frozenset({"e1", "e3"})
    assert rows[1].mean == F(115, 2)
    assert rows[1].values["e2"] == F(40)  # played, shown, not counted


def test_series_without_k_counts_every_event_and_ties_share_a_rank() -> None:
    """Equal totals share a rank; listed by more events played, then in the order given."""
    results = [("ann", 1, F(50)), ("bob", 1, F(30)), ("bob", 2, F(20)), ("cid", 2, F(50))]
    rows = series_table(results, [1, 2])
    assert [(r.person, r.rank) for r in rows] == [("bob", "1-3"), ("ann", "1-3"), ("cid", "1-3")]


def test_series_ignores_events_not_in_the_series_and_an_earlier_event_wins_a_tie_for_the_best() -> None:
    rows = series_table([("ann", 1, F(10)), ("ann", 2, F(10)), ("ann", 9, F(99))], [1, 2], best=1)
    assert rows[0].total == F(10)
    assert rows[0].counted == frozenset({1})
