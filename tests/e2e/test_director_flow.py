"""A new director runs round 1 of an event of 20 in a real browser (Chromium, headless, started here)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import login as log_in
from tests.e2e.conftest import screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ORDER = ("N", "E", "S", "W")


def test_director_runs_round_one(page, phone, django_user_model):
    from boards.models import Board
    from scoring.models import Result, Standing
    from tournaments.models import Tournament

    # Issue 30: from the home page to a published event without typing an address — the header's login link,
    # then «Ваши турниры» where the login lands, «Новый турнир» in the header, and the tabs from there on.
    django_user_model.objects.create_user("anna", password="pw-anna-12345")
    page.goto("/")
    page.click("header a[href^='/accounts/login/']")
    page.fill("input[name=username]", "anna")
    page.fill("input[name=password]", "pw-anna-12345")
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    assert page.url.endswith("/director/")
    page.click("header a[href='/director/new/']")
    page.fill("input[name=name]", "Клубный турнир")
    page.fill("input[name=venue]", "Клуб «Пуля»")
    page.click("button[type=submit].btn")
    page.wait_for_url("**/participants/")
    t = Tournament.objects.get(name="Клубный турнир")
    assert t.minutes_per_deal == 5 and t.players_per_table == 4

    # Twenty participants from a spreadsheet export: preview, then register.
    lines = "№;ФИО;Клуб\n" + "".join(f"{n};Игрок {n};Клуб {n % 3}\n" for n in range(1, 21))
    page.set_input_files(
        "input[name=file]",
        files=[{"name": "players.csv", "mimeType": "text/csv", "buffer": lines.encode("utf-8")}],
    )
    page.click("form[enctype] button[type=submit]")
    expect(page.locator("#preview tbody tr")).to_have_count(20)
    page.click("button[name=confirm]")
    page.wait_for_url("**/participants/")
    assert t.participants.count() == 20

    # The movement: the planner's suggestion is the basic movement on 5 tables.
    page.click(".d-tabs a[href$='/movement/']")
    assert "5" in page.locator(".suggestion").inner_text()
    page.check("input[name=scheme][value=basic]")
    page.fill("input[name=tables]", "5")
    page.click("form.dform button[type=submit]")
    page.wait_for_url("**/seating/")
    assert page.locator(".codechip").count() == 5

    # Round 1.
    page.click(".d-tabs a >> nth=0")
    page.click(".d-next button[type=submit]")  # Start round 1
    expect(page.locator(".countdown")).to_have_count(1)
    page.wait_for_function("document.querySelector('.countdown').textContent.includes(':')")
    assert page.locator(".tcard").count() == 5

    # Enter the four boards of table 1 from its protocols.
    page.click(".tcard[data-table='1'] .tcard-foot a")
    session = t.sessions.get(number=1)
    set_number = session.seatings.get(round_number=1, table_number=1).set_number
    boards = list(Board.objects.filter(session=session, set_number=set_number).order_by("number"))
    page.click("#table-results tbody tr:first-child a.btn")
    for board in boards:
        page.wait_for_url(f"**/b{board.number}/**")
        declarer = next(s for s in ORDER if s != board.dealer)
        page.select_option("#row-form select[name=contract]", "6S")
        page.select_option("#row-form select[name=declarer_seat]", declarer)
        page.select_option("#row-form select[name=declarer_tricks]", "6")
        page.select_option("#row-form select[name=w1_tricks]", "2")
        page.select_option("#row-form select[name=w2_tricks]", "2")
        page.select_option("#row-form select[name=call1]", "whist")
        page.select_option("#row-form select[name=call2]", "whist")
        page.click("#row-form button[type=submit]")
    page.wait_for_url("**/t1/**")
    assert page.locator("#table-results tr.row-missing").count() == 0
    assert Result.objects.filter(session=session, round_number=1, table_number=1).count() == 4

    page.click(".d-tabs a >> nth=0")
    assert "4" in page.locator(".d-timer").inner_text()
    assert page.locator(".tcard[data-table='1'] .b-done").count() == 4
    screenshot(page, "director-dashboard-round1")

    page.check(".d-next input[name=acknowledged]")  # tables 2–5 have no results: «I know», end it anyway
    page.click(".d-next button[type=submit]")  # End round 1 → hand-over instructions
    page.wait_for_url("**/handover/")
    assert page.locator("table.handover tbody tr").count() == 5
    screenshot(page, "director-handover")

    page.click(".d-tabs a[href$='/standings/']")
    expect(page.locator("#standings-state .dot-ok")).to_have_count(1)
    assert page.locator("#standings tbody tr").count() == 20
    assert Standing.objects.filter(tournament=t).count() == 20
    screenshot(page, "director-standings")

    # Published from the publication tab, what is open acknowledged.
    page.click(".d-tabs a[href$='/publication/']")
    page.check("input[name=acknowledged]")
    with page.expect_navigation():
        page.click("button[name=action][value=provisional]")
    t.refresh_from_db()
    assert t.publication == "provisional"

    # The same dashboard on a phone.
    log_in(phone, "anna", "pw-anna-12345")
    phone.goto(f"/director/{t.slug}/")
    assert phone.locator(".tcard").count() == 5
    screenshot(phone, "director-dashboard-phone")
