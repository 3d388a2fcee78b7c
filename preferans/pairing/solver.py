"""The exact Swiss (pairing §4) with OR-Tools CP-SAT: one model, objective R·BIG + D (BIG above any D, so the
least R comes first, then the least D), the fast start as a hint.

Each rank may sit only at the tables of its *domain*: every table when the field is small enough (then an
OPTIMAL status is a proof), else the tables with d(r, k) ≤ L for the largest L a variable budget allows. A
restricted model still proves its seating least when it found R = 0 and L ≥ D − 1: any better seating would also
have R = 0 and D' < D, so every player of it has d ≤ D − 1 ≤ L, inside the domain.
"""

from __future__ import annotations

import time
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .partition import least_repeats, least_shift
from .problem import Problem
from .search import improve

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

__all__ = ["Solved", "solve"]

BUDGET = 24_000  # (rank, table) variables the model may hold


@dataclass(frozen=True)
class Solved:
    seat: list[int]
    proved: bool


def _reach(problem: Problem, rank: int, limit: int) -> range:
    """The tables k with d(rank, k) ≤ ``limit``: those whose interval meets [rank − limit, rank + limit]."""
    return range(bisect_left(problem.ends, rank - limit), bisect_right(problem.starts, rank + limit))


def _limit(problem: Problem, budget: int) -> int | None:
    """The largest L whose domain fits ``budget`` variables; None when every table fits (the full model)."""
    n, t = problem.players, len(problem.sizes)
    if n * t <= budget:
        return None
    limit = 0
    while sum(len(_reach(problem, p, limit + 1)) for p in range(n)) <= budget:
        limit += 1
    return limit


def _domain(problem: Problem, limit: int | None, hint: list[int]) -> list[list[int]]:
    t = len(problem.sizes)
    if limit is None:
        return [list(range(t)) for _ in range(problem.players)]
    out = []
    for p in range(problem.players):
        tables = list(_reach(problem, p, limit))
        if hint[p] not in tables:
            tables = sorted([*tables, hint[p]])
        out.append(tables)
    return out


def _relabel(problem: Problem, seat: list[int]) -> list[int]:
    """The same seating with the tables of one size ordered by their best-ranked player (the symmetry break)."""
    first: dict[int, int] = {}
    for p, k in enumerate(seat):
        first.setdefault(k, p)
    out = list(seat)
    for size in set(problem.sizes):
        group = [k for k, s in enumerate(problem.sizes) if s == size]
        order = sorted(group, key=lambda k: first[k])
        new = dict(zip(order, group, strict=True))
        out = [new.get(k, k) if problem.sizes[k] == size else k for k in out]
    return out


class _Model:
    """x[p, k]: rank p at table k (within its domain); z[p, q]: the pair met before and sits together."""

    def __init__(self, problem: Problem, domain: list[list[int]], repeats: bool = True) -> None:
        """``repeats`` False: no z and no repeat cuts (the caller forbids every repeat itself)."""
        from ortools.sat.python import cp_model  # loaded when a search needs it (0.5 s): not on every import

        self.model = model = cp_model.CpModel()
        self.domain = domain
        n = problem.players
        self.x: dict[tuple[int, int], cp_model.IntVar] = {}
        for p, tables in enumerate(domain):
            for k in tables:
                self.x[p, k] = model.new_bool_var(f"x{p}_{k}")
            model.add_exactly_one(self.x[p, k] for k in tables)
        for k, size in enumerate(problem.sizes):
            model.add(sum(self.x[p, k] for p in range(n) if (p, k) in self.x) == size)
        self.z: list[cp_model.IntVar] = []
        self.shift = sum(problem.d(p, k) * v for (p, k), v in self.x.items())
        self.repeats: Any = 0  # the sum of z (a linear expression), 0 without them
        if repeats:
            self._repeats(problem, domain)

    def _repeats(self, problem: Problem, domain: list[list[int]]) -> None:
        model, n = self.model, problem.players
        touching: list[list[cp_model.IntVar]] = [[] for _ in range(n)]
        for p, others in enumerate(problem.met):
            for q in others:
                shared = [k for k in domain[p] if (q, k) in self.x] if q > p else []
                if not shared:
                    continue
                z = model.new_bool_var(f"z{p}_{q}")
                self.z.append(z)
                touching[p].append(z)
                touching[q].append(z)
                for k in shared:
                    model.add_bool_or([self.x[p, k].Not(), self.x[q, k].Not(), z])
        for round_ in problem.rounds:
            # one earlier round's tables are disjoint cliques: c of one at a table make at least c − 1 repeats
            excess = []
            for clique in round_:
                for k in range(len(problem.sizes)):
                    here = [self.x[p, k] for p in clique if (p, k) in self.x]
                    if len(here) > 1:
                        e = model.new_int_var(0, len(here) - 1, "")
                        model.add(e >= sum(here) - 1)
                        excess.append(e)
            if excess:
                model.add(sum(self.z) >= sum(excess))
        for p, tables in enumerate(domain):
            # p's table-mates who did not meet him are at most those of the field he did not meet
            strangers = n - 1 - len(problem.met[p])
            mates = sum((problem.sizes[k] - 1) * self.x[p, k] for k in tables)
            model.add(sum(touching[p]) >= mates - strangers)
        self.repeats = sum(self.z)

    def hint(self, seat: list[int]) -> None:
        for (p, k), v in self.x.items():
            self.model.add_hint(v, seat[p] == k)

    def run(self, seconds: float, workers: int, linearization: int = 1) -> tuple[bool, list[int] | None]:
        """Whether the optimum was proved, and the best seating found (None: none in time)."""
        from ortools.sat.python import cp_model

        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = max(seconds, 0.05)
        solver.parameters.num_workers = workers
        solver.parameters.linearization_level = linearization
        status = solver.solve(self.model)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return False, None
        seat = [
            next(k for k in tables if solver.boolean_value(self.x[p, k]))
            for p, tables in enumerate(self.domain)
        ]
        return status == cp_model.OPTIMAL, seat


