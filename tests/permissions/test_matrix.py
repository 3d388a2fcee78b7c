"""The matrix itself: every URL pattern has a decision, and every role gets what the decision says.

An allowed role gets a page (200, a 302 that is not to a login page, or 400 for a refused form), a refused
role gets 403, 404 or a redirect to a login page — never the page, never a server error — and a refused POST
changes nothing in the database (the package docstring tells the rest).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from django.db import transaction
from django.test import Client
from django.urls import get_resolver, reverse

from tests.permissions.page import Page, url_of
from tests.permissions.pages import PAGES
from tests.permissions.pages_admin import ADMIN_MODELS
from tests.permissions.resolver import api_operations, is_api, key_of, project_patterns, walk
from tests.permissions.world import (
    ADMIN,
    ALLOWED,
    PLAYER_ONLY,
    ROLES,
    World,
    client_for,
    finish,
    snapshot,
)


def test_every_url_pattern_has_a_permission_decision():
    patterns = project_patterns()
    keys = [key_of(route, name) for route, name, _p in walk(get_resolver().url_patterns) if not is_api(route)]
    shared = sorted({k for k in keys if keys.count(k) > 1})
    assert not shared, f"several URL patterns share a name, so one entry would decide for all: {shared}"
    undecided = sorted(k for k, route in patterns.items() if k not in PAGES and not is_api(route))
    assert not undecided, f"URL patterns without an entry in PAGES (decide who may open them): {undecided}"
    stale = sorted(k for k in PAGES if k not in patterns)
    assert not stale, f"PAGES names URL patterns that no longer exist: {stale}"


def test_the_admin_registrations_are_the_ones_decided():
    from django.contrib import admin

    assert sorted(m._meta.label_lower for m in admin.site._registry) == sorted(ADMIN_MODELS)


# -- what an answer may be -----------------------------------------------------------------------------------
def login_paths(w: World, access: str) -> tuple[str, ...]:
    paths = (reverse("login"), reverse("admin:login"))
    if access in (PLAYER_ONLY,):
        paths += (reverse("appeals:player", kwargs={"slug": w.slug}),)
    return paths


def redirect_target(response: Any) -> str | None:
    if response.status_code in (301, 302, 303, 307, 308):
        return urlsplit(response["Location"]).path
    return None


def allowed_answer(response: Any, method: str, logins: tuple[str, ...]) -> str | None:
    """None when the answer is the page (or a normal redirect), else what is wrong with it."""
    target = redirect_target(response)
    if target is not None:
        return f"redirected to a login page ({target})" if target in logins else None
    ok = (200,) if method == "get" else (200, 400)
    return None if response.status_code in ok else f"status {response.status_code}"


def refused_answer(response: Any, logins: tuple[str, ...], access: str) -> str | None:
    """None when the answer refuses (403, 404 or a redirect to a login page), else what is wrong with it.

    Inside the admin, staff may be redirected to another admin page (a missing object → the index, the old
    object URL → its change page): each of those checks the model permissions itself."""
    target = redirect_target(response)
    if target is not None:
        if target in logins or (access == ADMIN and target.startswith(reverse("admin:index"))):
            return None
        return f"redirected to {target}, not to a login page"
    return None if response.status_code in (403, 404) else f"status {response.status_code}"


def _access(page: Page, method: str) -> str:
    return (page.post_access or page.access) if method == "post" else page.access


def _request(w: World, key: str, page: Page, role: str, client: Client, method: str) -> str | None:
    """One request; None when the answer is the one the role should get, else what is wrong."""
    url = url_of(w, key, page)
    access = _access(page, method)
    logins = login_paths(w, access)
    response = client.post(url, page.post(w) if page.post else {}) if method == "post" else client.get(url)
    finish(response)
    if method == "get405":  # a POST-only page answers GET with 405 (or, to the refused, with the login page)
        inside = ADMIN if url.startswith(reverse("admin:index")) else access
        if response.status_code == 405 or refused_answer(response, logins, inside) is None:
            return None
        return f"GET {url} as {role}: status {response.status_code}, expected 405 (POST only)"
    if role in ALLOWED[access]:
        problem = allowed_answer(response, method, logins)
    else:
        problem = refused_answer(response, logins, access)
    return f"{method.upper()} {url} as {role} ({access}): {problem}" if problem else None


def _requests(w: World, key: str, page: Page, role: str, methods: list[str]) -> list[str]:
    """What is wrong with the answers to ``role``'s requests, one a method, from one client."""
    client = client_for(w, role)
    return [p for m in methods if (p := _request(w, key, page, role, client, m))]


# -- the matrix --------------------------------------------------------------------------------------------
@pytest.mark.django_db
@pytest.mark.parametrize("key", list(PAGES))
def test_page_permissions(world, baseline, key):
    """Every role, GET and POST as the page takes them: refused roles first (then the database must be as it
    was), then the allowed ones."""
    page = PAGES[key]
    methods = [m for m, letter in (("get", "G"), ("post", "P")) if letter in page.methods]
    if page.methods == "P":
        methods.append("get405")
    refused = [r for r in ROLES if any(r not in ALLOWED[_access(page, m)] for m in methods)]
    allowed = [r for r in ROLES if r not in refused]
    problems = []
    for role in refused:
        problems += _requests(world, key, page, role, methods)
    if "post" in methods and refused and snapshot() != baseline:
        problems.append(f"a POST by one of {refused} changed the database")
    for role in allowed:  # each in a savepoint rolled back: the next one finds what the first found
        with transaction.atomic():
            problems += _requests(world, key, page, role, methods)
            if role == page.writes_as and snapshot() == baseline:
                problems.append(f"POST as {role} changed nothing: the body does not test the refusals")
            transaction.set_rollback(True)
    assert not problems, "\n".join(problems)


def test_every_api_route_and_method_has_a_permission_decision():
    """The REST API has its own permission matrix (tests/api/test_permissions.py and test_permissions_pulka.py,
    one entry per route and method, each sending its request to that route): a new route, or a new method on
    one, fails here until the matrix decides who may call it."""
    from tests.api.test_permissions import DECIDED as DUPLICATE_AND_COMMON
    from tests.api.test_permissions_pulka import DECIDED as PULKA

    operations = api_operations()
    assert operations, "no API routes found"
    decided = DUPLICATE_AND_COMMON | PULKA
    undecided = sorted(operations - decided)
    assert not undecided, (
        f"API routes and methods without an entry in the API's permission matrix: {undecided}"
    )
    stale = sorted(decided - operations)
    assert not stale, f"the API's permission matrix decides routes or methods that no longer exist: {stale}"
