"""The exact Swiss (pairing §4) for small dense fields as a set partition (OR-Tools CP-SAT): every possible table
(a set of 3 or 4 ranks, with its repeats r) is one Boolean, every rank in exactly one chosen set.

- **The least R**: one variable a set (tables of one size are interchangeable, so no table index and no
  symmetry), the count of sets of each size fixed, minimize the sum of r. Its linear relaxation is far tighter than
  the rank-by-table model's: measured on 16–24 players late in an event, proved in about 1 s where the
  rank-by-table model was not proved in 5 s.
- **The least D with R kept**: one variable a (set, table) pair, a set with r above the least R left out, and a
  pair left out when it cannot beat the best known D (its own d, plus for every rank of that table's interval not
  in the set the least d it has at any other table, already reaches it).

CP-SAT's presolve is switched off: measured, it spends seconds on these wide models (24 players: 7 s with it,
1 s without for the least R).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .problem import Problem

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

__all__ = ["SET_BUDGET", "least_repeats", "least_shift", "place", "set_count"]

# possible tables (sets of ranks) a model may hold of one size: 24 players at tables of 4 is C(24, 4) = 10,626
SET_BUDGET = 20_000
# with R = 0 the sets are the cliques of the "not met" graph; measured on 32–64 players, the set model of the
# least D beats the rank-by-table model only when they are few (32 players late: 78 and 350 sets, 0.1–0.3 s where
# the rank-by-table model was not proved in 5 s; 15,100 sets of 48 players: 6.6 s unproved against 2.8 s proved)
CLIQUE_BUDGET = 1_000
PAIR_BUDGET = 90_000  # (set, table) variables the least-D model may hold after pruning


def set_count(problem: Problem) -> int:
    """How many possible tables the least-R model would hold: C(n, s) for every size s in use."""
    n = problem.players
    total = 0
    for size in set(problem.sizes):
        count = 1
        for i in range(size):
            count = count * (n - i) // (i + 1)
        total += count
    return total


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


def least_repeats(problem: Problem, hint: list[int], seconds: float) -> tuple[bool, list[int]]:
    """The least R over every seating, and a seating with it (its groups placed with the least D); whether the
    least R was proved within ``seconds``. ``hint`` is a valid seating (sets above its R are left out)."""
    from ortools.sat.python import cp_model

    r_hint = problem.cost(hint)[0]
    model = cp_model.CpModel()
    cover: list[list[cp_model.IntVar]] = [[] for _ in range(problem.players)]
    chosen: list[tuple[tuple[int, ...], cp_model.IntVar]] = []
    objective = []
    given = set(_groups(hint, len(problem.sizes)))
    for size in sorted(set(problem.sizes)):
        of_size = []
        for group, r in _sets(problem, size, r_hint, set_count(problem)) or []:  # never over: all sets
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
    proved, solver = _run(model, seconds)
    if solver is None:
        return False, hint
    seat = place(problem, [g for g, v in chosen if solver.boolean_value(v)])
    if problem.cost(seat)[0] > r_hint:  # not reached: the hint is a solution of the model
        return False, hint
    return proved, seat


def least_shift(problem: Problem, hint: list[int], seconds: float) -> tuple[bool, list[int]] | None:
    """The least D among seatings whose R is at most the hint's, and whether it was proved within ``seconds``;
    None when the model would exceed its budgets (more than ``SET_BUDGET`` sets of one size with at most that R,
    ``CLIQUE_BUDGET`` when R = 0, or ``PAIR_BUDGET`` pairs). Every table is open to every rank: a proof here is
    a proof over all seatings."""
    from ortools.sat.python import cp_model

    r_max, d_hint = problem.cost(hint)
    n, t = problem.players, len(problem.sizes)

    def elsewhere(k: int, q: int) -> int:
        """The least d rank ``q`` of table k's interval has at any other table: at a neighbouring table (the
        intervals are in rank order, so d only grows further away); 0 for a single table."""
        return min((problem.d(q, j) for j in (k - 1, k + 1) if 0 <= j < t), default=0)

    given = _groups(hint, t)
    sets: dict[int, list[tuple[tuple[int, ...], int]]] = {}
    for size in set(problem.sizes):
        found = _sets(problem, size, r_max, SET_BUDGET if r_max else CLIQUE_BUDGET)
        if found is None:
            return None
        sets[size] = found
    pairs: list[tuple[tuple[int, ...], int, int, int]] = []
    for k, size in enumerate(problem.sizes):
        a, b = problem.spans[k]
        # a rank's d at table k, less (for a rank of k's interval) the least d it would have elsewhere
        shift = [problem.d(p, k) for p in range(n)]
        here = [shift[p] - (elsewhere(k, p) if a <= p <= b else 0) for p in range(n)]
        away = sum(elsewhere(k, q) for q in range(a, b + 1))
        for group, r in sets[size]:
            if away + sum(map(here.__getitem__, group)) >= d_hint and group != given[k]:
                continue  # with this set at table k no seating reaches a D below the hint's
            pairs.append((group, k, r, sum(map(shift.__getitem__, group))))
        if len(pairs) > PAIR_BUDGET:
            return None
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
    proved, solver = _run(model, seconds)
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
