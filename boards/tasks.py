"""Celery tasks of the boards package: one double-dummy analysis per board, so that more workers finish a
session sooner (in the embedded default the tasks run eagerly, in-process)."""

from __future__ import annotations

from collections.abc import Iterable

from celery import shared_task
from django.db import IntegrityError, InterfaceError, OperationalError
from django.db.models import F
from django.utils import timezone

from boards.analysis import analyse_and_store, session_analysis, stored_analysis
from boards.handoff import hand_off
from boards.models import AnalysisRun, Board
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
def analyse_board_task(self, board_id: int, again: bool = False, run: bool = False) -> str:  # type: ignore[no-untyped-def]
    """Analyse one board and store its ``BoardAnalysis``. A board already analysed for its current layout is
    skipped unless ``again``; a retried or doubled task replaces the one analysis, never adds a second.
    ``run``: the task is one of a session's queued run (boards.runs), which it marks started and, done, counts."""
    session_id = Board.objects.filter(pk=board_id).values_list("session_id", flat=True).first()
    if run and session_id is not None:
        AnalysisRun.objects.filter(session_id=session_id, started_at__isnull=True).update(
            started_at=timezone.now()
        )
    ended = True  # the task ends here, done or failed; a database error is retried: still in flight
    try:
        return _analyse(board_id, again)
    except (OperationalError, InterfaceError):
        ended = False
        raise
    finally:
        if ended and run and session_id is not None:
            _one_done(session_id)


def _one_done(session_id: int) -> None:
    """One task of the session's run has ended: the last one clears the run's mark."""
    AnalysisRun.objects.filter(session_id=session_id, left__gt=0).update(left=F("left") - 1)
    AnalysisRun.objects.filter(session_id=session_id, left=0).update(queued_at=None)


def _analyse(board_id: int, again: bool) -> str:
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
    """Queue one task per board (a board's own button: one board); a board the broker does not take is analysed
    here (boards.handoff). The number queued or analysed."""
    count = 0
    for board in boards:
        if not hand_off(analyse_board_task, (board.pk, again)):
            analyse_board_task.run(board.pk, again)
        count += 1
    return count


def queue_session(session: object, *, again: bool = False) -> int:
    """Queue the analysis of a session's boards: the missing and stale ones, or all with a layout when ``again``
    (the benchmark and the tests; the director's page goes through boards.runs, bounded without a worker)."""
    state = session_analysis(session)
    boards = [*state.missing, *state.stale, *(state.done if again else ())]
    return queue_boards(sorted(boards, key=lambda b: b.number), again=again)