def solve(problem: Problem, hint: list[int], seconds: float, workers: int = 2) -> Solved:
    """The least (R, D) seating found within ``seconds``, and whether it is proved least: first the least R
    (tables of one size ordered by their best-ranked player when every table is open to everybody), then the
    least D among seatings with that R."""
    deadline = time.monotonic() + seconds
    r_hint, d_hint = problem.cost(hint)
    limit = _limit(problem, BUDGET)
    if limit is not None and r_hint == 0:
        limit = min(limit, d_hint)
    domain = _domain(problem, limit, hint)
    best = hint
    proved_r = r_hint == 0
    # a field whose possible tables fit: the set models (partition.py), measured far stronger there
    fewest = None
    if not proved_r and limit is None:
        fewest = least_repeats(problem, hint, (deadline - time.monotonic()) * 0.6)
    if fewest is not None:
        proved_r = fewest[0]
        best = improve(problem, time.monotonic() + 0.05 * (deadline - time.monotonic()), fewest[1])
    elif not proved_r:
        first = _Model(problem, domain)
        if limit is None:
            for k in range(1, len(problem.sizes)):
                if problem.sizes[k] == problem.sizes[k - 1]:
                    for p in range(problem.players):
                        first.model.add(first.x[p, k] <= sum(first.x[q, k - 1] for q in range(p)))
            first.hint(_relabel(problem, hint))
        else:
            first.hint(hint)
        first.model.minimize(first.repeats)
        optimal, seat = first.run((deadline - time.monotonic()) * 0.6, workers)
        if seat is not None and problem.cost(seat)[0] < r_hint:
            best = improve(problem, time.monotonic() + 0.1 * (deadline - time.monotonic()), seat)
        proved_r = optimal
    r_best, d_best = problem.cost(best)
    if limit is None or r_best == 0:
        # the set model of the least D, every table open to every rank, when its sets fit (with R = 0 the sets
        # are the cliques of the "not met" graph: few late in an event, where the rank-by-table model is slow)
        shifted = least_shift(problem, best, deadline - time.monotonic())
        if shifted is not None:
            return Solved(shifted[1], proved_r and shifted[0])
    # with R = 0: at most one of every earlier table at a table; in a field of every table open (measured
    # faster) without the repeat variables
    # measured: a restricted (large) field does better with the repeat variables kept
    lean = r_best == 0 and limit is None
    second = _Model(problem, domain, repeats=not lean)
    second.model.add(second.repeats <= r_best)
    if r_best == 0:
        for round_ in problem.rounds:
            for clique in round_:
                for k in range(len(problem.sizes)):
                    here = [second.x[p, k] for p in clique if (p, k) in second.x]
                    if len(here) > 1:
                        second.model.add_at_most_one(here)
    second.hint(best)
    second.model.minimize(second.shift)
    # measured (docs/pairing.md): the least D is proved fastest by one worker with the full linear relaxation
    optimal, seat = second.run(deadline - time.monotonic(), 1, 2)
    if seat is not None and problem.cost(seat) < (r_best, d_best):
        best = seat
    r, d = problem.cost(best)
    proved = proved_r and optimal and (limit is None or (r == 0 and limit >= d - 1))
    return Solved(best, proved)
