"""The playing hall's projector in Chromium (issue 30, «Pages that fit»), in the states the hall lives through:
a duplicate event between rounds (the next round's seats and the standings, 32 players with long names), a pulka
event's round being played (its countdown, the standings hidden; before it, the next round not drawn yet) and an event whose play is over with official
results. Photographed at 1920×1080 (the hall's screen), 1366×768 and a 390 px phone into test-artifacts/: the type
readable from ten metres (the body text at least 3.5 % of the screen's height), no name cut, long lists paged by
themselves, nothing sideways on the phone, and axe-core finding nothing (WCAG 2.2 A/AA and best practices) in
Russian and English.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.conftest import overflowing, screenshot
from tests.publishing import end_every_round, publish_to
from tests.results.projector_events import (
    draw,
    duplicate_event,
    finish_pulka,
    play_rounds,
    pulka,
    start_pulka,
)
from tournaments.models import Publication, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE_OPTIONS = {
    "runOnly": {
        "type": "tag",
        "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
    }
}
SCREENS = {
    1920: {"width": 1920, "height": 1080},
    1366: {"width": 1366, "height": 768},
    390: {"width": 390, "height": 844},
}

# What a reader ten metres away needs, measured on the page: the body's type, the smallest text shown, the names
# cut (wider than their box), and the page's own width against the screen's.
MEASURE_JS = """() => {
  const px = el => parseFloat(getComputedStyle(el).fontSize);
  const shown = [...document.querySelectorAll('body *')].filter(el =>
    el.offsetParent !== null && [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()));
  const cut = [...document.querySelectorAll('.pj-name, h1, .pj-round, .pj-status, .pj-notice')]
    .filter(el => el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1).map(el => el.textContent);
  return {body: px(document.body), smallest: Math.min(...shown.map(px)), cut,
          scrollWidth: document.documentElement.scrollWidth, width: document.documentElement.clientWidth,
          scrollHeight: document.documentElement.scrollHeight, height: window.innerHeight};
}"""


def axe_violations(pg: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(pg, options=AXE_OPTIONS)
    return [f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}" for v in results.response["violations"]]


def open_projector(browser: Any, live_server: Any, t: Tournament, width: int, locale: str = "ru-RU") -> Any:
    ctx = browser.new_context(
        base_url=live_server.url,
        locale=locale,
        viewport=SCREENS[width],
        is_mobile=width < 500,
        has_touch=width < 500,
    )
    pg = ctx.new_page()
    pg.set_default_timeout(15000)
    assert pg.goto(f"/t/{t.slug}/projector/").status == 200
    pg.wait_for_load_state("load")
    return pg


def check_screen(pg: Any, width: int, name: str) -> dict[str, Any]:
    """Photograph the screen and check it fits and reads from afar; returns the measures."""
    screenshot(pg, f"{name}-{width}")
    m = pg.evaluate(MEASURE_JS)
    assert m["cut"] == [], m["cut"]
    assert m["scrollWidth"] <= m["width"] and overflowing(pg) == [], m  # nothing sideways, the phone too
    if width >= 1366:  # the hall's screens: everything on one screen, paged, the type ≥ 3.5 % of the height
        assert m["scrollHeight"] <= m["height"], m
        assert m["body"] >= 0.035 * SCREENS[width]["height"] and m["smallest"] >= 0.9 * m["body"] - 0.5, m
    return m


def check_axe(browser: Any, live_server: Any, t: Tournament) -> None:
    failures = []
    for locale in ("ru-RU", "en-US"):
        for width in (1920, 390):
            pg = open_projector(browser, live_server, t, width, locale)
            failures += [f"{locale} {width}: {v}" for v in axe_violations(pg)]
            pg.context.close()
    assert not failures, "\n".join(failures)


def test_duplicate_between_rounds_shows_the_next_seating_and_pages_the_standings(
    browser, live_server, django_user_model
):
    user = django_user_model.objects.create_user("hall", password="pw-hall-12345")
    t = duplicate_event(user)
    play_rounds(t, 2, user)
    publish_to(t, Publication.PROVISIONAL, user, timezone.now())
    for width in (1920, 1366, 390):
        pg = open_projector(browser, live_server, t, width)
        assert "Скоро начнётся тур 3 из" in pg.locator("#pj-round").text_content()
        assert (
            pg.locator("#pj-status").text_content() == "Предварительные результаты: они ещё могут измениться."
        )
        assert "Тур 3: кто где сидит" in pg.locator("#pj-seats-title").text_content()
        # the seats first, then the standings over the whole screen in turn, each page by page
        check_screen(pg, width, "projector-duplicate-between-seats")
        assert pg.locator("#pj-standings").is_hidden() and pg.locator(".pj-table:not([hidden])").count() >= 2
        pg.locator("#pj-standings").wait_for(state="visible", timeout=40000)
        assert pg.locator("#pj-seats").is_hidden()
        check_screen(pg, width, "projector-duplicate-between-standings")
        label = pg.locator("#pj-page").text_content()
        first = pg.evaluate("[...document.querySelectorAll('.pj-line')].filter(l => !l.hidden).length")
        assert 0 < first < 32 and label.startswith("1 / ") and int(label[4:]) >= 2, (first, label)  # 32 lines
        pg.context.close()
    check_axe(browser, live_server, t)


def test_pulka_round_running_shows_the_round_and_its_countdown(browser, live_server, django_user_model):
    user = django_user_model.objects.create_user("hall", password="pw-hall-12345")
    t = pulka(user, "compensation", players=30, per_table=4, slug="pj-comp", rounds=3)
    rng = random.Random(7)
    finish_pulka(t, start_pulka(draw(t, user), user), user, rng)
    publish_to(t, Publication.PROVISIONAL, user, timezone.now())
    pg = open_projector(browser, live_server, t, 1920)  # between rounds, round 2 not drawn yet: said so
    assert pg.locator("#pj-notice").text_content() == "Рассадки на 2-й тур ещё нет."
    assert pg.locator("#pj-round").text_content() == "Тур 1 из 3 окончен"
    pg.locator("#pj-page").wait_for(state="attached")
    check_screen(pg, 1920, "projector-pulka-not-drawn")
    pg.context.close()
    start_pulka(draw(t, user), user)
    for width in (1920, 1366, 390):
        pg = open_projector(browser, live_server, t, width)
        assert pg.locator("#pj-round").text_content() == "Идёт тур 2 из 3"
        assert pg.locator("#pj-clock-label").text_content() == "До конца тура"
        expect(pg.locator("#pj-clock")).to_have_text(
            re.compile(r"^1:59:[0-5][0-9]$")
        )  # 2 hours, counting down
        assert pg.locator("#pj-standings").count() == 0  # not compared during play (visibility)
        assert "между турами" in pg.locator("#pj-standings-note").text_content()
        check_screen(pg, width, "projector-pulka-running")
        pg.context.close()
    check_axe(browser, live_server, t)


def test_event_over_with_official_results(browser, live_server, django_user_model):
    user = django_user_model.objects.create_user("hall", password="pw-hall-12345")
    dup = end_every_round(
        duplicate_event(user, slug="pj-dup-over", tables=4, played=None), user, timezone.now()
    )
    olympic = pulka(user, "olympic", players=9, per_table=3, slug="pj-oly")
    rng = random.Random(3)
    while True:
        finish_pulka(olympic, start_pulka(draw(olympic, user), user), user, rng)
        if olympic.pulka_rounds.filter(status="ended").count() == olympic.pulka_rounds.count() and (
            olympic.pulka_rounds.order_by("-number").first().tables.count() == 1
        ):
            break
    for t in (dup, olympic):
        publish_to(t, Publication.OFFICIAL, user, timezone.now())
        for width in (1920, 390):
            pg = open_projector(browser, live_server, t, width)
            assert pg.locator("#pj-round").text_content() == "Игра окончена"
            status = pg.locator("#pj-status").text_content()
            assert status.startswith("Официальные результаты") and "Исправления — до" in status
            assert pg.locator(".pj-line").count() == t.participants.count()
            check_screen(pg, width, f"projector-over-official-{t.form}")
            pg.context.close()
        check_axe(browser, live_server, t)
