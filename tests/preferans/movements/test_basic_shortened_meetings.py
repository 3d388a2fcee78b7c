"""A shortened basic movement does not claim that everyone meets every player of the other lines.

Seed 004 §5: «Сессия завершается, когда игроки обойдут все столы… Судья может остановить сессию до завершения
полного круга, сообщив об этом до начала сессии. Подобная процедура позволяет сыграть между собой трем четвертям
всех участников, исключая занимавших одну и ту же позицию (линию).» — "The session ends when the players have been
round all the tables… The director may stop the session before the full cycle, announcing it before the session.
This procedure lets three quarters of all participants play each other, except those of the same line."
The three quarters hold for the full cycle only; a shortened session leaves pairs apart, and the planner says how
many, counted from the movement.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from django.utils import translation

from duplicate.movement_text import plan_text
from preferans.movements import basic_movement, plan, unmet_line_pairs


def _brute_force(tables: int, per_table: int, rounds: int) -> tuple[int, int]:
    """Pairs of different lines that never sit at one table, counted straight from the seats of every round."""
    m = basic_movement(tables, per_table, rounds=rounds)
    line_of = {p: line for line, p in [s for ta in m.rounds[0].tables for s in ta.seats]}
    together = {
        frozenset(pair) for _, ta in m.seatings() for pair in combinations([p for _, p in ta.seats], 2)
    }
    cross = [frozenset((a, b)) for a, b in combinations(sorted(line_of), 2) if line_of[a] != line_of[b]]
    return sum(pair not in together for pair in cross), len(cross)


# (tables, players per table, rounds played, pairs of different lines that never meet: C(k,2)·T·(T−R))
CASES = [
    (5, 4, 5, 0),
    (7, 4, 7, 0),
    (7, 4, 5, 6 * 7 * 2),
    (17, 4, 13, 6 * 17 * 4),
    (11, 3, 6, 3 * 11 * 5),
    (13, 3, 13, 0),
    (19, 4, 2, 6 * 19 * 17),
]


@pytest.mark.parametrize(("tables", "per_table", "rounds", "never"), CASES)
def test_rule_5_shortened_basic_movement_leaves_pairs_apart(tables, per_table, rounds, never):
    m = basic_movement(tables, per_table, rounds=rounds)
    assert unmet_line_pairs(m) == _brute_force(tables, per_table, rounds)
    assert unmet_line_pairs(m)[0] == never
    assert unmet_line_pairs(m)[1] == per_table * (per_table - 1) // 2 * tables * tables


# (participants, rounds asked, the planner's first reason code, pairs that never meet or None when all meet)
PLANS = [
    (20, None, "basic_perfect_4", None),
    (68, None, "basic_shortened_4", 408),
    (28, 5, "basic_shortened_4", 84),
    (33, 6, "basic_shortened_3", 165),
    (21, None, "basic_perfect_3", None),
]


@pytest.mark.parametrize(("n", "rounds", "code", "never"), PLANS)
def test_rule_5_shortened_basic_movement_says_how_many_pairs_never_meet(n, rounds, code, never):
    p = plan(n, rounds=rounds, per_table=3 if code.endswith("3") else 4)
    first = p.explanation[0]
    assert first.code == code
    if never is None:
        assert "exactly once" in first
        return
    assert "exactly once" not in " ".join(p.explanation)
    assert f"{never} of the" in first and first.params["never"] == never
    with translation.override("ru"):
        ru = " ".join(plan_text(p).reasons)
    assert f"{never} так и не встретятся" in ru and "ровно один раз" not in ru
