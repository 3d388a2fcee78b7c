"""The audit pages of a pulka event and of a duplicate event in Chromium, in Russian, on a phone and on a desktop:
every entry in words (who, what, to what), nothing cut off or scrolling sideways on the page."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.conftest import login, screenshot
from tests.tournaments.audit_events import audit_pages, played_duplicate_event, played_pulka_event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("SHOTS_DIR")
SIZES = {"phone": (390, 844), "desktop": (1366, 900)}


def shot(pg, name: str) -> None:  # type: ignore[no-untyped-def]
    screenshot(pg, name)
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


@pytest.mark.parametrize("form", ["pulka", "duplicate"])
def test_the_audit_pages_read_in_words_on_a_phone_and_a_desktop(browser, live_server, director, form):
    tournament, _who = (played_pulka_event if form == "pulka" else played_duplicate_event)(director)
    for size, (width, height) in SIZES.items():
        context = browser.new_context(
            base_url=live_server.url,
            locale="ru-RU",
            viewport={"width": width, "height": height},
            is_mobile=size == "phone",
            has_touch=size == "phone",
        )
        pg = context.new_page()
        pg.set_default_timeout(20000)
        login(pg, "director", "pw-director-1")
        for url in audit_pages(tournament):
            pg.goto(url)
            page = "director" if url.startswith("/director/") else "appeals"
            shot(pg, f"audit-{form}-{page}-{size}")
            body = pg.locator("tbody").inner_text()
            assert "Ершова" in body and ("Сдача записана" in body or "Результат записан" in body)
            assert "pulka_" not in body and "result." not in body and "(seat" not in body
            wide = pg.evaluate(
                "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1"
            )
            assert wide, f"{url} scrolls sideways at {width}px"
        context.close()
