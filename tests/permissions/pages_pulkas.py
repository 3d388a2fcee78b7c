"""Who may open the pages of events played in pulkas: the players' sheet by table code, the director's pages and
the public results (the world's pulka event is the demo compensation event, published provisionally)."""

from __future__ import annotations

from typing import Any

from tests.permissions.page import Page, director_writes, garbage
from tests.permissions.world import DIRECTOR_ONLY, IN_PLAY, RESULTS, TABLE, World


def event(w: World, **extra: Any) -> dict[str, Any]:
    return {"slug": w.pulka_slug, **extra}


def pulka_code(w: World) -> dict[str, Any]:
    return {"code": w.pulka_code}


PAGES: dict[str, Page] = {
    # The sheet: anyone with the code sees the page; the rows only players of the table, directors, or anyone
    # once published and the round has ended (visibility); writes need number + PIN
    # (tests/pulkas/test_table_page.py). The world's table plays in the running round 2.
    "table:pulka": Page(TABLE, "GP", kwargs=pulka_code, post=garbage),
    "table:pulka_preview": Page(IN_PLAY, kwargs=pulka_code),
    "table:pulka_pdf": Page(IN_PLAY, kwargs=pulka_code),
    "director:pulka_rounds": Page(DIRECTOR_ONLY, kwargs=event),
    "director:pulka_draw": Page(DIRECTOR_ONLY, "P", kwargs=event, post=garbage),
    "director:pulka_round_action": director_writes(
        lambda w: event(w, number=2),
        lambda w: {"action": "stop", "status": "running", "reason": "Время тура вышло"},
        methods="P",
    ),
    "director:pulka_table": Page(
        DIRECTOR_ONLY, "GP", kwargs=lambda w: event(w, number=2, table=1), post=garbage
    ),
    "director:pulka_tie": Page(
        DIRECTOR_ONLY, "P", kwargs=lambda w: event(w, number=1, table=1), post=garbage
    ),
    "director:pulka_olympic_decision": Page(
        DIRECTOR_ONLY, "P", kwargs=lambda w: {"slug": w.olympic_slug}, post=garbage
    ),
    "director:pulka_settings": Page(DIRECTOR_ONLY, "GP", kwargs=event, post=garbage),
    "director:pulka_standings": Page(DIRECTOR_ONLY, kwargs=event),
    "results:pulka-standings": Page(RESULTS, kwargs=event),
    "results:pulka-bracket": Page(RESULTS, kwargs=lambda w: {"slug": w.olympic_slug}),
    "results:pulka-round": Page(RESULTS, kwargs=lambda w: event(w, number=1)),
    "results:pulka-player": Page(RESULTS, kwargs=lambda w: event(w, number=1)),
}
