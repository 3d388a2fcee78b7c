"""The Olympic bracket the director sees before round 1 (004-II «Остальные игроки выбывают»), in a real browser
on a phone (390 px) and a laptop (1366 px): nothing wider than the screen, no English on the Russian page."""

from __future__ import annotations

import random

import pytest
from django.utils import timezone

from pulkas.services import rounds
from tests.e2e.conftest import login, overflowing, screenshot
from tests.html import english_phrases
from tests.publishing import publish_to
from tests.pulkas.factory import play_to_the_end, pulka_event
from tournaments.models import Publication


@pytest.mark.parametrize("width", [390, 1366])
def test_the_bracket_on_the_rounds_and_settings_pages(browser, live_server, django_user_model, width) -> None:
    director = django_user_model.objects.create_user("olga", password="pw-olga-12345")
    t = pulka_event(director, "olympic", 20, 4, name="Олимпийский кубок", pool=4)
    context = browser.new_context(
        base_url=live_server.url,
        locale="ru-RU",
        viewport={"width": width, "height": 900},
        is_mobile=width < 500,
    )
    pg = context.new_page()
    pg.set_default_timeout(15000)
    login(pg, "olga", "pw-olga-12345")
    for name, path in (
        ("rounds", f"/director/{t.slug}/pulka/"),
        ("settings", f"/director/{t.slug}/pulka/settings/"),
    ):
        pg.goto(path)
        box = pg.locator("#olympic-bracket")
        assert box.is_visible()
        assert pg.locator("#olympic-bracket tr[data-flagged='1']").count() == 2
        assert overflowing(pg) == [], (name, width, overflowing(pg))
        text = pg.locator("main").inner_text()
        assert english_phrases(text, t.name) == [], english_phrases(text, t.name)
        screenshot(pg, f"olympic-bracket-{name}-{width}")
    context.close()
    english = browser.new_context(
        base_url=live_server.url, locale="en-US", viewport={"width": width, "height": 900}
    )
    pg = english.new_page()
    login(pg, "olga", "pw-olga-12345")
    pg.goto(f"/director/{t.slug}/pulka/")
    assert "the winners cannot be seated" in pg.locator("#olympic-bracket").inner_text()
    assert overflowing(pg) == []
    screenshot(pg, f"olympic-bracket-rounds-en-{width}")
    english.close()


@pytest.mark.parametrize("width", [390, 1366])
def test_a_lucky_loser_is_labelled_not_from_the_book(browser, live_server, django_user_model, width) -> None:
    """The regulation's refill option (not from the book): the public bracket labels the lucky loser so."""
    director = django_user_model.objects.create_user("oleg", password="pw-oleg-12345")
    t = pulka_event(director, "olympic", 6, 3, name="Олимпийский вечер", pool=4, olympic_refill=True)
    rng = random.Random(3)
    for _ in range(2):
        play_to_the_end(
            t, director, rounds.draw_round(tournament=t, user=director, now=timezone.now()), rng, 3
        )
    publish_to(t, Publication.PROVISIONAL, director, timezone.now())
    context = browser.new_context(
        base_url=live_server.url,
        locale="ru-RU",
        viewport={"width": width, "height": 900},
        is_mobile=width < 500,
    )
    pg = context.new_page()
    pg.goto(f"/t/{t.slug}/pulka/bracket/")
    text = pg.locator("main").inner_text()
    assert "лучший из выбывших, не по правилам" in text
    assert english_phrases(text, t.name) == [] and overflowing(pg) == []
    screenshot(pg, f"olympic-public-bracket-lucky-{width}")
    context.close()
