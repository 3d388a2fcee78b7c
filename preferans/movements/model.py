"""The shape of a movement («движение»): who sits where, and which set each table plays, round by round.

Pure data (frozen dataclasses), no Django. Everything a director prints — seating cards, the «3S–2W»
instructions, the row of sets — is derived from these explicit rounds (see ``instructions``), and every
movement is checked by ``validate`` before it is offered.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Line(StrEnum):
    """A seat position («позиция», «линия»): results are compared only within a line (rules §8)."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"


LINES_4: tuple[Line, ...] = (Line.N, Line.E, Line.S, Line.W)
LINES_3: tuple[Line, ...] = (Line.N, Line.E, Line.S)  # with three players the prikup is in pocket W (§3.2)


def lines_for(per_table: int) -> tuple[Line, ...]:
    if per_table == 4:
        return LINES_4
    if per_table == 3:
        return LINES_3
    raise MovementError(
        f"players per table must be 3 or 4 (rules §1), not {per_table}",
        code="per_table",
        params={"per_table": per_table},
    )


class MovementError(ValueError):
    """A movement that breaks a rule, or a request no movement can satisfy; the message names the rule.

    The message is plain English (the command line prints it as is). ``code`` is stable and ``params`` hold the
    values the message interpolates, so a channel can say the same in the user's language; ``code`` is ``""``
    where only a malformed file or a bug can raise the error (the English message is then the explanation).
    """

    def __init__(
        self, message: str, *, code: str = "", params: Mapping[str, int | str] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.params: dict[str, int | str] = dict(params or {})

    def __reduce__(self) -> tuple[Any, ...]:
        return (_movement_error, (str(self), self.code, self.params))


def _movement_error(message: str, code: str, params: dict[str, int | str]) -> MovementError:
    return MovementError(message, code=code, params=params)


_SEAT_RE = re.compile(r"^\s*(\d+)\s*([NESW])\s*$")


@dataclass(frozen=True, order=True)
class TableSeat:
    """A seat at a table, written as the book writes it: ``3S`` = table 3, position S."""

    table: int
    line: Line

    def __str__(self) -> str:
        return f"{self.table}{self.line.value}"

    @classmethod
    def parse(cls, text: str) -> TableSeat:
        m = _SEAT_RE.match(text)
        if m is None:
            raise MovementError(f"{text!r} is not a seat: write the table number and N, E, S or W, e.g. '3S'")
        return cls(int(m.group(1)), Line(m.group(2)))


@dataclass(frozen=True)
class TableAssignment:
    """One table in one round: the set it plays and the participant on each seat."""

    table: int
    set: int
    seats: tuple[tuple[Line, int], ...]  # in line order N, E, S(, W)
    room: int = 1

    def seat_map(self) -> dict[Line, int]:
        return dict(self.seats)

    def participants(self) -> tuple[int, ...]:
        return tuple(p for _, p in self.seats)


@dataclass(frozen=True)
class MovementRound:
    """One round («тур»): every table plays one set; ``resting`` sit out («P», пауза)."""

    number: int
    tables: tuple[TableAssignment, ...]
    resting: tuple[int, ...] = ()

    def where(self) -> dict[int, tuple[int, TableSeat]]:
        """participant -> (room, seat) for everyone seated this round."""
        out: dict[int, tuple[int, TableSeat]] = {}
        for ta in self.tables:
            for line, p in ta.seats:
                out[p] = (ta.room, TableSeat(ta.table, line))
        return out


@dataclass(frozen=True)
class Movement:
    """A whole session's movement.

    ``tables`` is the number of tables in each room (tables are numbered 1…tables within a room);
    ``sets`` is the length of the director's row of sets (sets are numbered 1…sets); every room plays the
    same sets (boards are duplicated for each room, rules §2) and results are compared across rooms.
    """

    participants: int
    per_table: int
    scheme: str
    tables: int
    sets: int
    rounds: tuple[MovementRound, ...]
    deals_per_set: int = 0  # 0 = as many as players at the table (rules §4)
    rooms: int = 1
    full_rounds: int = 0  # the length of the full scheme when the session was shortened; 0 = not shortened
    note: str = field(default="", compare=False)

    @property
    def deals(self) -> int:
        return self.deals_per_set or self.per_table

    @property
    def lines(self) -> tuple[Line, ...]:
        return lines_for(self.per_table)

    def seatings(self) -> Iterator[tuple[MovementRound, TableAssignment]]:
        for rnd in self.rounds:
            for ta in rnd.tables:
                yield rnd, ta

    def boards_of_set(self, set_number: int) -> range:
        """Board numbers of a set (movements.md §4): set s holds boards (s−1)·k+1 … s·k."""
        k = self.deals
        return range((set_number - 1) * k + 1, set_number * k + 1)


def dealer_of_board(board: int, per_table: int, deals_per_set: int = 0) -> Line:
    """The board's «dealer» pocket (movements.md §4): rotates N, E, S(, W) through the set."""
    k = deals_per_set or per_table
    lines = lines_for(per_table)
    return lines[((board - 1) % k) % len(lines)]


def make_table(table: int, set_number: int, seats: Mapping[Line, int], room: int = 1) -> TableAssignment:
    order = [ln for ln in LINES_4 if ln in seats]
    return TableAssignment(table, set_number, tuple((ln, seats[ln]) for ln in order), room)
