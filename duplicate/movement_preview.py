"""What a director decides a movement by, before accepting it (issue 30): how many rounds and boards, who meets
whom how often, who rests when, and the rounds one by one — who sits where, which set each table plays.

Read from the planner's :class:`~preferans.movements.model.Movement` and the registered names; nothing is stored.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations

from preferans.movements.model import Movement


@dataclass(frozen=True)
class SeatPreview:
    line: str
    number: int
    name: str


@dataclass(frozen=True)
class TablePreview:
    room: int
    table: int
    set: int
    seats: tuple[SeatPreview, ...]


@dataclass(frozen=True)
class RoundPreview:
    number: int
    tables: tuple[TablePreview, ...]
    resting: tuple[SeatPreview, ...]  # line "" : nobody's seat


@dataclass(frozen=True)
class Meetings:
    times: int  # how many rounds the pair shares a table
    pairs: int  # how many pairs of players do


@dataclass(frozen=True)
class MovementPreview:
    rounds: tuple[RoundPreview, ...]
    boards_per_round: int
    boards: int  # boards each player plays when he rests in no round
    meetings: tuple[Meetings, ...]  # most often first; times 0 = pairs who never meet
    rests: int  # rounds with somebody resting
    lines: tuple[str, ...]
    rooms: int


def movement_preview(movement: Movement, names: Mapping[int, str]) -> MovementPreview:
    """The movement as the director reads it; ``names`` by participant number (a missing name: empty)."""
    met: Counter[tuple[int, int]] = Counter()
    rounds = []
    for rnd in movement.rounds:
        tables = []
        for ta in sorted(rnd.tables, key=lambda t: (t.room, t.table)):
            seats = tuple(SeatPreview(line.value, p, names.get(p, "")) for line, p in ta.seats)
            tables.append(TablePreview(ta.room, ta.table, ta.set, seats))
            for a, b in combinations(sorted(ta.participants()), 2):
                met[(a, b)] += 1
        resting = tuple(SeatPreview("", p, names.get(p, "")) for p in sorted(rnd.resting))
        rounds.append(RoundPreview(rnd.number, tuple(tables), resting))
    everyone = range(1, movement.participants + 1)
    times = Counter(met.get(pair, 0) for pair in combinations(everyone, 2))
    deals = movement.deals
    return MovementPreview(
        rounds=tuple(rounds),
        boards_per_round=deals,
        boards=deals * len(movement.rounds),
        meetings=tuple(Meetings(t, n) for t, n in sorted(times.items(), reverse=True)),
        rests=sum(1 for r in movement.rounds if r.resting),
        lines=tuple(line.value for line in movement.lines),
        rooms=movement.rooms,
    )
