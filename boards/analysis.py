"""Double-dummy analysis of stored boards: one service that makes, stores and reads it (the pure search is
``preferans.dd.board``; the background task per board is in ``boards.tasks``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone

from boards.models import Board, BoardAnalysis
from preferans.dd.board import BoardInput, analyse_board, analysis_json, parse_boards
from preferans.dd.engine import search_factory, solver_name


def layout_of(board: Board) -> dict[str, Any] | None:
    """The board in the input form of formats.md §8.2, or None without a recorded layout."""
    if not board.hands or len(board.prikup or ()) != 2:
        return None
    players = int(board.session.tournament.players_per_table)
    return {"dealer": board.dealer, "players": players, "hands": dict(board.hands), "prikup": list(board.prikup)}


def board_input(board: Board) -> BoardInput | None:
    layout = layout_of(board)
    if layout is None:
        return None
    return parse_boards([{**layout, "number": board.number}])[0]


def analyse_and_store(board: Board, progress: Callable[[int, int], None] | None = None) -> BoardAnalysis | None:
    """Analyse the board's layout and store it (replacing an older analysis); None without a layout."""
    layout = layout_of(board)
    given = board_input(board)
    if layout is None or given is None:
        return None
    started = time.perf_counter()
    seats = analysis_json(given, analyse_board(given, search_factory(), progress))["seats"]
    seconds = Decimal(f"{time.perf_counter() - started:.3f}")
    with transaction.atomic():
        analysis, _ = BoardAnalysis.objects.update_or_create(
            board=board,
            defaults={"layout": layout, "seats": seats, "solver": solver_name(), "seconds": seconds,
                      "made_at": timezone.now()},
        )  # fmt: skip
    return analysis


def stored_analysis(board: Board) -> dict[str, dict[str, Any]] | None:
    """The ``seats`` object of formats.md §8.2 for the board's current layout, or None when it was never
    analysed or its layout changed since."""
    try:
        analysis = board.analysis
    except BoardAnalysis.DoesNotExist:
        return None
    if analysis.layout != layout_of(board):
        return None
    seats: dict[str, dict[str, Any]] = analysis.seats
    return seats
