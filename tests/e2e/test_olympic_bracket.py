"""The Olympic bracket the director sees before round 1 (004-II «Остальные игроки выбывают»), in a real browser
on a phone (390 px) and a laptop (1366 px): nothing wider than the screen, no English on the Russian page."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import login, overflowing, screenshot
from tests.html import english_phrases
from tests.pulkas.factory import pulka_event


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
