"""The exact Swiss (pairing §4) for small dense fields as a set partition (OR-Tools CP-SAT): every possible table
(a set of 3 or 4 ranks, with its repeats r) is one Boolean, every rank in exactly one chosen set.

- **The least R**: one variable a set (tables of one size are interchangeable, so no table index and no
  symmetry), the count of sets of each size fixed, minimize the sum of r. Its linear relaxation is far tighter than
  the rank-by-table model's: measured on 16–24 players late in an event, proved in about 1 s where the
  rank-by-table model was not proved in 5 s.
- **The least D with R kept**: one variable a (set, table) pair, a set with r above the least R left out, and a
  pair left out when it cannot beat the best known D: its own d plus the least D of seating the other ranks at
  the other tables with R ignored (the sorted assignment, see ``_rest_bound``) already reaches it.

CP-SAT's presolve and probing are switched off: measured, they spend seconds on these wide models (24 players:
the least R 7 s with the presolve, 1 s without; the least D 6.9 s with probing, 0.6 s without).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from .problem import Problem

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

__all__ = ["SET_BUDGET", "least_repeats", "least_shift", "place"]

# possible tables (sets of ranks, with at most the R of the best seating known) a model may hold of one size:
# 24 players at tables of 4 have C(24, 4) = 10,626 sets; 32 players late in an event about 35,000 (least R in 1.2 s)
SET_BUDGET = 40_000
# with R = 0 the sets are the cliques of the "not met" graph; measured on 32–64 players, the set model of the
# least D beats the rank-by-table model only when they are few (32 players late: 78 and 350 sets, 0.1–0.3 s where
# the rank-by-table model was not proved in 5 s; 15,100 sets of 48 players: 6.6 s unproved against 2.8 s proved)
CLIQUE_BUDGET = 1_000
PAIR_BUDGET = 90_000  # (set, table) variables the least-D model may hold after pruning


def _sets(problem: Problem, size: int, r_max: int, cap: int) -> list[tuple[tuple[int, ...], int]] | None:
    """Every set of ``size`` ranks with at most ``r_max`` repeats, with its repeats, grown rank by rank (a set is
    dropped as soon as it has too many repeats; with ``r_max`` = 0 these are the cliques of the "not met" graph);
    None when there are more than ``cap``."""
    met = problem.met
    n = problem.players
    out: list[tuple[tuple[int, ...], int]] = []

    def grow(chosen: tuple[int, ...], r: int, start: int) -> bool:
        if len(chosen) == size:
            out.append((chosen, r))
            return len(out) <= cap
        for q in range(start, n - (size - len(chosen)) + 1):
            seen = met[q]
            rr = r + sum(1 for p in chosen if p in seen) if seen else r
            if rr <= r_max and not grow((*chosen, q), rr, q + 1):
                return False
        return True

    return out if grow((), 0, 0) else None


def _groups(seat: list[int], tables: int) -> list[tuple[int, ...]]:
    out: list[list[int]] = [[] for _ in range(tables)]
    for p, k in enumerate(seat):
        out[k].append(p)
    return [tuple(g) for g in out]


def place(problem: Problem, groups: list[tuple[int, ...]]) -> list[int]:
    """The seating (rank → table) that puts the given groups on the tables of their size with the least D (an
    exact assignment over subsets of the tables of one size)."""
    seat = [0] * problem.players
    for size in set(problem.sizes):
        tables = [k for k, s in enumerate(problem.sizes) if s == size]
        mine = [g for g in groups if len(g) == size]
        cost = [[sum(problem.d(p, k) for p in g) for k in tables] for g in mine]
        # best[mask]: the least cost of putting the first popcount(mask) groups on the tables in mask
        m = len(tables)
        best: list[tuple[int, int]] = [(0, -1)] + [(1 << 60, -1)] * ((1 << m) - 1)
        for mask in range(1 << m):
            i = bin(mask).count("1")
            if i >= len(mine) or best[mask][0] >= 1 << 60:
                continue
            for j in range(m):
                if not mask & (1 << j):
                    value = best[mask][0] + cost[i][j]
                    if value < best[mask | (1 << j)][0]:
                        best[mask | (1 << j)] = (value, j)
        mask = (1 << m) - 1
        while mask:
            j = best[mask][1]
            mask &= ~(1 << j)
            for p in mine[bin(mask).count("1")]:
                seat[p] = tables[j]
    return seat


def _run(model: cp_model.CpModel, seconds: float) -> tuple[bool, cp_model.CpSolver | None]:
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(seconds, 0.05)
    solver.parameters.num_workers = 1
    solver.parameters.linearization_level = 2
    solver.parameters.cp_model_presolve = False  # measured: the presolve of a wide set model costs seconds
    solver.parameters.cp_model_probing_level = (
        0  # and so does probing (24 players, least D: 6.9 s with, 0.6 s without)
    )
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return False, None
    return status == cp_model.OPTIMAL, solver


def least_repeats(problem: Problem, hint: list[int], seconds: float) -> tuple[bool, list[int]] | None:
    """The least R over every seating, and a seating with it (its groups placed with the least D); whether the
    least R was proved within ``seconds``. ``hint`` is a valid seating (sets above its R are left out). None when
    there are more than ``SET_BUDGET`` sets of one size."""
    from ortools.sat.python import cp_model

    deadline = time.monotonic() + seconds
    r_hint = problem.cost(hint)[0]
    model = cp_model.CpModel()
    cover: list[list[cp_model.IntVar]] = [[] for _ in range(problem.players)]
    chosen: list[tuple[tuple[int, ...], cp_model.IntVar]] = []
    objective = []
    given = set(_groups(hint, len(problem.sizes)))
    found = {size: _sets(problem, size, r_hint, SET_BUDGET) for size in set(problem.sizes)}
    for size, sets in sorted(found.items()):
        if sets is None:
            return None
        of_size = []
        for group, r in sets:
            v = model.new_bool_var("")
            if group in given:
                model.add_hint(v, True)
            of_size.append(v)
            chosen.append((group, v))
            for p in group:
                cover[p].append(v)
            if r:
                objective.append(r * v)
        model.add(sum(of_size) == problem.sizes.count(size))
    for options in cover:
        model.add_exactly_one(options)
    model.minimize(sum(objective))
    proved, solver = _run(model, deadline - time.monotonic())
    if solver is None:
        return False, hint
    seat = place(problem, [g for g, v in chosen if solver.boolean_value(v)])
    if problem.cost(seat)[0] > r_hint:  # not reached: the hint is a solution of the model
        return False, hint
    return proved, seat


def _rest_bound(problem: Problem, k: int) -> list[list[int]]:
    """``out[c]``: prefix sums over ranks p of the d rank p has when table k is taken by a set with c of its
    ranks below p, and the ranks not in the set fill the other tables in rank order (their seats in book order,
    table k's seats left out). That sorted assignment is the least D of seating the other ranks at all, R
    ignored: d(p, j) − d(p, j') never decreases in p for tables j < j' (the intervals lie in rank order), so the
    costs are Monge and the sorted (north-west corner) assignment is optimal. So a set at table k costs at least
    its own d plus the sum of these over the ranks between its members, ``c`` the members below."""
    n = problem.players
    size, (a, _b) = problem.sizes[k], problem.spans[k]
    book = [j for j, s in enumerate(problem.sizes) for _ in range(s)]
    out = []
    for c in range(size + 1):
        sums = [0]
        for p in range(n):
            i = p - c
            i = i if i < a else i + size  # the i-th seat of the other tables
            sums.append(sums[-1] + (problem.d(p, book[i]) if 0 <= i < n else 0))
        out.append(sums)
    return out


def least_shift(problem: Problem, hint: list[int], seconds: float) -> tuple[bool, list[int]] | None:
    """The least D among seatings whose R is at most the hint's, and whether it was proved within ``seconds``;
    None when the model would exceed its budgets (more than ``SET_BUDGET`` sets of one size with at most that R,
    ``CLIQUE_BUDGET`` when R = 0, or ``PAIR_BUDGET`` pairs). Every table is open to every rank: a proof here is
    a proof over all seatings."""
    from ortools.sat.python import cp_model

    deadline = time.monotonic() + seconds
    r_max, d_hint = problem.cost(hint)
    n, t = problem.players, len(problem.sizes)

    given = _groups(hint, t)
    sets: dict[int, list[tuple[tuple[int, ...], int]]] = {}
    for size in set(problem.sizes):
        found = _sets(problem, size, r_max, SET_BUDGET if r_max else CLIQUE_BUDGET)
        if found is None:
            return None
        sets[size] = found
    pairs: list[tuple[tuple[int, ...], int, int, int]] = []
    for k, size in enumerate(problem.sizes):
        shift = [problem.d(p, k) for p in range(n)]
        rest = _rest_bound(problem, k)
        for group, r in sets[size]:
            d = sum(map(shift.__getitem__, group))
            if group != given[k]:
                # the other ranks fill the other tables at no less than the sorted assignment's D
                bound = d
                low = 0
                for c, p in enumerate(group):
                    bound += rest[c][p] - rest[c][low]
                    low = p + 1
                bound += rest[size][n] - rest[size][low]
                if bound >= d_hint:
                    continue  # with this set at table k no seating reaches a D below the hint's
            pairs.append((group, k, r, d))
        if len(pairs) > PAIR_BUDGET or time.monotonic() > deadline:
            return None  # too wide, or the time went on building it
    model = cp_model.CpModel()
    cover: list[list[cp_model.IntVar]] = [[] for _ in range(n)]
    at: list[list[cp_model.IntVar]] = [[] for _ in range(t)]
    repeats, shifts = [], []
    for group, k, r, d in pairs:
        v = model.new_bool_var("")
        if group == given[k]:
            model.add_hint(v, True)
        at[k].append(v)
        for p in group:
            cover[p].append(v)
        if r:
            repeats.append(r * v)
        if d:
            shifts.append(d * v)
    for options in cover + at:
        model.add_exactly_one(options)
    if repeats:
        model.add(sum(repeats) <= r_max)
    model.minimize(sum(shifts))
    if time.monotonic() > deadline:
        return None
    proved, solver = _run(model, deadline - time.monotonic())
    if solver is None:
        return False, hint
    seat = [0] * n
    values = solver.response_proto.solution  # the variables are 0…len(pairs) − 1 in order
    for i, (group, k, _r, _d) in enumerate(pairs):
        if values[i]:
            for p in group:
                seat[p] = k
    if problem.cost(seat) > (r_max, d_hint):
        return False, hint
    return proved, seat
