"""Middleware of the project: security headers on every response; each event's pages in the event's time zone.

Pages about an event are rendered in the event's time zone (``Tournament.zone``; empty: the site's).

The view's URL names the event by its ``slug`` (director, public, appeals and exports pages) or a table by its
``code`` (a duplicate table's page, a pulka table's sheet); the middleware looks the event's zone up and activates
it for the request, so every ``|date`` and ``timezone.localtime`` on the page shows the event's local time.
Pages that name no event keep the site's zone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from pulkas.models import PulkaTable
from tournaments import zones
from tournaments.models import Table, Tournament


class SecurityHeadersMiddleware:
    """The Content-Security-Policy and the Permissions-Policy of settings, on every response that has none.

    Django's SecurityMiddleware already sends X-Content-Type-Options, Referrer-Policy and
    Cross-Origin-Opener-Policy; a view may set its own policy (the header is then left as it is).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.headers = {
            "Content-Security-Policy": settings.CONTENT_SECURITY_POLICY,
            "Permissions-Policy": settings.PERMISSIONS_POLICY,
        }

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        for name, value in self.headers.items():
            if value:
                response.headers.setdefault(name, value)
        return response


def _zone_name(kwargs: dict[str, Any]) -> str | None:
    slug, code = kwargs.get("slug"), kwargs.get("code")
    if isinstance(slug, str):
        return Tournament.objects.filter(slug=slug).values_list("zone", flat=True).first()
    if isinstance(code, str):
        found = Table.objects.filter(code=code).values_list("session__tournament__zone", flat=True).first()
        if found is None:
            found = (
                PulkaTable.objects.filter(code=code).values_list("round__tournament__zone", flat=True).first()
            )
        return found
    return None


class EventTimeZoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> None:
        name = _zone_name(kwargs)
        if name:
            timezone.activate(zones.zone(name))
