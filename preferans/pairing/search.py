"""A fast start for the Swiss (pairing §4): from the book's seating, swaps of two players of different tables
that lower (R, D) lexicographically, until none does or the time is up. Not a proof; the solver's hint."""

from __future__ import annotations

import time

from .problem import Problem
from .sizes import book_tables

__all__ = ["improve"]


def improve(problem: Problem, deadline: float, seat: list[int] | None = None) -> list[int]:
    """A seating (rank → table) no single swap improves, or the best reached by ``deadline`` (a
    ``time.monotonic()`` value)."""
    seat = list(seat) if seat is not None else book_tables(problem.sizes)
    members: list[set[int]] = [set() for _ in problem.sizes]
    for p, k in enumerate(seat):
        members[k].add(p)
    met = problem.met
    n = problem.players

    def count(p: int, k: int) -> int:
        return len(met[p] & members[k]) if met[p] else 0

    improved = True
    while improved and time.monotonic() < deadline:
        improved = False
        for p in range(n):
            a = seat[p]
            here = count(p, a)
            d_pa = problem.d(p, a)
            if here == 0 and d_pa == 0:
                continue
            best: tuple[int, int, int] | None = None
            for q in range(n):
                b = seat[q]
                if b == a:
                    continue
                both = 1 if q in met[p] else 0
                dr = count(q, a) - both - here + count(p, b) - both - count(q, b)
                dd = problem.d(p, b) + problem.d(q, a) - d_pa - problem.d(q, b)
                if (dr, dd) < (0, 0) and (best is None or (dr, dd) < best[:2]):
                    best = (dr, dd, q)
            if best is not None:
                q = best[2]
                b = seat[q]
                members[a].remove(p)
                members[b].remove(q)
                members[a].add(q)
                members[b].add(p)
                seat[p], seat[q] = b, a
                improved = True
            if time.monotonic() >= deadline:
                break
    return seat
