"""Pages. Views only read and call services; the rules live in the cores."""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

from django.conf import settings
from django.db import connection
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.cache import never_cache

import visibility
from pulkas.models import PulkaRound
from pulkas.services.standings import event_table
from tournaments.models import Tournament
from visibility import Viewer

logger = logging.getLogger(__name__)


def home(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.annotate(n_participants=Count("participants", distinct=True)).order_by(
        "-starts_on", "-created_at"
    )
    return render(request, "results/home.html", {"tournaments": tournaments})


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    viewer = Viewer.of(request.user)
    show_results = visibility.can_see_results(viewer, tournament)
    hidden = visibility.standings_hidden(viewer, tournament) if show_results else ""
    context = {
        "tournament": tournament,
        "is_director": viewer.directs(tournament),
        "participants": tournament.participants.all(),
        "show_results": show_results,
        "standings_hidden": hidden,
    }
    if tournament.plays_pulkas:
        # An Olympic, compensation or Swiss event: its rounds and the pulka standings (pulkas' public pages).
        context["pulka_rounds"] = PulkaRound.objects.filter(tournament=tournament).annotate(
            n_tables=Count("tables", distinct=True)
        )
        has_event = hasattr(tournament, "pulka_event")
        shown = show_results and not hidden and has_event
        context["pulka_lines"] = event_table(tournament).lines if shown else []
        return render(request, "results/event.html", context)
    context["sessions"] = tournament.sessions.annotate(
        n_results=Count("results", distinct=True), n_boards=Count("boards", distinct=True)
    )
    shown = show_results and not hidden
    context["standings"] = tournament.standings.select_related("participant") if shown else []
    return render(request, "results/event.html", context)


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness, database reachability and whether generated files can be stored, for load balancers and
    monitoring: ``{"status": "ok", "media": "ok"}``, else 503 naming what fails (docs/deployment.md)."""
    answer = {"status": "ok"}
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:  # noqa: BLE001 - any database failure means "not healthy"
        # The reason goes to the log, not to the public answer (it names hosts, ports and users).
        logger.exception("health check: the database is unreachable")
        answer = {"status": "error", "database": "unreachable"}
    answer["media"] = "ok" if media_writable() else "unwritable"
    if answer["media"] != "ok":
        answer["status"] = "error"
    return JsonResponse(answer, status=200 if answer["status"] == "ok" else 503)


def media_writable() -> bool:
    """Whether a file can be written to MEDIA_ROOT (and deleted again): exports are stored there."""
    root = Path(settings.MEDIA_ROOT)
    try:
        root.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=root, prefix=".healthz-") as probe:
            probe.write(b"ok")
            probe.flush()
    except OSError:
        logger.exception("health check: MEDIA_ROOT %s is not writable", root)
        return False
    return True
