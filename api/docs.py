"""A readable documentation page rendered on the server from the OpenAPI schema (no CDN, no JavaScript)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularAPIView
from rest_framework.request import Request
from rest_framework.response import Response

METHODS = ("get", "post", "put", "patch", "delete")
# The page's own words; the schema's title and description (settings.SPECTACULAR_SETTINGS) stay for programs.
TITLE = _("Duplicate preferans API")
DESCRIPTION = _(
    "Tournaments, sessions, seating, protocol rows, confirmations, standings, adjustments and penalties. "
    "Errors: one shape (below)."
)
# The schema's tags (the first part of a path) as the page names its sections.
TAGS = {
    "adjustments": _("adjustments"),
    "boards": _("boards"),
    "penalties": _("penalties"),
    "pulka events": _("pulka events"),
    "pulka table": _("pulka table"),
    "results": _("results"),
    "rounds": _("rounds"),
    "seatings": _("seatings"),
    "sessions": _("sessions"),
    "tables": _("tables"),
    "tournaments": _("tournaments"),
}
# JSON types and where a parameter goes, as the page names them.
TYPES = {
    "string": pgettext_lazy("JSON type", "string"),
    "integer": pgettext_lazy("JSON type", "integer"),
    "number": pgettext_lazy("JSON type", "number"),
    "boolean": pgettext_lazy("JSON type", "boolean"),
    "array": pgettext_lazy("JSON type", "array"),
    "object": pgettext_lazy("JSON type", "object"),
}
PLACES = {"query": _("query string"), "path": _("path"), "header": _("header")}


def words(text: Any) -> SafeString:
    """A description as HTML: what it quotes in `backticks` (a field, a code, a value) is shown as code, and each
    line (a choice's «* `code` - label») on its own line."""
    parts = escape(str(text or "")).split("`")
    html = "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))
    return mark_safe("<br>".join(line for line in html.splitlines() if line.strip()))  # noqa: S308


def _resolve(schema: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref") if isinstance(schema, dict) else None
    if ref:
        return components.get(ref.rsplit("/", 1)[-1], {})
    return schema or {}


def _fields(schema: dict[str, Any], components: dict[str, Any]) -> list[dict[str, Any]]:
    schema = _resolve(schema, components)
    if schema.get("type") == "array":
        schema = _resolve(schema.get("items", {}), components)
    required = set(schema.get("required", []))
    out = []
    for name, prop in (schema.get("properties") or {}).items():
        prop = _resolve(prop, components) if "$ref" in prop else prop
        if len(prop.get("allOf", ())) == 1:  # a choice: its values live in a component
            prop = {
                **_resolve(prop["allOf"][0], components),
                **{k: v for k, v in prop.items() if k != "allOf"},
            }
        kind = prop.get("type") or ("object" if "allOf" in prop or "$ref" in prop else "")
        if "enum" in prop:
            kind = " | ".join(str(v) for v in prop["enum"] if v not in ("", None))
        out.append(
            {
                "name": name,
                "type": TYPES.get(kind, kind),
                "required": name in required,
                "read_only": prop.get("readOnly", False),
                "description": words(prop.get("description")),
            }
        )
    return out


def endpoints(schema: dict[str, Any]) -> list[dict[str, Any]]:
    components = schema.get("components", {}).get("schemas", {})
    groups: dict[str, list[dict[str, Any]]] = {}
    for path, item in schema.get("paths", {}).items():
        for method in METHODS:
            op = item.get(method)
            if not op:
                continue
            body = (op.get("requestBody") or {}).get("content", {}).get("application/json", {}).get("schema")
            ok = next((c for c in op.get("responses", {}) if c.startswith("2")), "")
            ok_schema = (
                op.get("responses", {}).get(ok, {}).get("content", {}).get("application/json", {})
            ).get("schema")
            groups.setdefault((op.get("tags") or ["api"])[0], []).append(
                {
                    "method": method.upper(),
                    "path": path,
                    "summary": words(op.get("summary")),
                    "description": words(op.get("description")),
                    "parameters": [
                        {**p, "in": PLACES.get(p["in"], p["in"]), "description": words(p.get("description"))}
                        for p in op.get("parameters", [])
                    ],
                    "body": _fields(body, components) if body else [],
                    "responses": sorted(op.get("responses", {})),
                    "answer": _fields(ok_schema, components) if ok_schema else [],
                    "security": [next(iter(s), "") for s in op.get("security", []) if s],
                }
            )
    return [
        {"tag": tag, "slug": tag.replace(" ", "-"), "label": TAGS.get(tag, tag), "operations": ops}
        for tag, ops in sorted(groups.items())
    ]


def docs(request: HttpRequest) -> HttpResponse:
    """The page in the reader's language: every description is a lazy translation, resolved here."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    info = {**schema.get("info", {}), "title": TITLE, "description": DESCRIPTION}
    return render(request, "api/docs.html", {"schema": schema, "info": info, "groups": endpoints(schema)})


class SchemaView(SpectacularAPIView):
    """The OpenAPI schema for programs: in English whatever the client's language, so that generated clients
    and diffs do not change with Accept-Language; ``?lang=ru`` asks for the Russian descriptions."""

    @extend_schema(exclude=True)
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        with translation.override("en"):
            return super().get(request, *args, **kwargs)  # type: ignore[no-any-return]
