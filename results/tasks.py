"""Celery tasks of the results package: take a primary key, call the service, return the key."""

from __future__ import annotations

from celery import shared_task

from results.services import run_export


@shared_task(bind=True, acks_late=True, max_retries=0)
def generate_export(self, job_id: int) -> int:  # type: ignore[no-untyped-def]
    """Make an export job's file (progress is written on the job as it goes)."""
    run_export(job_id=job_id)
    return job_id
