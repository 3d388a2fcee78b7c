"""Matchpoints for one comparison group (duplicate rules §8, §10, §11.2; formats.md §2).

A *comparison group* is the set of results of one board, one line (seat N, E, S or W) and one fouled-board
version, artificial adjusted results left out. Every result earns **2** matchpoints for each result of the group
it beats, **1** for each other result it ties with, **0** for each result that beats it; «макс» is ``2(A − 1)``
for A results.

When a group holds fewer results than the session's normal number ``E`` (a fouled board split in versions,
artificial results, a missing table), ``unequal_results`` decides:

* ``neuberg`` (default): ``mp' = (mp + 1) · E / A − 1`` and the group's top is ``2(E − 1)``;
* ``none``: the raw matchpoints stand and the top is ``2(A − 1)``.

Artificial adjusted results («искусственный результат», §11.2 B1) take no part in the comparisons; each of
their seats earns a percentage (``A-`` 40 %, ``A`` 50 %, ``A+`` 60 % by default) of the board-line's top.

Pure Python, exact :class:`~fractions.Fraction` arithmetic, no Django import. Independent of preferans: the
inputs are numbers, whatever game produced them.
"""

from __future__ import annotations

import enum
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

__all__ = [
    "DEFAULT_ARTIFICIAL",
    "GroupScore",
    "MatchpointError",
    "UnequalRule",
    "artificial_matchpoints",
    "group_top",
    "neuberg",
    "raw_matchpoints",
    "score_group",
    "score_line",
]

DEFAULT_ARTIFICIAL: dict[str, Fraction] = {"A-": Fraction(40), "A": Fraction(50), "A+": Fraction(60)}
"""Percentages of the board-line top for the three artificial adjusted results (§11.2 B1)."""


class UnequalRule(enum.Enum):
    """How a comparison group with fewer than the normal number of results is scored (formats.md §2)."""

    NEUBERG = "neuberg"
    NONE = "none"


class MatchpointError(ValueError):
    """The inputs of a matchpoint computation contradict each other (a bug in the caller, not user data)."""


@dataclass(frozen=True)
class GroupScore:
    """Matchpoints of each result of one comparison group (input order) and the group's top («макс»)."""

    matchpoints: tuple[Fraction, ...]
    top: Fraction


def raw_matchpoints(scores: Sequence[Fraction | int]) -> list[int]:
    """2 per result beaten, 1 per other result tied, in input order (§8).

    Sorts once and counts by bisection: O(A log A). Values are brought to a common denominator first so the
    sort and the searches compare plain integers.
    """
    if not scores:
        return []
    # ints and Fractions both have numerator/denominator: no Fraction is created on this hot path
    denominator = lcm(*{s.denominator for s in scores})
    keys = [s.numerator * (denominator // s.denominator) for s in scores]
    ordered = sorted(keys)
    result: list[int] = []
    for key in keys:
        lower = bisect_left(ordered, key)
        equal = bisect_right(ordered, key, lo=lower) - lower
        result.append(2 * lower + equal - 1)
    return result


def neuberg(mp: Fraction | int, *, results: int, expected: int) -> Fraction:
    """Neuberg's formula ``(mp + 1) · E / A − 1`` for a group of A results out of E expected."""
    if results < 1 or expected < results:
        raise MatchpointError(f"Neuberg needs 1 ≤ A ≤ E, got A = {results}, E = {expected}")
    return (Fraction(mp) + 1) * expected / results - 1


def group_top(*, results: int, expected: int, method: UnequalRule) -> Fraction:
    """The top («макс») of a comparison group: ``2(E − 1)`` under Neuberg, ``2(A − 1)`` under ``none``."""
    size = expected if method is UnequalRule.NEUBERG else results
    return Fraction(2 * max(size - 1, 0))


def score_group(
    scores: Sequence[Fraction | int], *, expected: int, method: UnequalRule = UnequalRule.NEUBERG
) -> GroupScore:
    """Matchpoints of a comparison group of A = ``len(scores)`` results, scaled to E = ``expected`` results.

    ``expected`` is the session's normal number of results per board (the largest number of rows any board of
    the session has); it must be at least A.
    """
    count = len(scores)
    if count > expected:
        raise MatchpointError(f"a group of {count} results cannot exceed the expected {expected}")
    raw = raw_matchpoints(scores)
    top = group_top(results=count, expected=expected, method=method)
    # The value depends only on the raw matchpoints: compute each distinct one once.
    if method is UnequalRule.NONE or count == expected:
        plain = {mp: Fraction(mp) for mp in set(raw)}
        return GroupScore(tuple(plain[mp] for mp in raw), top)
    scaled = {mp: neuberg(mp, results=count, expected=expected) for mp in set(raw)}
    return GroupScore(tuple(scaled[mp] for mp in raw), top)


def score_line(
    scores: Sequence[Fraction | int | None],
    *,
    expected: int | None = None,
    method: UnequalRule = UnequalRule.NEUBERG,
) -> tuple[list[Fraction | None], Fraction]:
    """One line of one board where ``None`` marks a result that should exist but does not.

    ``expected`` defaults to ``len(scores)``. Returns the matchpoints (``None`` where the score was ``None``)
    and the group's top.
    """
    present = [s for s in scores if s is not None]
    group = score_group(present, expected=len(scores) if expected is None else expected, method=method)
    values = iter(group.matchpoints)
    return [None if s is None else next(values) for s in scores], group.top


def artificial_matchpoints(percent: Fraction | int, top: Fraction | int) -> Fraction:
    """An artificial adjusted result: ``percent`` % of the board-line's top (§11.2 B1), exact."""
    return Fraction(percent) * Fraction(top) / 100
