"""Who may open the pages of events played in pulkas: the players' sheet by table code, the director's pages and
the public results (the world's pulka event is the demo compensation event, published provisionally)."""

from __future__ import annotations

from typing import Any

from tests.permissions.page import Page, director_writes, garbage
from tests.permissions.world import DIRECTOR_ONLY, RESULTS, TABLE, World


def event(w: World, **extra: Any) -> dict[str, Any]:
    return {"slug": w.pulka_slug, **extra}


def pulka_code(w: World) -> dict[str, Any]:
    return {"code": w.pulka_code}


PAGES: dict[str, Page] = {
    # The sheet: anyone with the code sees the page; the rows only players of the table, directors, or anyone
    # once published; writes need number + PIN (tests/pulkas/test_table_page.py).
    "pulkas:table": Page(TABLE, "GP", kwargs=pulka_code, post=garbage),
    "pulkas:table_preview": Page(TABLE, kwargs=pulka_code),
    "pulkas:table_pdf": Page(RESULTS, kwargs=pulka_code),
    "pulkas:director_rounds": Page(DIRECTOR_ONLY, kwargs=event),
    "pulkas:director_draw": Page(DIRECTOR_ONLY, "P", kwargs=event, post=garbage),
    "pulkas:director_round_action": director_writes(
        lambda w: event(w, number=2), lambda w: {"action": "stop", "status": "running"}, methods="P"
    ),
    "pulkas:director_table": Page(
        DIRECTOR_ONLY, "GP", kwargs=lambda w: event(w, number=2, table=1), post=garbage
    ),
    "pulkas:director_tie": Page(
        DIRECTOR_ONLY, "P", kwargs=lambda w: event(w, number=1, table=1), post=garbage
    ),
    "pulkas:director_settings": Page(DIRECTOR_ONLY, "GP", kwargs=event, post=garbage),
    "pulkas:director_standings": Page(DIRECTOR_ONLY, kwargs=event),
    "pulkas:public-standings": Page(RESULTS, kwargs=event),
    "pulkas:public-bracket": Page(RESULTS, kwargs=lambda w: {"slug": w.olympic_slug}),
    "pulkas:public-round": Page(RESULTS, kwargs=lambda w: event(w, number=1)),
    "pulkas:public-player": Page(RESULTS, kwargs=lambda w: event(w, number=1)),
}
