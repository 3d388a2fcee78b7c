"""Handing a task to the broker, and what a failure to do so means (docs/deployment.md, "Fallbacks").

Two failures look alike and must not be taken for each other:

* the broker does not take the task (unreachable, a transport that cannot be imported, a full queue: any
  exception out of ``delay``/``apply_async`` when tasks are not eager). The work has not started anywhere:
  :func:`hand_off` returns False and the caller runs it in-process, so nothing waits on a broken queue;
* the task's own work fails. In eager mode (no broker: the task runs inside ``delay``) that failure propagates
  out of :func:`hand_off`; the caller records it as failed and never runs the work a second time.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

logger = logging.getLogger(__name__)

#: A task queued and not started after this long was taken by no worker: the pages say so and offer to run it.
NOT_TAKEN_AFTER = dt.timedelta(minutes=1)


def is_eager(task: Any) -> bool:
    """Whether ``task.delay`` runs the task here and now (no broker configured)."""
    return bool(task.app.conf.task_always_eager)


def hand_off(task: Any, args: tuple[Any, ...], *, countdown: float = 0) -> bool:
    """Give ``task(*args)`` to the broker: True when it took it (or, eager, ran it), False when it did not.

    A False is logged; the caller then does the work in-process. The task's own failure in eager mode is
    raised, not reported as a hand-off failure."""
    eager = is_eager(task)
    try:
        if countdown > 0:
            task.apply_async(args, countdown=countdown)
        else:
            task.delay(*args)
    except Exception:  # noqa: BLE001 - any failure to hand the task over is a broker failure
        if eager:
            raise  # the task ran here and failed: its own failure, not the broker's
        logger.warning("the broker did not take %s%r; running it in-process", task.name, args, exc_info=True)
        return False
    return True


def not_taken(queued_at: dt.datetime | None, now: dt.datetime) -> bool:
    """Whether a task marked queued at ``queued_at`` has waited longer than a worker would let it."""
    return queued_at is not None and now - queued_at > NOT_TAKEN_AFTER
