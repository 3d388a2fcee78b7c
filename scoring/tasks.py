"""Celery tasks: take primary keys, call a service, return a key."""

from __future__ import annotations

from celery import shared_task

from scoring.services import rescore_tournament


@shared_task(bind=True, acks_late=True, max_retries=3, default_retry_delay=2)
def rescore_tournament_task(self, tournament_id: int) -> int:  # type: ignore[no-untyped-def]
    """Rescore a tournament in the background (eagerly, in-process, without a broker)."""
    rescore_tournament(tournament_id=tournament_id)
    return tournament_id
