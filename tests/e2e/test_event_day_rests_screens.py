"""The pages that show who rests, in Chromium at phone and desktop widths: the rest line is there and no table
is wider than the screen (screenshots in test-artifacts/).

Seed 004: «Буква P означает, что игрок отдыхает в этом туре» — the letter P means the player rests this round.
"""

from __future__ import annotations

import pytest
from django.utils import timezone

from duplicate.rounds import movement_choose
from tests.e2e.conftest import login, screenshot
from tournaments.models import Participant
from tournaments.services.event import tournament_create

pytestmark = pytest.mark.django_db(transaction=True)

PAGES = [
    ("seating", "/director/sochi13/s1/seating/", "p.rest-line"),
    ("dashboard", "/director/sochi13/", "p.resting"),
    ("handover", "/director/sochi13/s1/round/1/handover/", "p.rest-line.back"),
]
OVERFLOWING = (
    "[...document.querySelectorAll('.table-wrap')].filter(e => e.scrollWidth > e.clientWidth + 1).length"
)


@pytest.mark.parametrize("width", [360, 1280])
def test_rule_P_rest_lines_shown_and_seating_fits_the_screen(browser, live_server, django_user_model, width):
    d = django_user_model.objects.create_user("dir", password="pw-director-1")
    t = tournament_create(name="Кубок Сочи", user=d, slug="sochi13", players_per_table=4, now=timezone.now())
    Participant.objects.bulk_create(
        Participant(tournament=t, number=n, name=f"Иванов-Длиннофамильный {n}", pin=f"{2000 + n}")
        for n in range(1, 14)
    )
    movement_choose(
        session=t.sessions.get(number=1),
        user=d,
        spec={"scheme": "book", "participants": 13},
        now=timezone.now(),
    )
    ctx = browser.new_context(
        base_url=live_server.url, locale="ru-RU", viewport={"width": width, "height": 900}
    )
    pg = ctx.new_page()
    try:
        login(pg, "dir", "pw-director-1")
        for name, url, rest in PAGES:
            pg.goto(url)
            screenshot(pg, f"rests-{name}-{width}")
            assert pg.locator(rest).first.is_visible(), f"{name}: no rest line"
            assert (
                "№ 1 Иванов-Длиннофамильный 1 → тур 2" in pg.locator(rest).first.inner_text()
            )  # rests in round 1
            assert pg.evaluate(OVERFLOWING) == 0, f"{name} at {width} px: a table is wider than the screen"
            assert pg.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        ctx.close()
