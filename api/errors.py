"""The one error shape of the API, and the exception handler that produces it for every 4xx.

    {"error": {"code": "row_invalid", "message": "…", "details": [{"field": "w1", "code": "tricks_total",
                                                                   "message": "…"}]}}

``code`` is stable (clients branch on it), ``message`` is for people (in the request's language),
``details`` lists the fields at fault (may be empty).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import Http404, HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from tournaments.errors import UserError


class ApiError(exceptions.APIException):
    """An error with our own code, message and details."""

    def __init__(
        self, code: str, message: str, status_code: int, details: list[dict[str, Any]] | None = None
    ):
        self.status_code = status_code
        self.error_code = code
        self.details = details or []
        super().__init__(detail=message, code=code)


def too_large(limit: int) -> ApiError:
    """413 in the API's shape: the body is larger than ``limit`` bytes."""
    return ApiError(
        "too_large", _("The request is too large: at most %(n)s KB.") % {"n": max(1, limit // 1024)}, 413
    )


def api_error_for(exc: Exception) -> ApiError | None:
    """An error a user can fix (any service's :class:`~tournaments.errors.UserError`) in the API's shape: its
    code, its message (already in the request's language), its status and its details."""
    if isinstance(exc, UserError):
        return ApiError(exc.code, exc.message, exc.status, [d.as_dict() for d in exc.details])
    return None


def _flatten(detail: Any, prefix: str = "") -> list[dict[str, Any]]:
    """DRF's nested validation errors as a flat list of {field, code, message}."""
    out: list[dict[str, Any]] = []
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = "" if key == "non_field_errors" else str(key)
            out += _flatten(value, f"{prefix}.{name}".strip(".") if name else prefix)
    elif isinstance(detail, list):
        for i, value in enumerate(detail):
            if isinstance(value, (dict, list)):
                out += _flatten(value, f"{prefix}.{i}".strip("."))
            else:
                out += _flatten(value, prefix)
    else:
        out.append(
            {"field": prefix, "code": getattr(detail, "code", "invalid") or "invalid", "message": str(detail)}
        )
    return out


CODES = {
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.ParseError: "parse_error",
    exceptions.Throttled: "throttled",
    exceptions.ValidationError: "invalid",
}


def error_body(code: str, message: str, details: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "details": details or []}}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """REST_FRAMEWORK["EXCEPTION_HANDLER"]: every API error in the one shape."""
    mapped = api_error_for(exc)
    if mapped is not None:
        exc = mapped
    elif isinstance(exc, RequestDataTooBig | TooManyFieldsSent):  # Django's own bounds: never an HTML page
        exc = too_large(settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0)
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    assert isinstance(exc, exceptions.APIException)
    if isinstance(exc, ApiError):
        body = error_body(exc.error_code, str(exc.detail), exc.details)
    elif isinstance(exc, exceptions.ValidationError):
        details = _flatten(exc.detail)
        body = error_body("invalid", _("The request is not valid."), details)
    else:
        code = next((c for cls, c in CODES.items() if isinstance(exc, cls)), None) or str(
            getattr(exc, "default_code", "error")
        )
        detail = exc.detail
        message = str(detail) if not isinstance(detail, (dict, list)) else _("The request is not valid.")
        details = []
        if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
            details = [{"field": "", "code": "retry_after", "message": str(int(exc.wait))}]
        body = error_body(code, message, details)
    response.data = body
    return response


def error_response(body: dict[str, Any], *, status: int) -> JsonResponse:
    """An error body outside DRF (unknown paths, a database out of reach), written as DRF writes its own: UTF-8,
    Cyrillic as it is («Нет такой точки API», not «\\u041d…»)."""
    return JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False})


def not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Unknown paths under /api/ answer in the same shape."""
    return error_response(error_body("not_found", _("No such API endpoint.")), status=404)
