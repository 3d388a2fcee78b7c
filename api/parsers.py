"""The API's JSON parser: refuses a body too large, nested too deep or with too long numbers before it decodes
it (``preferans.bundle.bounds``), in the API's one error shape (``api.errors``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework import exceptions
from rest_framework.parsers import JSONParser

from api.errors import too_large
from preferans.bundle.bounds import DEPTH_MAX, DIGITS_MAX, JsonRefused, JsonTooDeep, bounded_json

BODY_MAX = 256 * 1024
"""The largest body the API reads (a protocol row is well under 1 KB)."""


def refused(exc: JsonRefused) -> exceptions.ParseError:
    """A JSON text a bound refused, in words a person understands."""
    if isinstance(exc, JsonTooDeep):
        return exceptions.ParseError(
            ngettext(
                "The JSON is nested more than %(n)s level deep.",
                "The JSON is nested more than %(n)s levels deep.",
                DEPTH_MAX,
            )
            % {"n": DEPTH_MAX}
        )
    return exceptions.ParseError(
        ngettext(
            "A number in the JSON is longer than %(n)s digit.",
            "A number in the JSON is longer than %(n)s digits.",
            DIGITS_MAX,
        )
        % {"n": DIGITS_MAX}
    )


class BoundedJSONParser(JSONParser):
    """REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]: at most :data:`BODY_MAX` bytes, nesting and digits bounded."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = min(BODY_MAX, settings.DATA_UPLOAD_MAX_MEMORY_SIZE or BODY_MAX)
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise too_large(limit)
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            return bounded_json(raw.decode(encoding), parse_constant=_no_constant)
        except JsonRefused as exc:
            raise refused(exc) from exc
        except (ValueError, UnicodeDecodeError) as exc:
            raise exceptions.ParseError(_("The body is not valid JSON.")) from exc


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number in JSON")
