"""Cyclic schemes found by search: the book's kind of scheme (routes, rests «P», fixed seats), for any N.

A design over a cycle of length L (= rounds = sets): the participants form ``orbits`` routes of L places each
plus ``fixed`` players who never move. Round r is round 1 shifted by r along every route, so two players of
routes o, o' whose numbers differ by d meet as often as their places at one table differ by d (a difference
family, as in the book's 13-player scheme, where every pair meets exactly 3 times). Table t plays the set at
place c_t+1 of the director's row; a route's players never meet a set twice when the values c_t + j over its
seated places j are all different. Tables sharing c_t play the same set at once (the book's «/1,2/»): every
design is valid with all c_t equal, and the search then looks for offsets needing the fewest copies.

The search (simulated annealing on swaps of places, deterministic seed) minimises Σ meetings² over all pairs,
i.e. spreads meetings as evenly as the shape allows; it stops early at the arithmetic lower bound.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from .model import TableSeat, lines_for
from .routes import REST, Group, RouteScheme

Key = tuple[int, int, int]


@dataclass(frozen=True)
class Shape:
    participants: int
    per_table: int
    length: int  # L
    orbits: int
    fixed: int

    @property
    def tables(self) -> int:
        return self.participants // self.per_table

    @property
    def resting(self) -> int:
        return self.participants - self.tables * self.per_table


def shape_for(participants: int, per_table: int, length: int) -> Shape | None:
    """The cyclic shape with cycle ``length``, or None when rests could not be spread evenly (rule M6)."""
    orbits, fixed = divmod(participants, length)
    shape = Shape(participants, per_table, length, orbits, fixed)
    t, m = shape.tables, shape.resting
    if orbits < 1 or t < 2 or fixed > t or length < 2:
        return None
    if fixed and m > orbits:  # fixed players never rest: every route player may rest at most once
        return None
    if m >= length * orbits:
        return None
    return shape


@dataclass(frozen=True)
class Design:
    shape: Shape
    tables: tuple[tuple[int, ...], ...]  # member ids per table; id = o·L + j, fixed f = orbits·L + f
    rests: tuple[int, ...]
    offsets: tuple[int, ...]  # c_t: table t plays the set at place c_t+1 of the row in round 1
    cost: int
    bound: int

    @property
    def copies(self) -> int:
        return max(self.offsets.count(c) for c in set(self.offsets))

    @property
    def balanced(self) -> bool:
        return self.cost == self.bound

    def scheme(self, name: str) -> RouteScheme:
        sh = self.shape
        lines = lines_for(sh.per_table)
        n_orbit = sh.orbits * sh.length
        route: dict[int, str] = {i: REST for i in self.rests}
        fixed_seats: list[str] = []
        for t, members in enumerate(self.tables, start=1):
            ordered = sorted(members, key=lambda i: (i < n_orbit, i))  # a fixed player takes N
            for line, member in zip(lines, ordered, strict=True):
                if member >= n_orbit:
                    fixed_seats.append(str(TableSeat(t, line)))
                else:
                    route[member] = str(TableSeat(t, line))
        groups = []
        for o in range(sh.orbits):
            places = tuple(route[o * sh.length + j] for j in range(sh.length))
            groups.append(Group(places, tuple(fixed_seats) if o == sh.orbits - 1 else ()))
        row = tuple(tuple(t + 1 for t, c in enumerate(self.offsets) if c == p) for p in range(sh.length))
        return RouteScheme(name, sh.participants, sh.tables, tuple(groups), row, sh.per_table)


class _Meetings:
    """Pair-meeting counts of a cyclic design, by class of pairs, with O(k) updates."""

    def __init__(self, shape: Shape) -> None:
        self.L = shape.length
        self.n_orbit = shape.orbits * shape.length
        self.lam: dict[Key, int] = {}
        self.cost = 0

    def key(self, a: int, b: int) -> tuple[Key, int, int]:
        """(class, pairs in the class, meetings each pair gets per occurrence)."""
        L, n = self.L, self.n_orbit
        if a >= n and b >= n:
            return (-1, min(a, b), max(a, b)), 1, L
        if a >= n or b >= n:
            f, x = (a, b) if a >= n else (b, a)
            return (-2, f, x // L), L, 1
        oa, ja = divmod(a, L)
        ob, jb = divmod(b, L)
        if oa == ob:
            d = (ja - jb) % L
            d = min(d, L - d)
            if 2 * d == L:
                return (oa, oa, d), L // 2, 2
            return (oa, oa, d), L, 1
        if oa > ob:
            oa, ob, ja, jb = ob, oa, jb, ja
        return (oa, ob, (ja - jb) % L), L, 1

    def change(
        self, a: int, others: tuple[int, ...] | list[int], sign: int, acc: dict[Key, tuple[int, int]]
    ) -> None:
        for b in others:
            if b == a:
                continue
            k, size, per = self.key(a, b)
            old = acc.get(k)
            if old is None:
                acc[k] = (size, sign * per)
            else:
                acc[k] = (size, old[1] + sign * per)

    def delta(self, acc: dict[Key, tuple[int, int]]) -> int:
        total = 0
        for k, (size, d) in acc.items():
            if d:
                lam = self.lam.get(k, 0)
                total += size * ((lam + d) ** 2 - lam * lam)
        return total

    def apply(self, acc: dict[Key, tuple[int, int]]) -> None:
        for k, (size, d) in acc.items():
            if d:
                lam = self.lam.get(k, 0)
                self.cost += size * ((lam + d) ** 2 - lam * lam)
                self.lam[k] = lam + d


def _bound(shape: Shape) -> int:
    n, k, t, L = shape.participants, shape.per_table, shape.tables, shape.length
    total = L * t * k * (k - 1) // 2
    pairs = n * (n - 1) // 2
    q, r = divmod(total, pairs)
    return pairs * q * q + r * (2 * q + 1)


def search(shape: Shape, *, iterations: int = 3000, restarts: int = 4, seed: int = 1) -> list[Design]:
    """Designs for the shape: meetings spread as evenly as the search can, set offsets needing few copies.

    Even attempts ignore the sets while spreading meetings and then look for offsets; odd attempts fix
    spread-out offsets first and penalise a route meeting a set twice. The caller weighs balance against
    copies; the list is sorted by (Σ meetings², copies).
    """
    rng = random.Random(seed * 1_000_003 + shape.participants * 131 + shape.length * 7 + shape.per_table)
    bound = _bound(shape)
    low = -(-shape.tables // shape.length)
    out: list[Design] = []
    for attempt in range(restarts):
        offsets = _spread_offsets(shape, rng, structured=attempt < 2)
        weight = 0 if attempt % 2 == 0 else 2 * shape.length
        tables, rests, cost, conflicts = _anneal(shape, rng, iterations, bound, offsets, weight)
        if conflicts or weight == 0:
            offsets = _offsets(shape, tables, rng)
        design = Design(shape, tables, rests, offsets, cost, bound)
        out.append(design)
        if cost == bound and design.copies == low:
            break
    out.sort(key=lambda d: (d.cost, d.copies))
    return out


def _spread_offsets(shape: Shape, rng: random.Random, *, structured: bool) -> tuple[int, ...]:
    T, L = shape.tables, shape.length
    if T <= L:
        if structured:
            return tuple((t * L) // T for t in range(T))
        return tuple(sorted(rng.sample(range(L), T)))
    return tuple(t % L for t in range(T))


def _initial(shape: Shape, rng: random.Random) -> tuple[list[list[int]], list[int]]:
    L, orbits, F, m = shape.length, shape.orbits, shape.fixed, shape.resting
    rest_per_orbit = [m // orbits + (1 if o < m % orbits else 0) for o in range(orbits)]
    rests: list[int] = []
    seated: list[int] = []
    for o in range(orbits):
        chosen = (
            {(i * L) // rest_per_orbit[o] for i in range(rest_per_orbit[o])} if rest_per_orbit[o] else set()
        )
        shift = rng.randrange(L)
        for j in range(L):
            (rests if (j - shift) % L in chosen else seated).append(o * L + j)
    rng.shuffle(seated)
    tables: list[list[int]] = [[] for _ in range(shape.tables)]
    for f in range(F):
        tables[f].append(orbits * L + f)
    it = iter(seated)
    for t in tables:
        while len(t) < shape.per_table:
            t.append(next(it))
    return tables, rests


class _Sets:
    """How many seated places of each route meet each set value c_t + j: conflicts = Σ C(count, 2)."""

    def __init__(self, shape: Shape, offsets: tuple[int, ...]) -> None:
        self.L = shape.length
        self.n_orbit = shape.orbits * shape.length
        self.offsets = offsets
        self.count: dict[tuple[int, int], int] = {}
        self.conflicts = 0

    def _bucket(self, x: int, t: int) -> tuple[int, int] | None:
        if x >= self.n_orbit or t < 0:
            return None
        o, j = divmod(x, self.L)
        return o, (self.offsets[t] + j) % self.L

    def move(self, x: int, t_from: int, t_to: int) -> int:
        """Move place x from table t_from to t_to (−1 = rest); returns the change in conflicts."""
        d = 0
        b = self._bucket(x, t_from)
        if b is not None:
            c = self.count[b]
            self.count[b] = c - 1
            d -= c - 1
        b = self._bucket(x, t_to)
        if b is not None:
            c = self.count.get(b, 0)
            self.count[b] = c + 1
            d += c
        self.conflicts += d
        return d


def _anneal(
    shape: Shape, rng: random.Random, iterations: int, bound: int, offsets: tuple[int, ...], weight: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int, int]:
    tables, rests = _initial(shape, rng)
    meet = _Meetings(shape)
    sets = _Sets(shape, offsets)
    acc: dict[Key, tuple[int, int]] = {}
    for t, members in enumerate(tables):
        for i, a in enumerate(members):
            meet.change(a, members[i + 1 :], +1, acc)
            sets.move(a, -1, t)
    meet.apply(acc)
    n_orbit = shape.orbits * shape.length
    T, k, L = shape.tables, shape.per_table, shape.length
    movable = [(t, i) for t in range(T) for i in range(k) if tables[t][i] < n_orbit]
    rest_of_orbit: dict[int, list[int]] = {}
    for ri, r in enumerate(rests):
        rest_of_orbit.setdefault(r // L, []).append(ri)
    best_score = meet.cost + weight * sets.conflicts
    best = ([list(t) for t in tables], list(rests), meet.cost, sets.conflicts)
    temp0 = max(1.0, 0.02 * meet.cost / max(1, T))
    for step in range(iterations):
        if best[2] == bound and (best[3] == 0 or weight == 0):
            break
        temp = temp0 * (1.0 - step / iterations) + 1e-9
        t1, i1 = movable[rng.randrange(len(movable))]
        a = tables[t1][i1]
        same = rest_of_orbit.get(a // L)
        use_rest = same is not None and rng.random() < 0.15
        acc = {}
        others1 = [x for x in tables[t1] if x != a]
        if use_rest:
            assert same is not None
            ri = same[rng.randrange(len(same))]
            b = rests[ri]
            t2 = i2 = -1
            meet.change(a, others1, -1, acc)
            meet.change(b, others1, +1, acc)
            dc = sets.move(a, t1, -1) + sets.move(b, -1, t1)
        else:
            t2, i2 = movable[rng.randrange(len(movable))]
            if t2 == t1:
                continue
            b = tables[t2][i2]
            others2 = [x for x in tables[t2] if x != b]
            meet.change(a, others1, -1, acc)
            meet.change(b, others2, -1, acc)
            meet.change(b, others1, +1, acc)
            meet.change(a, others2, +1, acc)
            dc = sets.move(a, t1, t2) + sets.move(b, t2, t1)
        d = meet.delta(acc) + weight * dc
        if d <= 0 or rng.random() < math.exp(-d / temp):
            meet.apply(acc)
            tables[t1][i1] = b
            if use_rest:
                rests[ri] = a
            else:
                tables[t2][i2] = a
            score = meet.cost + weight * sets.conflicts
            if score < best_score:
                best_score = score
                best = ([list(t) for t in tables], list(rests), meet.cost, sets.conflicts)
        elif use_rest:
            sets.move(b, t1, -1)
            sets.move(a, -1, t1)
        else:
            sets.move(b, t1, t2)
            sets.move(a, t2, t1)
    tabs = tuple(tuple(sorted(t)) for t in best[0])
    return tabs, tuple(sorted(best[1])), best[2], best[3]


def _offsets(
    sh: Shape, layout: tuple[tuple[int, ...], ...], rng: random.Random, budget: int = 400
) -> tuple[int, ...]:
    """Set offsets c_t for a layout: no route meets a set twice; few tables share a set in a round."""
    L, T = sh.length, sh.tables
    n_orbit = sh.orbits * L
    labels = [[(x // L, x % L) for x in members if x < n_orbit] for members in layout]
    forbidden: list[list[set[int]]] = [[set() for _ in range(T)] for _ in range(T)]
    for t1 in range(T):
        for t2 in range(T):
            if t1 != t2:
                for o1, j1 in labels[t1]:
                    for o2, j2 in labels[t2]:
                        if o1 == o2:
                            forbidden[t1][t2].add((j2 - j1) % L)  # c_t1 − c_t2 ≠ j2 − j1
    order = sorted(range(T), key=lambda t: -sum(len(forbidden[t][u]) for u in range(T)))
    low = -(-T // L)
    for cap in (low, low + 1, 2 * low):
        found = _assign(order, forbidden, L, cap, rng, budget)
        if found is not None:
            return tuple(found)
    return (0,) * T  # every table plays the same set: always valid


def _assign(
    order: list[int], forbidden: list[list[set[int]]], L: int, cap: int, rng: random.Random, budget: int
) -> list[int] | None:
    T = len(order)
    if cap >= T:
        return [0] * T
    values: list[int | None] = [None] * T
    use = [0] * L
    nodes = 0

    def ok(t: int, c: int) -> bool:
        for u in range(T):
            cu = values[u]
            if cu is not None and (c - cu) % L in forbidden[t][u]:
                return False
        return True

    def dfs(pos: int) -> bool:
        nonlocal nodes
        if pos == T:
            return True
        nodes += 1
        if nodes > budget:
            return False
        t = order[pos]
        first = rng.randrange(L)
        cands = sorted((c for c in range(L) if use[c] < cap), key=lambda c: (use[c], (c - first) % L))
        for c in cands:
            if ok(t, c):
                values[t] = c
                use[c] += 1
                if dfs(pos + 1):
                    return True
                values[t] = None
                use[c] -= 1
        return False

    if dfs(0):
        return [v if v is not None else 0 for v in values]
    return None
