"""A session's double-dummy analysis, started by its director (the analysis page): handed to the workers one
task per board, or, without a broker, run here a few boards at a time.

* With a broker the boards are queued at once and an :class:`~boards.models.AnalysisRun` records it; while it
  is in flight a second click starts nothing («the analysis is already running»). A run that no worker has
  started within a minute is said so on the page, which offers to analyse now (bounded, as below).
* Without a broker (eager: the embedded default), or when the broker does not take a task, a click analyses at
  most :data:`INLINE_BOARDS` boards and stops after :data:`INLINE_SECONDS` (one board is never cut short): a web
  worker is never held for a whole session. The page says how many remain; the director clicks again. A rerun
  («analyse every board again») redoes the oldest analyses first, so its clicks go through every board.
* A board whose own analysis fails is logged and left "not analysed"; it is not run a second time.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Q

from boards.analysis import session_analysis
from boards.handoff import hand_off, is_eager, not_taken
from boards.models import AnalysisRun, Board
from boards.tasks import analyse_board_task
from tournaments.audit import log_action

logger = logging.getLogger(__name__)

#: Without a worker, at most this many boards are analysed in one request …
INLINE_BOARDS = 8
#: … and no new board is begun after this many seconds.
INLINE_SECONDS = 3.0
#: A run older than this no longer blocks a new one (its tasks were lost).
RUN_STALE = dt.timedelta(minutes=10)


@dataclass(frozen=True)
class Outcome:
    how: str  # "queued" | "inline" | "busy" | "nothing"
    count: int = 0  # boards queued, or analysed here
    left: int = 0  # inline: boards still due after this click
    failed: int = 0  # inline: boards whose analysis failed (logged)


def due_boards(session: Any, *, again: bool) -> list[Board]:
    """The boards a click analyses: missing and stale ones by number, then (``again``) the oldest analyses."""
    state = session_analysis(session)
    due = sorted([*state.missing, *state.stale], key=lambda b: b.number)
    if again:
        due += sorted(state.done, key=lambda b: (b.analysis.made_at, b.number))
    return due


def run_of(session: Any) -> AnalysisRun | None:
    return AnalysisRun.objects.filter(session=session).first()


def in_flight(session: Any, *, now: dt.datetime) -> bool:
    """Whether an analysis of the session is queued or running (and not abandoned)."""
    run = run_of(session)
    return run is not None and run.queued_at is not None and now - run.queued_at < RUN_STALE


def run_not_taken(session: Any, *, now: dt.datetime) -> bool:
    """Whether the session's queued analysis has waited more than a minute with no worker starting it."""
    run = run_of(session)
    return (
        run is not None
        and run.started_at is None
        and not_taken(run.queued_at, now)
        and now - run.queued_at < RUN_STALE  # type: ignore[operator]
    )


def _claim(session: Any, *, now: dt.datetime, left: int, started: bool) -> bool:
    run, _created = AnalysisRun.objects.get_or_create(session=session)
    free = Q(queued_at__isnull=True) | Q(queued_at__lt=now - RUN_STALE)
    return bool(
        AnalysisRun.objects.filter(pk=run.pk)
        .filter(free)
        .update(queued_at=now, started_at=now if started else None, left=left)
    )


def _release(session: Any) -> None:
    AnalysisRun.objects.filter(session=session).update(queued_at=None, left=0)


def start_analysis(session: Any, *, again: bool = False, now: dt.datetime) -> Outcome:
    """Analyse the session's due boards: queued for the workers, or a bounded batch here (no broker)."""
    boards = due_boards(session, again=again)
    if not boards:
        return Outcome("nothing")
    if is_eager(analyse_board_task):
        if not _claim(session, now=now, left=0, started=True):
            return Outcome("busy")
        return _inline(session, boards, again=again)
    if not _claim(session, now=now, left=len(boards), started=False):
        return Outcome("busy")
    for i, board in enumerate(boards):
        if not hand_off(analyse_board_task, (board.pk, again, True)):
            # The broker takes no more: what it took runs there, the rest here (bounded, the next click goes on).
            if i == 0:
                _release(session)
                if not _claim(session, now=now, left=0, started=True):
                    return Outcome("busy")
                return _inline(session, boards, again=again)
            AnalysisRun.objects.filter(session=session).update(left=i)
            return Outcome("queued", count=i)
    return Outcome("queued", count=len(boards))


def analyse_now(session: Any, *, user: Any, now: dt.datetime) -> Outcome:
    """A queued analysis no worker took: analyse here (bounded as without a broker), audited; the queued tasks
    that a worker may still take find their boards current and skip them."""
    if not run_not_taken(session, now=now):
        return Outcome("busy") if in_flight(session, now=now) else Outcome("nothing")
    log_action(tournament=session.tournament, action="analysis.run_now", user=user, obj=session, at=now)
    _release(session)
    if not _claim(session, now=now, left=0, started=True):
        return Outcome("busy")
    return _inline(session, due_boards(session, again=False), again=False)


def _inline(session: Any, boards: list[Board], *, again: bool) -> Outcome:
    """Analyse at most INLINE_BOARDS of ``boards`` here, beginning none after INLINE_SECONDS; then release the
    session's mark (held meanwhile, so a second click waits)."""
    cap = int(getattr(settings, "DD_INLINE_BOARDS", INLINE_BOARDS))
    budget = float(getattr(settings, "DD_INLINE_SECONDS", INLINE_SECONDS))
    started = time.monotonic()
    done = failed = 0
    try:
        for board in boards[:cap]:
            if done + failed and time.monotonic() - started > budget:
                break
            try:
                analyse_board_task.run(board.pk, again)
            except Exception:  # noqa: BLE001 - one board's failure is logged, the others go on
                logger.exception("double-dummy analysis of board %s failed", board.pk)
                failed += 1
            else:
                done += 1
    finally:
        _release(session)
    return Outcome("inline", count=done, left=len(boards) - done - failed, failed=failed)
