"""The double-dummy analysis in a browser (issue 19; brief dd-records): the director starts it on a small event
(the search mocked with a precomputed analysis), sees every board analysed, and the public board page shows the
makeable table only once the session is over — at 360 and 1280 px, nothing wider than the screen."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from boards import analysis as ba
from boards.models import BoardAnalysis
from duplicate.rounds import round_start
from events.bundles import import_bundle
from tests.e2e.conftest import login, overflowing, screenshot
from tests.publishing import end_every_round, publish_to
from tests.results.conftest import three_player_bundle
from tournaments.models import Publication

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def fake_seats(given: Any) -> dict[str, dict[str, Any]]:
    out = {}
    for i, seat in enumerate(given.seats):
        tricks = {"S": 6 + i, "C": 5, "D": 4, "H": 3, "NT": 2 + i, "misere": i}
        out[seat] = tricks | {"discards": {k: ["S7", "S8"] for k in tricks}}
    return out


def test_director_analyses_and_public_sees_the_table_after_the_session(
    browser, live_server, monkeypatch
) -> None:
    monkeypatch.setattr(ba, "analyse_board", lambda given, factory, progress=None: given)
    monkeypatch.setattr(ba, "analysis_json", lambda given, result: {"seats": fake_seats(result)})
    user = get_user_model().objects.create_user("dd-director", password="dd-pass-12345")
    data = three_player_bundle()
    data["sessions"] = data["sessions"][:1]
    t = import_bundle(data=data, user=user, slug="dd-e2e", now=timezone.now())
    first = t.sessions.get().rounds.get(number=1)
    round_start(rnd=first, user=user, now=timezone.now())  # the session runs: its boards are in play
    publish_to(t, Publication.PROVISIONAL, user, timezone.now())

    director = browser.new_context(
        base_url=live_server.url, locale="ru-RU", viewport={"width": 1280, "height": 900}
    )
    page = director.new_page()
    page.set_default_timeout(15000)
    login(page, "dd-director", "dd-pass-12345")
    page.goto(f"/director/{t.slug}/s1/boards/")
    page.click("#analysis-link")
    assert "0 из 15" in page.locator("#analysis-count").inner_text()
    page.click("#analysis-start")  # without a worker a click analyses a few boards (issue 29, N11) …
    page.wait_for_selector("#analysis-count >> text=8 из 15")
    assert "осталось: 7" in page.content()
    page.click("#analysis-start")  # … and the next one goes on
    page.wait_for_selector("#analysis-count >> text=15 из 15")
    assert page.locator("#analysis-missing").count() == 0 and BoardAnalysis.objects.count() == 15
    screenshot(page, "dd-analysis-done")

    visitor = browser.new_context(base_url=live_server.url, locale="ru-RU")
    public = visitor.new_page()
    public.goto(f"/t/{t.slug}/boards/2/")
    assert public.locator("#makeable-table").count() == 0  # the board is in play: no layout, no table

    end_every_round(t, user, timezone.now())  # the session is over; its results official
    publish_to(t, Publication.OFFICIAL, user, timezone.now())
    for width in (360, 1280):
        public.set_viewport_size({"width": width, "height": 800})
        public.goto(f"/t/{t.slug}/boards/2/")
        rows = public.locator("#makeable-table tbody tr")
        assert rows.count() == 3
        first = rows.nth(0).locator("td")
        assert [first.nth(i).inner_text() for i in range(1, 7)] == ["6", "5", "4", "3", "2", "0"]
        assert "мизер" in public.locator("#board-par").inner_text()
        assert overflowing(public) == []
        public.locator("#makeable").scroll_into_view_if_needed()
        screenshot(public, f"dd-public-board-{width}")
    visitor.close()
    director.close()
