"""Who may open the pages of players across events: the register (staff and directors look, staff change it), an
event's links (its directors), a person's page (public: it lists published events only), series (public tables;
directors of any event create them; the owner and superusers change them)."""

from __future__ import annotations

from tests.permissions.page import Page, director_writes, garbage, slug
from tests.permissions.world import (
    ADMIN,
    PUBLIC,
    REGISTER,
    REGISTER_EDIT,
    SERIES_NEW,
    STAFF,
    World,
)


def person(w: World) -> dict[str, int]:
    return {"pk": w.person}


def series(w: World) -> dict[str, str]:
    return {"slug": w.series_slug}


PAGES: dict[str, Page] = {
    "players:register": Page(REGISTER),
    "players:register_export": Page(REGISTER, kwargs=lambda w: {"fmt": "csv"}),
    "players:register_new": Page(REGISTER_EDIT, "GP", post=lambda w: {"name": "New"}, writes_as=STAFF),
    "players:register_person": Page(
        REGISTER_EDIT, "GP", kwargs=person, post=lambda w: {"name": "Renamed"}, writes_as=STAFF
    ),
    "players:register_merge": Page(
        REGISTER_EDIT,
        "GP",
        query="?keep={person}&drop={person}",
        post=lambda w: {"keep": w.person, "drop": w.person, "reason": "x"},
    ),
    "players:register_import": Page(REGISTER_EDIT, "GP", post=garbage),
    # the register's staff confirm or refuse proposed links (a participant that has none: a refusal in words)
    "players:register_links": Page(REGISTER_EDIT, "GP", post=lambda w: {"participant": "1", "refuse": "1"}),
    # the demo's players are linked by their federation numbers on import: undoing a link is a write
    "players:event_links": director_writes(slug, lambda w: {"participant": "1", "unlink": "1"}),
    "players:person": Page(PUBLIC, kwargs=person),
    "players:series_list": Page(PUBLIC),
    "players:series": Page(PUBLIC, kwargs=series),
    "players:series_new": Page(
        SERIES_NEW, "GP", post=lambda w: {"name": "Cup", "slug": "cup", "measure": "percent"}
    ),
    # the world's series has no owner: only superusers may change it
    "players:series_edit": Page(ADMIN, "GP", kwargs=series, post=lambda w: {"name": "Renamed"}),
    "players:series_events": Page(ADMIN, "P", kwargs=series, post=lambda w: {"remove": w.slug}),
}
