"""Fouled-board help (issue 19, docs/double-dummy.md): what the difference between the board as dealt and the
layout a table played changes in the makeable contracts. The dealt layout's numbers are the stored analysis
(``boards.analysis``); the played layout is analysed on the director's explicit request (a POST), never on page
load, and never stored."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from appeals.services.layouts import played_to_dict
from boards.analysis import layout_of, stored_analysis
from boards.models import Board
from preferans.cards.fouled import PlayedLayout
from preferans.dd.board import KEYS, analyse_board, analysis_json, parse_boards
from preferans.dd.engine import search_factory
from preferans.dd.position import PositionInvalid

Seats = Mapping[str, Mapping[str, Any]]


@dataclass(frozen=True)
class Cell:
    key: str  # S C D H NT misere
    dealt: int | None
    played: int | None

    @property
    def changed(self) -> bool:
        return self.dealt is not None and self.played is not None and self.dealt != self.played


@dataclass(frozen=True)
class SeatRow:
    seat: str
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class FouledHelp:
    """The two tables of makeable contracts side by side; ``played`` is None until the director asks."""

    dealt_analysed: bool
    played_analysed: bool
    rows: tuple[SeatRow, ...]
    problem: bool = False  # the played layout cannot be analysed (e.g. a hand without ten cards)

    @property
    def changes(self) -> int:
        return sum(1 for row in self.rows for cell in row.cells if cell.changed)


def analyse_layout(layout: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The ``seats`` object of formats.md §8.2 for one layout (the real search: seconds in pure Python)."""
    given = parse_boards([dict(layout)])[0]
    seats: dict[str, dict[str, Any]] = analysis_json(given, analyse_board(given, search_factory()))["seats"]  # type: ignore[assignment]
    return seats


def fouled_help(board: Board, played: PlayedLayout, *, run: bool) -> FouledHelp:
    """The dealt layout's makeable table (stored, or analysed now when ``run`` and none is stored) against the
    played layout's (analysed only when ``run``)."""
    dealt: Seats | None = stored_analysis(board)
    played_seats: Seats | None = None
    problem = False
    if run:
        base = layout_of(board)
        try:
            if dealt is None and base is not None:
                dealt = analyse_layout(base)
            if base is not None:
                played_seats = analyse_layout({**base, **played_to_dict(played)})
        except PositionInvalid:
            problem = True
    seats = sorted(set(dealt or {}) | set(played_seats or {}), key="NESW".index)
    rows = tuple(
        SeatRow(
            seat, tuple(Cell(key, _value(dealt, seat, key), _value(played_seats, seat, key)) for key in KEYS)
        )
        for seat in seats
    )
    return FouledHelp(dealt is not None, played_seats is not None, rows, problem)


def _value(seats: Seats | None, seat: str, key: str) -> int | None:
    if seats is None or seat not in seats:
        return None
    value = seats[seat].get(key)
    return value if isinstance(value, int) else None
