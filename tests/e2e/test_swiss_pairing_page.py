"""The director's rounds page of a Swiss event after a Swiss draw, in a browser at a desk (1366 px) and on a phone
(390 px): the round's repeated meetings and displacement in Russian words, nothing wider than the screen.
Screenshots go to test-artifacts/ (swiss-pairing-*.png)."""

from __future__ import annotations

import random

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.e2e.conftest import login, overflowing, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1366, 390])
def test_the_rounds_page_says_the_repeats_in_words(browser, live_server, django_user_model, width) -> None:
    from pulkas.services import rounds
    from tests.pulkas.factory import play_to_the_end, pulka_event

    director = django_user_model.objects.create_user("swissdir", password="pw-swiss-1")
    t = pulka_event(director, "swiss", 12, 3, pool=4, rounds=3)
    now = timezone.now()
    first = rounds.draw_round(tournament=t, user=director, now=now, seed=1)
    play_to_the_end(t, director, first, random.Random(3), deals=3)
    second = rounds.draw_round(tournament=t, user=director, now=now, seed=2)
    context = browser.new_context(
        base_url=live_server.url, locale="ru-RU", viewport={"width": width, "height": 900}
    )
    pg = context.new_page()
    login(pg, "swissdir", "pw-swiss-1")
    pg.goto(f"/director/{t.slug}/pulka/?round=2")
    text = pg.inner_text("#round-pairing")
    assert f"Повторных встреч: {second.repeats} (меньше нельзя)" in text
    assert f"смещение от порядка рейтинга: {second.displacement}" in text
    assert "Рассадка по швейцарской системе" in pg.inner_text("main")
    assert overflowing(pg) == []
    screenshot(pg, f"swiss-pairing-rounds-{width}")
    # the public page of round 1 announces round 2's seating and how it was made
    pg.goto(reverse("results:pulka-round", kwargs={"slug": t.slug, "number": 1}))
    assert "По швейцарской системе: как можно меньше встреч игроков" in pg.inner_text("#seating")
    assert "рассадка по швейцарской системе" not in pg.inner_text(".round-meta")  # round 1 was drawn by lot
    assert overflowing(pg) == []
    screenshot(pg, f"swiss-pairing-public-{width}")
    context.close()
