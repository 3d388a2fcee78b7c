"""What every public results page of a duplicate event starts from: the event, who asks (``visibility``),
the session asked for, and the context every page shares."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from results.data import Report, SessionInfo
from tournaments.models import Tournament
from tournaments.numbers import whole_number
from visibility import Viewer

REFRESH_SECONDS = 30


def event_of(request: HttpRequest, slug: str) -> tuple[Tournament, Viewer]:
    """The tournament ``slug`` and the visitor as :mod:`visibility` knows him."""
    return get_object_or_404(Tournament, slug=slug), Viewer.of(request.user)


def unpublished(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(request, "results/unpublished.html", {"tournament": tournament}, status=403)


def session_param(request: HttpRequest, report: Report) -> SessionInfo | None:
    """The session of ``?session=N`` (404 for an unknown one), else the latest with results, else the last."""
    raw = request.GET.get("session")
    number = whole_number(raw, digits=6)
    if number is not None:
        found = report.session(number)
        if found is None:
            raise Http404("no such session")
        return found
    with_results = [s for s in report.sessions if s.results]
    if with_results:
        return with_results[-1]
    return report.sessions[-1] if report.sessions else None


def base_context(tournament: Tournament, report: Report, is_director: bool, **extra: Any) -> dict[str, Any]:
    correction_until = None
    if tournament.publication == "official" and tournament.official_at is not None:
        correction_until = tournament.official_at + dt.timedelta(minutes=tournament.correction_minutes)
    return {
        "tournament": tournament,
        "correction_until": correction_until,
        "report": report,
        "is_director": is_director,
        "live": report.any_running,
        "refresh_seconds": REFRESH_SECONDS,
        "sessions": report.sessions,
        **extra,
    }
