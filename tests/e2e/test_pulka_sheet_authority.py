"""The pages issue 28 changed for who may change a pulka sheet, the time limit and breaks in the dealing order: the
director's table sheet and the players' phone page, at 390 and 1366 px, in Russian, nothing wider than the screen.
Screenshots in test-artifacts/ (look at them)."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.e2e.conftest import login as log_in
from tests.e2e.conftest import overflowing, screenshot

pytestmark = pytest.mark.django_db(transaction=True)

ENGLISH = ("time limit", "Deal not written", "Extend", "dealt out of turn", "waits for")


def test_time_limit_and_breaks_in_the_order_on_both_pages(browser, live_server, django_user_model):
    from django.utils import timezone

    from pulkas.services import rounds, sheet
    from tests.pulkas.factory import pulka_event
    from tests.pulkas.test_sheet_authority import six

    director = django_user_model.objects.create_user("vera", password="pw-vera-12345")
    t = pulka_event(director, "compensation", 3, 3, pool=10)
    now = timezone.now()
    r = rounds.draw_round(tournament=t, user=director, now=now, seed=5)
    rounds.start_round(pulka_round=r, user=director, now=now)
    table = r.tables.get()
    setup = sheet.load_sheet(table).setup
    sheet.enter_deal(
        table=table,
        row={
            "not_written": True,
            "extra_entries": [{"type": "mountain", "seat": setup.dealer(1), "amount": 5}],
        },
        user=director,
        now=now,
        reason="3.2.17",
    )
    first, seats = setup.first_hand(3), ("N", "E", "S")
    i = seats.index(first)
    row = {**six(first, 6, (seats[(i + 1) % 3], seats[(i + 2) % 3])), "dealt_by": setup.dealer(3)}
    sheet.enter_deal(table=table, row=row, user=director, now=now)
    # the round's limit passed a minute ago, and the deal in progress then has been written
    r.ends_at = now - dt.timedelta(minutes=1)
    r.save(update_fields=["ends_at"])
    table.refresh_from_db()
    nxt = sheet.load_sheet(table).score().next_deal
    assert nxt is not None
    f = nxt.first_hand
    j = seats.index(f)
    players = table.seats()
    sheet.enter_deal(
        table=table,
        row=six(f, 6, (seats[(j + 1) % 3], seats[(j + 2) % 3])),
        participant=players[nxt.first_hand],
        confirmations=[p for s, p in players.items() if s != nxt.first_hand],
        now=timezone.now(),
    )
    for width in (390, 1366):
        context = browser.new_context(
            base_url=live_server.url, locale="ru-RU", viewport={"width": width, "height": 900}
        )
        pg = context.new_page()
        pg.set_default_timeout(15000)
        pg.goto(f"/pulka/{table.code}/")
        p = players["N"]
        pg.select_option("select[name=number]", str(p.number))
        pg.fill("input[name=pin]", p.pin)
        pg.click("button[value=show]")
        pg.wait_for_load_state()
        text = pg.inner_text("body")
        assert "Новые сдачи — только после того, как судья продлит время" in text
        assert "Сдача не записана" in text
        assert not [w for w in ENGLISH if w in text]
        assert overflowing(pg) == [], overflowing(pg)
        screenshot(pg, f"pulka-authority-phone-{width}")
        log_in(pg, "vera", "pw-vera-12345")
        pg.goto(f"/director/{t.slug}/pulka/r1/t1/")
        text = pg.inner_text("body")
        assert "Лимит времени истёк" in text and "Продлить время" in text and "сдавал" in text
        assert not [w for w in ENGLISH if w in text]
        if width == 390:
            assert overflowing(pg) == [] or all("table#" in b for b in overflowing(pg)), overflowing(pg)
        screenshot(pg, f"pulka-authority-director-{width}")
        context.close()
