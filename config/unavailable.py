"""While the database restarts or is out of reach (``OperationalError``, ``InterfaceError``): 503 with
``Retry-After``, never a 500 — in the API's JSON error shape under ``/api/``, a plain page elsewhere.

Two ways in: :class:`DatabaseUnavailableMiddleware` answers a view's failure (in any mode), and
:func:`server_error` (``handler500``) one raised before the view (a middleware's query: the event's time zone, the
session), where Django no longer passes the exception on. The page is built without the database or a template
(both may need it): a few words in the request's language.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext as _
from django.views import defaults

from api.errors import error_body, error_response

RETRY_AFTER = 10  # seconds: a database restart usually takes a few


def database_down(exc: BaseException | None) -> bool:
    return isinstance(exc, OperationalError | InterfaceError)


def unavailable(request: HttpRequest) -> HttpResponse:
    """The 503 answer: JSON in the API's shape under /api/, else a short page; ``Retry-After`` on both."""
    message = _("The service is briefly unavailable. Try again in a few seconds.")
    response: HttpResponse
    if request.path_info.startswith("/api/"):
        details = [{"field": "", "code": "retry_after", "message": str(RETRY_AFTER)}]
        response = error_response(error_body("unavailable", message, details), status=503)
    else:
        lang = escape(translation.get_language() or "en")
        title = escape(_("Service unavailable"))
        page = (
            f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{title}</title></head><body><h1>{title}</h1><p>{escape(message)}</p></body></html>"
        )
        response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseUnavailableMiddleware:
    """A view that failed because the database is out of reach answers 503 (last in MIDDLEWARE)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        return unavailable(request) if database_down(exception) else None


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: 503 when the exception being handled is the database's, else Django's 500 page."""
    if database_down(sys.exc_info()[1]):
        return unavailable(request)
    return defaults.server_error(request)
