"""The exports page of an event, either form (directors): the buttons for every generated file, their progress,
and the downloads. Who may download a file is :func:`visibility.can_download_exports`."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

import visibility
from results.models import ExportJob
from results.services import EXPORTERS, ExportError, not_taken_jobs, run_export_now, start_export
from results.views_common import event_of
from tournaments.models import Tournament
from tournaments.numbers import whole_number
from ui.director_pages import nav as nav_context


def _director_or_404(request: HttpRequest, slug: str) -> Tournament:
    tournament, viewer = event_of(request, slug)
    if not visibility.can_download_exports(viewer, tournament):
        if not request.user.is_authenticated:
            raise Http404("not found")  # do not reveal the page's existence to the public
        raise Http404("not a director of this tournament")
    return tournament


@never_cache
@require_http_methods(["GET", "POST"])
def exports(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, viewer = event_of(request, slug)
    if not visibility.can_download_exports(viewer, tournament):
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        raise Http404("not a director of this tournament")
    if request.method == "POST" and request.POST.get("action") == "run_now":
        return _run_now(request, tournament)
    if request.method == "POST":
        kind = request.POST.get("kind", "")
        fmt = request.POST.get("format", "")
        options: dict[str, Any] = {"base_url": request.build_absolute_uri("/")}
        if (session := whole_number(request.POST.get("session", ""), digits=6)) is not None:
            options["session"] = session
        if request.POST.get("lang") in ("ru", "en"):
            options["lang"] = request.POST["lang"]
        try:
            job = start_export(tournament=tournament, kind=kind, fmt=fmt, options=options, user=request.user)
        except ExportError as exc:
            messages.error(request, str(exc))
            return redirect("results:exports", slug=slug)
        if request.headers.get("Accept", "").startswith("application/json"):
            return JsonResponse(_job_json(job, slug))
        return redirect(f"{reverse('results:exports', kwargs={'slug': slug})}#job-{job.pk}")
    jobs = list(ExportJob.objects.filter(tournament=tournament).select_related("created_by")[:50])
    for job in jobs:
        spec = EXPORTERS.get(job.kind)
        job.kind_label = spec.label if spec else job.kind  # type: ignore[attr-defined]
    sessions = list(tournament.sessions.order_by("number"))
    context = nav_context(tournament, active="exports") | {  # the director's tabs above the page
        "is_director": True,
        "nav": "exports",
        "live": False,
        "kinds": list(EXPORTERS.values()),
        "jobs": jobs,
        "sessions": sessions,
        "with_movement": [s for s in sessions if s.movement],
        "not_taken": {j.pk for j in not_taken_jobs(jobs, now=timezone.now())},
        "pending": any(j.status in (ExportJob.Status.PENDING, ExportJob.Status.RUNNING) for j in jobs),
    }
    return render(request, "results/exports.html", context)


def _run_now(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """«Make now»: a job no worker took is made in this request (results.services.run_export_now)."""
    pk = request.POST.get("job", "")
    job = (
        get_object_or_404(ExportJob, pk=int(pk), tournament=tournament)
        if pk.isdigit() and len(pk) < 12
        else None
    )
    if job is None:
        raise Http404("no such job")
    done = run_export_now(job=job, user=request.user, now=timezone.now())
    if done is None:
        messages.info(request, _("This file is already being made."))
    elif done.status == ExportJob.Status.FAILED:
        messages.error(request, _(done.message))
    else:
        messages.success(request, _("The file is ready."))
    return redirect(f"{reverse('results:exports', kwargs={'slug': tournament.slug})}#job-{job.pk}")


def _job_json(job: ExportJob, slug: str) -> dict[str, Any]:
    return {
        "id": job.pk,
        "kind": job.kind,
        "format": job.format,
        "status": job.status,
        "status_display": job.get_status_display(),
        "progress": job.progress,
        "message": _(job.message) if job.message else "",  # a stored reason (results.services) in words
        "download": reverse("results:export-download", kwargs={"slug": slug, "pk": job.pk})
        if job.status == ExportJob.Status.DONE and job.file
        else None,
    }


@never_cache
def export_status(request: HttpRequest, slug: str, pk: int) -> JsonResponse:
    tournament = _director_or_404(request, slug)
    job = get_object_or_404(ExportJob, pk=pk, tournament=tournament)
    return JsonResponse(_job_json(job, slug))


def export_download(request: HttpRequest, slug: str, pk: int) -> FileResponse:
    tournament = _director_or_404(request, slug)
    job = get_object_or_404(ExportJob, pk=pk, tournament=tournament, status=ExportJob.Status.DONE)
    if not job.file:
        raise Http404("no file")
    name = job.options.get("filename") or job.file.name.rsplit("/", 1)[-1]
    return FileResponse(job.file.open("rb"), as_attachment=True, filename=name)
