"""Generated files: what can be made, making one, and the export jobs that keep them.

``build_file`` is the one function every path goes through (the exports page via a Celery task, the
``export_results`` command, the benchmark): a tournament's primary key, a kind and a format in, a file name and
bytes out. ``start_export`` records an :class:`~scoring.models.ExportJob` and enqueues
``results.tasks.generate_export`` on commit; ``run_export`` (the task's body) makes the file, reports
progress on the job and keeps the file for download.
"""

from __future__ import annotations

import io
import logging
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.core.files.base import ContentFile
from django.db import transaction
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from results.data import Progress, Report, load_report
from results.exporters import sheets
from results.labels import lang_of
from results.models import ExportJob
from results.render_tabular import render_csv, render_xlsx

logger = logging.getLogger(__name__)

__all__ = [
    "KINDS",
    "ExportError",
    "FileKind",
    "build_file",
    "run_export",
    "start_export",
    "table_links",
    "table_url",
]


class ExportError(ValueError):
    """The file cannot be made as asked (unknown kind or format, no movement, …): a message for the user."""


@dataclass(frozen=True)
class FileKind:
    key: str
    label: Any  # lazily translated, for the exports page
    formats: tuple[str, ...]
    per_session: bool = False
    director_only: bool = False


KINDS: dict[str, FileKind] = {
    k.key: k
    for k in (
        FileKind("results", _("Standings and protocols"), ("xlsx", "csv", "pdf")),
        FileKind("workbook", _("Excel workbook: standings, protocols, score cards, frequencies"), ("xlsx",)),
        FileKind("standings", _("Standings"), ("pdf", "xlsx", "csv")),
        FileKind("protocols", _("Protocols with matchpoints"), ("pdf", "xlsx", "csv")),
        FileKind("cards", _("Personal score cards"), ("pdf", "xlsx", "csv")),
        FileKind("pack", _("PDF pack (all printed materials, zip)"), ("zip",)),
        FileKind("table_cards", _("Table cards for the movement"), ("pdf",), per_session=True),
        FileKind("row_of_sets", _("Director's row of sets"), ("pdf",), per_session=True),
        FileKind("cost_table", _("Table of game costs"), ("pdf",)),
        FileKind("appeal_form", _("Appeal form (blank)"), ("pdf",)),
    )
}

CONTENT_TYPES = {
    "pdf": "application/pdf",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "csv": "text/csv; charset=utf-8",
    "zip": "application/zip",
}

_SHEETS = {
    "results": ["standings", "protocols"],
    "workbook": ["standings", "session_totals", "protocols", "cards", "frequencies"],
    "standings": ["standings", "session_totals"],
    "protocols": ["protocols", "frequencies"],
    "cards": ["cards", "session_totals"],
}


def table_url(code: str, base_url: str = "") -> str:
    """The table's protocol-entry page (absolute when ``base_url`` is given)."""
    try:
        path = reverse("table:entry", kwargs={"code": code})
    except NoReverseMatch:
        path = f"/table/{code}/"
    return base_url.rstrip("/") + path if base_url else path


def table_links(session: Any, base_url: str = "") -> dict[tuple[int, int], Any]:
    from results.pdf_movement import TableLink

    return {(t.room, t.number): TableLink(t.code, table_url(t.code, base_url)) for t in session.tables.all()}


def _session(tournament: Any, options: Mapping[str, Any]) -> Any:
    number = options.get("session")
    qs = tournament.sessions.all()
    session = qs.filter(number=int(number)).first() if number else qs.order_by("-number").first()
    if session is None:
        raise ExportError(str(_("The tournament has no such session.")))
    return session


def _movement(session: Any) -> Any:
    from preferans.movements import MovementError, build_movement

    if not session.movement:
        raise ExportError(str(_("Session %(n)s has no movement.") % {"n": session.number}))
    t = session.tournament
    try:
        return build_movement(session.movement, per_table=t.players_per_table, deals_per_set=t.deals_per_set)
    except MovementError as exc:
        raise ExportError(str(exc)) from exc


