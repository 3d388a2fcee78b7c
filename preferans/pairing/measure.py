"""What a seating costs (pairing §4): repeats R and displacement D, computed from ids alone."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from itertools import combinations
from typing import TypeVar

__all__ = ["displacement", "met_pairs", "repeats", "shift"]

P = TypeVar("P", bound=Hashable)


def met_pairs(history: Iterable[Iterable[Iterable[P]]]) -> set[frozenset[P]]:
    """Every unordered pair of ids that sat at one table in an earlier round (pairing §4: a pair counts once)."""
    met: set[frozenset[P]] = set()
    for round_ in history:
        for table in round_:
            for a, b in combinations(list(table), 2):
                if a != b:
                    met.add(frozenset((a, b)))
    return met


def repeats(tables: Sequence[Sequence[P]], met: set[frozenset[P]]) -> int:
    """R: the pairs seated at one table who met before."""
    return sum(1 for table in tables for a, b in combinations(table, 2) if frozenset((a, b)) in met)


def shift(rank: int, interval: tuple[int, int]) -> int:
    """d(r, k) = max(0, a_k − r, r − b_k): how far rank ``rank`` is from the ranks of the table's interval."""
    low, high = interval
    return max(0, low - rank, rank - high)


def displacement(tables: Sequence[Sequence[P]], rank: dict[P, int], spans: Sequence[tuple[int, int]]) -> int:
    """D: the sum of every seated player's d over his table's interval."""
    return sum(shift(rank[p], spans[k]) for k, table in enumerate(tables) for p in table)
