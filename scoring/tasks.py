"""Celery tasks: take primary keys, call a service, return a key."""

from __future__ import annotations

import os
import time

from celery import shared_task
from django.db import InterfaceError, OperationalError

from scoring.rescore import rescore_tournament
from tournaments.models import Tournament


@shared_task(
    bind=True,
    acks_late=True,
    # The database restarting under a running rescore: try again shortly (the rescore is idempotent).
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=1,
    retry_backoff_max=30,
    max_retries=8,
)
def rescore_tournament_task(self, tournament_id: int) -> int:  # type: ignore[no-untyped-def]
    """Rescore a tournament in the background (eagerly, in-process, without a broker)."""
    _fault_injection_pause()
    # From here on, new changes queue a fresh rescore (this one may already have read the rows).
    Tournament.objects.filter(pk=tournament_id).update(rescore_queued_at=None)
    rescore_tournament(tournament_id=tournament_id)
    return tournament_id


def _fault_injection_pause() -> None:
    """For fault tests only: FAULT_INJECT_TASK_DELAY=seconds holds the task open so a test can kill the worker
    mid-task. Unset in every real deployment."""
    delay = float(os.environ.get("FAULT_INJECT_TASK_DELAY", "0") or 0)
    if delay > 0:
        time.sleep(delay)
