"""Matchpoints of one comparison group (duplicate rules §8, §10, §11.2; formats.md §2)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from preferans.duplicate.matchpoints import (
    DEFAULT_ARTIFICIAL,
    MatchpointError,
    UnequalRule,
    artificial_matchpoints,
    group_top,
    neuberg,
    raw_matchpoints,
    score_group,
    score_line,
)
from tests import golden

CASES = golden.load("matchpoint_cases.json")["cases"]


def test_the_golden_file_has_all_74_cases() -> None:
    assert len(CASES) == 74


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_matchpoint_case(case: dict[str, Any]) -> None:
    scores = case["scores"]
    expected = [None if v is None else Fraction(v) for v in case["expected_mp"]]
    got, top = score_line([None if s is None else Fraction(s) for s in scores])
    assert got == expected
    assert top == case["top_if_all_played"]


def test_rules_example_section_8() -> None:
    # duplicate rules §8: vists [52, 14, 14, −31, 7] → MP [8, 5, 5, 0, 2]; макс 8
    group = score_group([52, 14, 14, -31, 7], expected=5)
    assert group.matchpoints == (8, 5, 5, 0, 2)
    assert group.top == 8


def test_fractions_are_compared_exactly() -> None:
    # 16/3 and 5.3333 differ; thirds and halves sort correctly
    assert raw_matchpoints([Fraction(16, 3), Fraction(-8, 3), Fraction(-8, 3), Fraction(11, 2)]) == [
        4,
        1,
        1,
        6,
    ]


def test_neuberg_formula() -> None:
    # (mp + 1) · E / A − 1
    assert neuberg(0, results=2, expected=3) == Fraction(1, 2)
    assert neuberg(2, results=2, expected=3) == Fraction(7, 2)
    assert neuberg(6, results=4, expected=5) == Fraction(31, 4)
    assert neuberg(4, results=4, expected=4) == 4  # A = E: unchanged


def test_neuberg_single_result_gets_half_the_top() -> None:
    group = score_group([Fraction(10)], expected=5)
    assert group.matchpoints == (4,)
    assert group.top == 8


def test_neuberg_group_top_is_2_e_minus_1() -> None:
    assert group_top(results=3, expected=5, method=UnequalRule.NEUBERG) == 8
    assert score_group([1, 2, 3], expected=5).top == 8


def test_none_keeps_raw_matchpoints_and_own_top() -> None:
    group = score_group([1, 2, 3], expected=5, method=UnequalRule.NONE)
    assert group.matchpoints == (0, 2, 4)
    assert group.top == 4


def test_neuberg_keeps_the_group_total_proportional() -> None:
    # A results share A(A−1) raw; scaled they share A(E−1)·... each mp' = (mp+1)E/A − 1, so the sum is A(E−1)
    group = score_group([5, 3, 3, 1], expected=7)
    assert sum(group.matchpoints) == 4 * (7 - 1)


def test_group_larger_than_expected_is_a_bug() -> None:
    with pytest.raises(MatchpointError):
        score_group([1, 2, 3], expected=2)
    with pytest.raises(MatchpointError):
        neuberg(1, results=0, expected=3)


def test_empty_group() -> None:
    assert score_group([], expected=3).matchpoints == ()


def test_artificial_percentages_of_top() -> None:
    assert DEFAULT_ARTIFICIAL == {"A-": 40, "A": 50, "A+": 60}
    assert artificial_matchpoints(60, 8) == Fraction(24, 5)
    assert artificial_matchpoints(50, 8) == 4
    assert artificial_matchpoints(40, 8) == Fraction(16, 5)
    assert artificial_matchpoints(Fraction(125, 2), 4) == Fraction(5, 2)


def test_assigned_values_compare_like_played_ones() -> None:
    # an assigned result is just a number in the group
    group = score_group([Fraction(12), Fraction(-5), Fraction(12)], expected=3)
    assert group.matchpoints == (3, 0, 3)


def test_one_row_per_board_session_has_zero_top() -> None:
    group = score_group([Fraction(7)], expected=1)
    assert group.matchpoints == (0,)
    assert group.top == 0
