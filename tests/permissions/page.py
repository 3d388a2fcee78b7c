"""One permission decision (``Page``), and the pieces the per-app tables (``pages_*``) fill URLs with."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from django.urls import reverse

from tests.permissions.world import DIRECTOR, DIRECTOR_ONLY, World

Kwargs = Callable[[World], dict[str, Any]]


@dataclasses.dataclass(frozen=True)
class Page:
    """One permission decision: who may open the page, which methods it takes, how to fill its URL."""

    access: str
    methods: str = "G"  # "G" GET only, "P" POST only, "GP" both
    kwargs: Kwargs | None = None
    query: str = ""
    post: Kwargs | None = None  # a body that would change something if let through
    post_access: str | None = None  # who may POST, when it differs from who may GET
    path: Callable[[World], str] | None = None  # for patterns without a name
    # This allowed role's POST must change the database, so that the refused roles' same POST is a real
    # attempt.
    writes_as: str = ""


def director_writes(kwargs: Kwargs | None, post: Kwargs | None = None, methods: str = "GP") -> Page:
    """A director's page whose POST (``post``, or an empty body) changes the database when he sends it."""
    return Page(DIRECTOR_ONLY, methods, kwargs=kwargs, post=post, writes_as=DIRECTOR)


def url_of(w: World, key: str, page: Page) -> str:
    if page.path is not None:
        return page.path(w)
    url = reverse(key, kwargs=page.kwargs(w) if page.kwargs else None)
    return url + page.query.format(**dataclasses.asdict(w))


# -- URL arguments and bodies ------------------------------------------------------------------------------
def slug(w: World) -> dict[str, Any]:
    return {"slug": w.slug}


def s1(w: World, **extra: Any) -> dict[str, Any]:
    """A URL of the first session."""
    return {"slug": w.slug, "session": 1, **extra}


def board(w: World) -> dict[str, Any]:
    return s1(w, board=w.round_board)


def player_1(w: World) -> dict[str, Any]:
    return {"slug": w.slug, "number": 1}


def code(w: World) -> dict[str, Any]:
    return {"code": w.code}


def garbage(w: World) -> dict[str, Any]:
    return {"garbage": "1"}


TOURNAMENT_FORM = {
    "name": "Intruder cup",
    "variant": "sochi",
    "players_per_table": 4,
    "deals_per_set": 4,
    "minutes_per_deal": 5,
    "correction_minutes": 30,
    "unequal_results": "neuberg",
    "artificial_minus": 40,
    "artificial_average": 50,
    "artificial_plus": 60,
}


def tournament_form(w: World) -> dict[str, Any]:
    return TOURNAMENT_FORM
