"""Every URL pattern of the project, as the permission tables key them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver


def walk(patterns: list[Any], prefix: str = "", namespace: str = "") -> Iterator[tuple[str, str, Any]]:
    """Every URL pattern, included ones too: (full route, "namespace:name" or "", the pattern)."""
    for p in patterns:
        if isinstance(p, URLResolver):
            ns = ":".join(x for x in (namespace, p.namespace or "") if x)
            yield from walk(p.url_patterns, prefix + str(p.pattern), ns)
        else:
            assert isinstance(p, URLPattern)
            name = f"{namespace}:{p.name}" if namespace and p.name else (p.name or "")
            yield prefix + str(p.pattern), name, p


def key_of(route: str, name: str) -> str:
    return name or route


def project_patterns() -> dict[str, str]:
    """key → route of every URL pattern of the project."""
    return {key_of(route, name): route for route, name, _p in walk(get_resolver().url_patterns)}


def is_api(route: str) -> bool:
    return route.startswith("api/")


def methods_of(pattern: Any) -> tuple[str, ...]:
    """The HTTP methods a pattern's view answers: a DRF viewset route's actions, a class view's handlers, GET for
    a plain function; never OPTIONS or HEAD, which every view answers as it answers GET (DRF adds HEAD to a
    viewset's actions once it has served a request)."""
    callback = pattern.callback
    actions = getattr(callback, "actions", None)
    view_class = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
    if actions:
        names = list(actions)
    elif view_class is not None:
        names = [m for m in view_class.http_method_names if hasattr(view_class, m)]
    else:
        names = ["get"]
    return tuple(sorted(m.upper() for m in names if m not in ("options", "head")))


def api_operations() -> set[str]:
    """«METHOD api:name» for every route and method of the REST API."""
    return {
        f"{method} {name}"
        for route, name, p in walk(get_resolver().url_patterns)
        if is_api(route)
        for method in methods_of(p)
    }
