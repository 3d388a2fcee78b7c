"""The writing penalty by the Code (4.2.4, 4.2.7–4.2.10) in the browser: the correction form's rule, the deals
list that says who was warned and who paid, and the director's sheet, on a phone (390 px) and a desk (1366 px),
in Russian, nothing wider than the screen. Screenshots: test-artifacts/penalty-*.png (look at them)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.e2e.conftest import login, overflowing, screenshot
from tests.html import english_phrases

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIX = {"calls": {"E": "whist", "S": "whist"}, "play": "closed"}


def six(n: int, e: int, s: int) -> dict:
    return {"contract": "6S", "declarer": ["N", n], "w1": ["E", e], "w2": ["S", s], **SIX}


def test_correction_pages_show_who_answers(browser, live_server, director) -> None:
    from pulkas.services import rounds, sheet
    from tests.pulkas.factory import pulka_event

    t = pulka_event(director, "compensation", 3, 3, pool=30)
    now = timezone.now()
    r = rounds.draw_round(tournament=t, user=director, now=now, seed=4)
    rounds.start_round(pulka_round=r, user=director, now=now)
    table = r.tables.get()
    seats = table.seats()
    for number in (1, 2):  # E types that N made his six, N went down one: N is warned, then pays
        sheet.enter_deal(
            table=table,
            row=six(6, 2, 2),
            participant=seats["E"],
            confirmations=[seats["N"], seats["S"]],
            now=now,
        )
        sheet.correct_deal(table=table, number=number, row=six(5, 3, 2), participant=seats["S"], now=now)
        for seat in ("N", "E"):
            sheet.confirm_deal(table=table, number=number, participant=seats[seat], now=now)
    for width in (390, 1366):
        context = browser.new_context(
            base_url=live_server.url, locale="ru-RU", viewport={"width": width, "height": 900}
        )
        pg = context.new_page()
        pg.goto(f"/pulka/{table.code}/")
        pg.select_option("select[name=number]", str(seats["N"].number))
        pg.fill("form:has(button[value=show]) input[name=pin]", seats["N"].pin)
        pg.click("button[name=action][value=show]")
        pg.wait_for_load_state()
        names = [f"{p.number} {p.name}" for p in seats.values()] + [p.name for p in seats.values()]
        text = pg.inner_text("main")
        assert "предупреждение" in text and "штраф" in text.lower() and english_phrases(text, *names) == []
        pg.goto(f"/pulka/{table.code}/?correct=2#write")
        rule = pg.inner_text("#write .pk-rule")
        assert "до момента заказа следующей игры" in rule and "кому она выгодна" in rule
        assert english_phrases(pg.inner_text("main"), *names) == [] and overflowing(pg) == []
        screenshot(pg, f"penalty-table-{width}")
        login(pg, "director", "pw-director-1")
        pg.goto(f"/director/{t.slug}/pulka/r1/t{table.number}/?correct=2#correct")
        pg.wait_for_load_state()
        assert "это решение" in pg.inner_text("main") and overflowing(pg) == []
        screenshot(pg, f"penalty-director-{width}")
        pg.goto(f"/director/{t.slug}/pulka/settings/")
        assert "по договорённости организаторов" in pg.inner_text("main") and overflowing(pg) == []
        screenshot(pg, f"penalty-settings-{width}")
        context.close()
