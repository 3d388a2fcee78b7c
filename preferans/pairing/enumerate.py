"""The least (R, D) by plain enumeration of every seating (pairing §4), for small fields: the cross-check of the
solver and the checker's proof for fields of at most ``ENUMERATION_LIMIT`` players."""

from __future__ import annotations

from itertools import combinations

from .problem import Problem

__all__ = ["ENUMERATION_LIMIT", "least_by_enumeration", "least_seating"]

ENUMERATION_LIMIT = 12  # 12 players at tables of 4: 34,650 seatings


def least_by_enumeration(problem: Problem) -> tuple[int, int]:
    """Every way to fill table 1, then table 2 from the rest, and so on: the least (R, D) of them all."""
    return least_seating(problem)[0]


def least_seating(problem: Problem) -> tuple[tuple[int, int], list[int]]:
    """The least (R, D) and the first seating (rank → table) found with it, by enumerating every seating (a
    branch stops once its partial (R, D) is no better than the best complete one)."""
    best: tuple[int, int] | None = None
    best_seat: list[int] = []
    sizes = problem.sizes
    seat = [0] * problem.players

    def fill(k: int, left: tuple[int, ...], r: int, d: int) -> None:
        nonlocal best, best_seat
        if best is not None and (r, d) >= best:
            return
        if k == len(sizes):
            best, best_seat = (r, d), list(seat)
            return
        for chosen in combinations(left, sizes[k]):
            rr = r + sum(1 for i, p in enumerate(chosen) for q in chosen[i + 1 :] if q in problem.met[p])
            dd = d + sum(problem.d(p, k) for p in chosen)
            for p in chosen:
                seat[p] = k
            rest = tuple(p for p in left if p not in chosen)
            fill(k + 1, rest, rr, dd)

    fill(0, tuple(range(problem.players)), 0, 0)
    return (best if best is not None else (0, 0)), best_seat
