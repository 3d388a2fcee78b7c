"""Generated files: making one, and the export jobs that keep them (the kinds are :mod:`results.exporters`).

``build_file`` is the one function every path goes through (the exports page via a Celery task, the
``export_results`` command, the benchmark): a tournament's primary key, a kind and a format in, a file name and
bytes out. ``start_export`` records an :class:`~scoring.models.ExportJob` and enqueues
``results.tasks.generate_export`` on commit; ``run_export`` (the task's body) makes the file, reports
progress on the job and keeps the file for download.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable, Mapping
from typing import Any

from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from results.data import Progress, Report
from results.exporters import EXPORTERS, ExportError, exporter_for
from results.models import ExportJob
from tournaments.models import Tournament

logger = logging.getLogger(__name__)

__all__ = ["EXPORTERS", "ExportError", "build_file", "run_export", "start_export"]


def build_file(
    tournament_id: int,
    kind: str,
    fmt: str,
    options: Mapping[str, Any] | None = None,
    *,
    progress: Callable[[int, str], None] | None = None,
    report: Report | None = None,
    now: dt.datetime | None = None,
) -> tuple[str, bytes]:
    """Make one file; return its name and bytes. ``progress(percent, message)`` is called along the way.

    ``now`` is the time printed on the file (the channel's clock: the command, the task; default: now)."""
    tournament = Tournament.objects.get(pk=tournament_id)
    step = Progress(progress)
    with timezone.override(
        tournament.time_zone
    ):  # the file prints times in the event's zone, in a worker too
        exporter = exporter_for(
            tournament,
            kind,
            options=dict(options or {}),
            now=timezone.localtime(now),
            progress=step,
            report=report,
        )
        body = exporter.render(fmt)
    step(100, 100, "done")
    return exporter.filename(fmt), body


# -- jobs ------------------------------------------------------------------------------------------------
def start_export(
    *, tournament: Any, kind: str, fmt: str, options: Mapping[str, Any] | None = None, user: Any = None
) -> ExportJob:
    """Record the job and enqueue its task once the transaction commits (eagerly without a broker)."""
    spec = EXPORTERS.get(kind)
    if spec is None or fmt not in spec.formats:
        raise ExportError(str(_("This file cannot be made in that format.")))
    job = ExportJob.objects.create(
        tournament=tournament,
        kind=kind,
        format=fmt,
        options=dict(options or {}),
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    transaction.on_commit(lambda: _enqueue(job.pk))
    return job


def _enqueue(job_id: int) -> None:
    from results.tasks import generate_export

    try:
        generate_export.delay(job_id)
    except Exception:  # noqa: BLE001 - broker down: make the file in this process rather than never
        logger.warning("export job %s: the broker cannot be reached; generating in-process", job_id)
        run_export(job_id=job_id)


def run_export(*, job_id: int) -> ExportJob:
    """Make the job's file, keeping its progress up to date; a failure is recorded on the job, not raised."""
    job = ExportJob.objects.select_related("tournament").get(pk=job_id)
    if job.status == ExportJob.Status.DONE:
        return job
    ExportJob.objects.filter(pk=job_id).update(status=ExportJob.Status.RUNNING, progress=0, message="")

    def progress(value: int, message: str) -> None:
        ExportJob.objects.filter(pk=job_id).update(progress=min(99, max(0, value)))

    try:
        name, body = build_file(job.tournament_id, job.kind, job.format, job.options, progress=progress)
    except Exception as exc:  # noqa: BLE001 - any failure is shown to the director on the job
        logger.exception("export job %s (%s.%s) failed", job_id, job.kind, job.format)
        ExportJob.objects.filter(pk=job_id).update(
            status=ExportJob.Status.FAILED, message=str(exc)[:2000], finished_at=timezone.now()
        )
        job.refresh_from_db()
        return job
    job.refresh_from_db()
    job.file.save(name, ContentFile(body), save=False)
    job.options = {**job.options, "filename": name}
    job.status = ExportJob.Status.DONE
    job.progress = 100
    job.finished_at = timezone.now()
    job.message = ""
    job.save(update_fields=["file", "options", "status", "progress", "finished_at", "message"])
    return job
