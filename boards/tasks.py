"""Celery tasks of the boards package: one double-dummy analysis per board, so that more workers finish a
session sooner (in the embedded default the tasks run eagerly, in-process)."""

from __future__ import annotations

from collections.abc import Iterable

from celery import shared_task
from django.db import IntegrityError, InterfaceError, OperationalError

from boards.analysis import analyse_and_store, session_analysis, stored_analysis
from boards.models import Board
from preferans.dd.position import PositionInvalid


@shared_task(
    bind=True,
    acks_late=True,
    # The database restarting under a running analysis: try again shortly (storing it is idempotent).
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=1,
    retry_backoff_max=30,
    max_retries=5,
)
def analyse_board_task(self, board_id: int, again: bool = False) -> str:  # type: ignore[no-untyped-def]
    """Analyse one board and store its ``BoardAnalysis``. A board already analysed for its current layout is
    skipped unless ``again``; a retried or doubled task replaces the one analysis, never adds a second."""
    board = Board.objects.filter(pk=board_id).select_related("session__tournament").first()
    if board is None:
        return "gone"
    if not again and stored_analysis(board) is not None:
        return "skipped"
    try:
        stored = analyse_and_store(board)
    except PositionInvalid:
        return (
            "invalid layout"  # not a whole deck (a layout typed in by hand): the board stays "not analysed"
        )
    except IntegrityError:
        # Another task stored this board's analysis between our read and our write: store ours over it.
        stored = analyse_and_store(Board.objects.get(pk=board_id))
    return "analysed" if stored is not None else "no layout"


def queue_boards(boards: Iterable[Board], *, again: bool = False) -> int:
    """Queue one task per board that needs it (every board with a layout when ``again``); the number queued."""
    count = 0
    for board in boards:
        analyse_board_task.delay(board.pk, again)
        count += 1
    return count


def queue_session(session: object, *, again: bool = False) -> int:
    """Queue the analysis of a session's boards: the missing and stale ones, or all with a layout when ``again``."""
    state = session_analysis(session)
    boards = [*state.missing, *state.stale, *(state.done if again else ())]
    return queue_boards(sorted(boards, key=lambda b: b.number), again=again)
