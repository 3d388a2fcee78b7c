"""Route schemes: the form in which the book writes its special movements (seed §5, movements.md §3).

A route lists seats (``1S``) and rests (``P``); each round the player on a place of the route moves to the
next place (the last joins the first). Seats on no route keep their player («позиция, не указанная в
движении»). The director keeps all sets in a row; a place of the row is ``Z`` (not played this round) or the
table(s) that play the set lying there; before each next round the first set of the row goes to the end.

Numbering (movements.md, a decision): within a group, players are numbered along the route from its first
place; fixed seats take the group's last numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import (
    Line,
    Movement,
    MovementError,
    MovementRound,
    TableAssignment,
    TableSeat,
    lines_for,
    make_table,
)

REST = "P"


@dataclass(frozen=True)
class Group:
    """Players moving along one route, plus the fixed seats that belong to the group."""

    route: tuple[str, ...]  # seats like "1S", or "P"
    fixed: tuple[str, ...] = ()


@dataclass(frozen=True)
class RouteScheme:
    """A cyclic scheme as data. ``row[i]`` = tables playing the set at place i+1 of the row (empty = Z)."""

    name: str
    participants: int
    tables: int
    groups: tuple[Group, ...]
    row: tuple[tuple[int, ...], ...]
    per_table: int = 4

    @property
    def cycle(self) -> int:
        lengths = {len(g.route) for g in self.groups}
        if len(lengths) != 1:
            raise MovementError(f"{self.name}: all routes must have the same length, not {sorted(lengths)}")
        return lengths.pop()

    def row_text(self) -> str:
        return "-".join(_place_text(p) for p in self.row)

    def routes_text(self) -> list[str]:
        out = []
        for g in self.groups:
            text = "-".join(g.route)
            if g.fixed:
                text += f" (fixed: {', '.join(g.fixed)})"
            out.append(text)
        return out


def _place_text(tables: tuple[int, ...]) -> str:
    if not tables:
        return "Z"
    if len(tables) == 1:
        return str(tables[0])
    return "/" + ",".join(str(t) for t in tables) + "/"


def parse_route(text: str) -> tuple[str, ...]:
    """``"P-2E-2W"`` → ("P", "2E", "2W"); dashes of any kind."""
    parts = [p.strip() for p in text.replace("–", "-").replace("—", "-").split("-")]
    out = []
    for p in parts:
        if not p:
            continue
        out.append(REST if p.upper() == REST else str(TableSeat.parse(p)))
    return tuple(out)


def parse_row(text: str) -> tuple[tuple[int, ...], ...]:
    """``"/1,2/-Z-Z"`` → ((1, 2), (), ())."""
    out: list[tuple[int, ...]] = []
    for p in text.replace("–", "-").split("-"):
        p = p.strip()
        if not p:
            continue
        if p.upper() == "Z":
            out.append(())
        else:
            out.append(tuple(int(x) for x in p.strip("/").split(",")))
    return tuple(out)


def numbering(scheme: RouteScheme) -> list[tuple[int, list[tuple[int, str]], list[tuple[int, str]]]]:
    """Per group: (first number, [(player, route place)], [(player, fixed seat)])."""
    out = []
    n = 1
    for g in scheme.groups:
        first = n
        moving = [(n + i, place) for i, place in enumerate(g.route)]
        n += len(g.route)
        fixed = [(n + i, seat) for i, seat in enumerate(g.fixed)]
        n += len(g.fixed)
        out.append((first, moving, fixed))
    return out


def check_scheme(scheme: RouteScheme) -> None:
    """Structural checks: the routes and fixed seats cover every seat exactly once; the row names each table."""
    lines = lines_for(scheme.per_table)
    all_seats = {str(TableSeat(t, ln)) for t in range(1, scheme.tables + 1) for ln in lines}
    seen: list[str] = []
    for g in scheme.groups:
        seen += [p for p in g.route if p != REST]
        seen += list(g.fixed)
    dup = sorted({s for s in seen if seen.count(s) > 1})
    if dup:
        raise MovementError(f"{scheme.name}: seat(s) {', '.join(dup)} appear more than once in the routes")
    missing = sorted(all_seats - set(seen))
    extra = sorted(set(seen) - all_seats)
    if missing or extra:
        raise MovementError(f"{scheme.name}: seats missing {missing} / not at any table {extra}")
    count = sum(len(g.route) + len(g.fixed) for g in scheme.groups)
    if count != scheme.participants:
        raise MovementError(f"{scheme.name}: routes hold {count} players, not {scheme.participants}")
    in_row = sorted(t for place in scheme.row for t in place)
    if in_row != list(range(1, scheme.tables + 1)):
        raise MovementError(f"{scheme.name}: the row of sets must name every table once, got {in_row}")
    _ = scheme.cycle


def route_movement(
    scheme: RouteScheme, *, rounds: int | None = None, scheme_label: str = "book", deals_per_set: int = 0
) -> Movement:
    """Play the scheme for its full cycle (or the first ``rounds`` rounds, announced in advance)."""
    check_scheme(scheme)
    cycle = scheme.cycle
    k = cycle if rounds is None else rounds
    if not 2 <= k <= cycle:
        raise MovementError(
            f"{scheme.name}: the session may have 2…{cycle} rounds, not {k}",
            code="scheme_rounds",
            params={"scheme": scheme.name, "maximum": cycle, "rounds": k},
        )
    set_of_table: dict[int, int] = {}  # table -> 0-based place of the row in round 1
    for place, tables in enumerate(scheme.row):
        for t in tables:
            set_of_table[t] = place
    nsets = len(scheme.row)
    groups = numbering(scheme)
    out: list[MovementRound] = []
    for r in range(k):
        seats: dict[int, dict[Line, int]] = {t: {} for t in range(1, scheme.tables + 1)}
        resting: list[int] = []
        for _first, moving, fixed in groups:
            length = len(moving)
            for i, (player, _start) in enumerate(moving):
                now = moving[(i + r) % length][1]
                if now == REST:
                    resting.append(player)
                else:
                    seat = TableSeat.parse(now)
                    seats[seat.table][seat.line] = player
            for player, seat_text in fixed:
                seat = TableSeat.parse(seat_text)
                seats[seat.table][seat.line] = player
        tas: list[TableAssignment] = []
        for t in range(1, scheme.tables + 1):
            set_number = (set_of_table[t] + r) % nsets + 1
            tas.append(make_table(t, set_number, seats[t]))
        out.append(MovementRound(r + 1, tuple(tas), tuple(sorted(resting))))
    return Movement(
        participants=scheme.participants,
        per_table=scheme.per_table,
        scheme=scheme_label,
        tables=scheme.tables,
        sets=nsets,
        rounds=tuple(out),
        deals_per_set=deals_per_set,
        full_rounds=cycle if k < cycle else 0,
        note=scheme.name,
    )
