"""A readable documentation page rendered on the server from the OpenAPI schema (no CDN, no JavaScript)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from drf_spectacular.generators import SchemaGenerator

METHODS = ("get", "post", "put", "patch", "delete")


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
        kind = prop.get("type") or ("object" if "allOf" in prop or "$ref" in prop else "")
        if "enum" in prop:
            kind = " | ".join(str(v) for v in prop["enum"] if v not in ("", None))
        out.append(
            {
                "name": name,
                "type": kind,
                "required": name in required,
                "read_only": prop.get("readOnly", False),
                "description": prop.get("description", ""),
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
                    "summary": op.get("summary", ""),
                    "description": op.get("description", ""),
                    "parameters": op.get("parameters", []),
                    "body": _fields(body, components) if body else [],
                    "responses": sorted(op.get("responses", {})),
                    "answer": _fields(ok_schema, components) if ok_schema else [],
                    "security": [next(iter(s), "") for s in op.get("security", []) if s],
                }
            )
    return [{"tag": tag, "operations": ops} for tag, ops in sorted(groups.items())]


def docs(request: HttpRequest) -> HttpResponse:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return render(
        request,
        "api/docs.html",
        {"schema": schema, "info": schema.get("info", {}), "groups": endpoints(schema)},
    )
