"""Every results page fits the screen: no table and no page wider than the viewport, on a 360 px phone and on a
1366 px laptop, for a 13-player event on four-player tables (book movement, one rests each round) and a
15-player event on three-player tables (screenshots in test-artifacts/).

Issue 17: «Results tables are clipped … on a phone the standings show only place, number and name.»
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from preferans.simulate import simulated_bundle
from tests.e2e.conftest import login, overflowing, screenshot
from tests.results.test_event_day_pages import imported
from tournaments.models import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

VIEWPORTS = [(360, 740), (1366, 768)]
LONG = "Константинопольский-Длиннофамильный"


def _event(slug: str, *, movement: dict[str, object], players: int, count: int, user: object) -> Tournament:
    people = [
        {"number": n, "name": f"{LONG} {n}", "club": "Спортивный клуб «Ленинградец»"}
        for n in range(1, count + 1)
    ]
    bundle = simulated_bundle(
        name=f"Кубок {slug}",
        movement=movement,
        players=players,
        deals_per_set=players,
        participants=people,
        seed=17,
    )
    return imported(bundle, slug=slug, user=user)


def _pages(slug: str) -> list[tuple[str, str]]:
    return [
        ("standings", f"/t/{slug}/standings/"),
        ("boards", f"/t/{slug}/boards/"),
        ("protocol", f"/t/{slug}/boards/1/"),
        ("player", f"/t/{slug}/players/1/"),
        ("frequencies", f"/t/{slug}/frequencies/"),
        ("director-standings", f"/director/{slug}/standings/"),
        ("director-participants", f"/director/{slug}/participants/"),
    ]


@pytest.mark.parametrize(("width", "height"), VIEWPORTS)
def test_every_results_page_fits_phone_and_laptop(browser, live_server, width, height):
    user = get_user_model().objects.create_user("dir", password="pw-director-1")
    events = [
        _event("t13", movement={"scheme": "book", "participants": 13}, players=4, count=13, user=user),
        _event("t15", movement={"scheme": "basic", "tables": 5}, players=3, count=15, user=user),
    ]
    ctx = browser.new_context(
        base_url=live_server.url, locale="ru-RU", viewport={"width": width, "height": height}
    )
    pg = ctx.new_page()
    pg.set_default_timeout(15000)
    failures = []
    try:
        login(pg, "dir", "pw-director-1")  # a director sees the public pages and his own
        for t in events:
            for name, url in _pages(t.slug):
                response = pg.goto(url)
                assert response is not None and response.status == 200, url
                screenshot(pg, f"results-{t.slug}-{name}-{width}")
                bad = overflowing(pg)
                if bad:
                    failures.append(f"{url} at {width} px: {bad}")
    finally:
        ctx.close()
    assert not failures, "\n".join(failures)


def test_projector_fills_a_full_hd_screen_without_login(browser, live_server):
    user = get_user_model().objects.create_user("dir", password="pw-director-1")
    t = _event("t13", movement={"scheme": "book", "participants": 13}, players=4, count=13, user=user)
    ctx = browser.new_context(
        base_url=live_server.url, locale="ru-RU", viewport={"width": 1920, "height": 1080}
    )
    pg = ctx.new_page()
    try:
        pg.goto(f"/t/{t.slug}/projector/")
        pg.wait_for_function("document.getElementById('pj-clock').textContent.includes(':')")
        screenshot(pg, "results-projector-1920")
        assert pg.locator("#pj-standings li:not([hidden])").count() >= 1
        assert pg.evaluate("document.documentElement.scrollHeight") <= 1080
        assert overflowing(pg) == []
    finally:
        ctx.close()