def build_file(
    tournament_id: int,
    kind: str,
    fmt: str,
    options: Mapping[str, Any] | None = None,
    *,
    progress: Callable[[int, str], None] | None = None,
    report: Report | None = None,
) -> tuple[str, bytes]:
    """Make one file; return its name and bytes. ``progress(percent, message)`` is called along the way."""
    from results import pdf_results
    from results.pdf_appeal import appeal_form_pdf
    from results.pdf_movement import cost_tables_pdf, row_of_sets_pdf, table_cards_pdf
    from tournaments.models import Tournament

    options = dict(options or {})
    spec = KINDS.get(kind)
    if spec is None:
        raise ExportError(f"unknown kind {kind!r}: one of {', '.join(KINDS)}")
    if fmt not in spec.formats:
        raise ExportError(f"{kind} is made as {', '.join(spec.formats)}, not {fmt!r}")
    tournament = Tournament.objects.get(pk=tournament_id)
    lang = lang_of(options.get("lang") or tournament.language)
    now = timezone.localtime()
    step = Progress(progress)
    name = f"{tournament.slug}-{kind.replace('_', '-')}"

    def data() -> Report:
        nonlocal report
        if report is None:
            report = load_report(tournament_id, now=now)
            step(5, 100, "loaded")
        return report

    if kind in ("table_cards", "row_of_sets"):
        session = _session(tournament, options)
        movement = _movement(session)
        name += f"-s{session.number}"
        if kind == "table_cards":
            links = table_links(session, str(options.get("base_url") or ""))
            body = table_cards_pdf(movement, tournament=tournament.name, publication=tournament.publication,
                                   session=session.number, lang=lang, links=links, generated_at=now)  # fmt: skip
        else:
            body = row_of_sets_pdf(movement, tournament=tournament.name, session=session.number, lang=lang,
                                   generated_at=now)  # fmt: skip
    elif kind == "cost_table":
        body = cost_tables_pdf(tournament=tournament.name, variant=tournament.variant, rules=tournament.rule_overrides or {},
                               players=tournament.players_per_table, lang=lang,
                               standard=bool(options.get("standard", True)), generated_at=now)  # fmt: skip
    elif kind == "appeal_form":
        body = appeal_form_pdf(None, lang=lang)
    elif kind == "pack":
        body = _pack(tournament, data(), lang, options, step.part(5, 100))
    elif fmt == "xlsx":
        body = render_xlsx(sheets(data(), _SHEETS[kind], lang), progress=step.part(10, 100))
    elif fmt == "csv":
        body = render_csv(sheets(data(), _SHEETS[kind], lang))
    else:  # pdf of results
        part = step.part(5, 100)
        if kind == "results":
            body = pdf_results.results_pdf(data(), lang=lang, progress=part)
        elif kind == "standings":
            body = pdf_results.standings_pdf(data(), lang=lang)
        elif kind == "protocols":
            layouts = options.get("layouts")
            body = pdf_results.protocols_pdf(data(), lang=lang, layouts=layouts, progress=part)
        else:
            participants = options.get("participants")
            body = pdf_results.cards_pdf(data(), lang=lang, participants=participants, progress=part)
    step(100, 100, "done")
    return f"{name}.{fmt}", body


def _pack(tournament: Any, report: Report, lang: str, options: Mapping[str, Any], step: Progress) -> bytes:
    """Every printed material in one zip: results, score cards, and per session table cards and the row."""
    from results import pdf_results
    from results.pdf_appeal import appeal_form_pdf
    from results.pdf_movement import cost_tables_pdf, row_of_sets_pdf, table_cards_pdf

    slug = tournament.slug
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as zf:
        zf.writestr(f"{slug}-standings.pdf", pdf_results.standings_pdf(report, lang=lang))
        step(3, 100)
        zf.writestr(
            f"{slug}-protocols.pdf", pdf_results.protocols_pdf(report, lang=lang, progress=step.part(3, 35))
        )
        zf.writestr(f"{slug}-cards.pdf", pdf_results.cards_pdf(report, lang=lang, progress=step.part(35, 92)))
        base_url = str(options.get("base_url") or "")
        for session in tournament.sessions.all():
            if not session.movement:
                continue
            try:
                movement = _movement(session)
            except ExportError:
                continue
            zf.writestr(
                f"{slug}-table-cards-s{session.number}.pdf",
                table_cards_pdf(movement, tournament=tournament.name, publication=tournament.publication,
                                session=session.number, lang=lang, links=table_links(session, base_url),
                                generated_at=report.generated_at),
            )  # fmt: skip
            zf.writestr(
                f"{slug}-row-of-sets-s{session.number}.pdf",
                row_of_sets_pdf(movement, tournament=tournament.name, session=session.number, lang=lang,
                                generated_at=report.generated_at),
            )  # fmt: skip
        step(96, 100)
        zf.writestr(
            f"{slug}-cost-table.pdf",
            cost_tables_pdf(tournament=tournament.name, variant=tournament.variant, rules=tournament.rule_overrides or {},
                            players=tournament.players_per_table, lang=lang, standard=True,
                            generated_at=report.generated_at),
        )  # fmt: skip
        zf.writestr(f"{slug}-appeal-form.pdf", appeal_form_pdf(None, lang=lang))
    return buffer.getvalue()


# -- jobs ------------------------------------------------------------------------------------------------
def start_export(
    *, tournament: Any, kind: str, fmt: str, options: Mapping[str, Any] | None = None, user: Any = None
) -> ExportJob:
    """Record the job and enqueue its task once the transaction commits (eagerly without a broker)."""
    spec = KINDS.get(kind)
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
