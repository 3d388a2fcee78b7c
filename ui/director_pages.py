"""What every director page shares: the permission check, safe links to other packages' pages, messages."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import NoReverseMatch, reverse

from tournaments.models import Session, Tournament
from tournaments.permissions import can_direct
from tournaments.services.event import current_session

View = Callable[..., HttpResponse]


def directs(view: View) -> View:
    """Login required (anonymous → the login page); then a director of this tournament (else 403).

    The view receives the tournament instead of the slug, and ``session`` when the URL names one.
    """

    @functools.wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        tournament = get_object_or_404(Tournament, slug=slug)
        if not can_direct(request.user, tournament):
            raise PermissionDenied
        if "session" in kwargs:
            kwargs["session"] = get_object_or_404(Session, tournament=tournament, number=kwargs["session"])
        return view(request, tournament, *args, **kwargs)

    return wrapper


def safe_url(name: str, *args: Any) -> str | None:
    """A link to another package's page, or None while that page does not exist yet."""
    try:
        return reverse(name, args=args)
    except NoReverseMatch:
        return None


def nav(tournament: Tournament, session: Session | None = None, active: str = "") -> dict[str, Any]:
    session = session or current_session(tournament)
    return {
        "tournament": tournament,
        "session": session,
        "active": active,
        "sessions": list(tournament.sessions.order_by("number")),
        "public_results_url": safe_url("results:exports", tournament.slug),
        "appeals_url": safe_url("appeals:list", tournament.slug),
    }


def fail(request: HttpRequest, exc: Exception) -> None:
    messages.error(request, str(exc))
