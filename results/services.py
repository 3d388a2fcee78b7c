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
from django.utils.translation import gettext_noop

from boards.handoff import hand_off, not_taken
from results.data import Progress, Report
from results.exporters import EXPORTERS, ExportError, exporter_for
from results.models import ExportJob
from tournaments.audit import log_action
from tournaments.models import Tournament

logger = logging.getLogger(__name__)

#: Why a job failed when its file could not be written: stored in English, shown in the reader's language.
UNWRITABLE = gettext_noop("The file could not be stored: the server's files folder is full or not writable.")
#: Why a job failed when its eager task raised outside the exporter (stored in English, shown translated).
BROKEN = gettext_noop("The file could not be made; the error is in the server log.")

__all__ = [
    "EXPORTERS",
    "ExportError",
    "build_file",
    "not_taken_jobs",
    "run_export",
    "run_export_now",
    "start_export",
]


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
    """Hand the job to the broker; when it does not take it, make the file here (once: boards.handoff)."""
    from results.tasks import generate_export

    try:
        taken = hand_off(generate_export, (job_id,))
    except Exception:  # noqa: BLE001 - eager: the task ran here; its failure is the job's, never rerun
        logger.exception("export job %s failed", job_id)
        _fail(job_id, BROKEN)
        return
    if not taken:
        logger.warning("export job %s: the broker cannot be reached; generating in-process", job_id)
        run_export(job_id=job_id)


def _fail(job_id: int, message: str) -> None:
    ExportJob.objects.filter(pk=job_id).exclude(status=ExportJob.Status.DONE).update(
        status=ExportJob.Status.FAILED, message=message[:2000], finished_at=timezone.now()
    )


def not_taken_jobs(jobs: list[ExportJob], *, now: dt.datetime) -> list[ExportJob]:
    """The jobs queued more than a minute ago that no worker has started (a started job is "running")."""
    return [j for j in jobs if j.status == ExportJob.Status.PENDING and not_taken(j.created_at, now)]


def run_export_now(*, job: ExportJob, user: Any, now: dt.datetime) -> ExportJob | None:
    """Make a job's file here and now, when no worker took it (the exports page's «Make now»); None when the
    job is no longer waiting (a worker started it meanwhile, or it is done)."""
    if job.status != ExportJob.Status.PENDING:
        return None
    log_action(tournament=job.tournament, action="export.run_now", user=user, obj=job, at=now)
    return run_export(job_id=job.pk)


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
        _fail(job_id, str(exc))
        job.refresh_from_db()
        return job
    job.refresh_from_db()
    try:
        job.file.save(name, ContentFile(body), save=False)
    except OSError:
        # MEDIA_ROOT full or not writable: the director is told in words, the operator finds it in the log
        # (and /healthz says "media": "unwritable").
        logger.exception("export job %s: the file cannot be stored in MEDIA_ROOT", job_id)
        _fail(job_id, UNWRITABLE)
        job.refresh_from_db()
        return job
    job.options = {**job.options, "filename": name}
    job.status = ExportJob.Status.DONE
    job.progress = 100
    job.finished_at = timezone.now()
    job.message = ""
    job.save(update_fields=["file", "options", "status", "progress", "finished_at", "message"])
    return job
