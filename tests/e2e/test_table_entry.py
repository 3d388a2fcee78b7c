"""A player's phone at the table: enter a row, see the vists, have it confirmed by the others, see it locked."""

from __future__ import annotations

import pytest

from scoring.models import Result
from tests.e2e.conftest import screenshot
from tests.e2e.crawl import assert_accessible
from tests.table.factory import make_event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def pick(pg, board: int, name: str, value: str) -> None:
    pg.locator(f"#board-{board} input[name={name}][value='{value}']").locator("xpath=..").click()


def test_enter_see_vists_confirm_and_lock_on_a_phone(phone, browser, live_server, director):
    make_event(director=director)
    phone.goto("/table/TAB1TT/")
    assert "1" in phone.locator(".tb-head h1").inner_text()  # table 1's page: its set, boards 1 to 4
    assert [phone.locator("details.tb-board").nth(i).get_attribute("id") for i in range(4)] == [
        "board-1",
        "board-2",
        "board-3",
        "board-4",
    ]
    assert phone.locator("details.tb-board").count() == 4
    screenshot(phone, "table-entry-empty")
    assert_accessible(phone)

    # Board 1 (dealer N): E plays 6♠, S and W whist, closed; E takes 6, S 2 → W's 2 follows.
    pick(phone, 1, "contract", "6S")
    pick(phone, 1, "declarer", "E")
    pick(phone, 1, "call1", "whist")
    pick(phone, 1, "call2", "whist")
    phone.fill("#board-1 input[name=t1]", "6")
    phone.fill("#board-1 input[name=t2]", "2")
    assert phone.input_value("#board-1 input[name=t3]") == "2"
    assert phone.get_attribute("#board-1 input[name=t3]", "tabindex") == "-1"  # computed: no tab stop
    phone.wait_for_selector("#board-1 .tb-preview table.tb-vists")
    assert phone.locator("#board-1 .tb-preview tr").count() == 4
    assert phone.locator("#board-1 [data-role=save]").is_visible()
    screenshot(phone, "table-entry-preview")
    assert_accessible(phone)

    # A refused row: the dealer cannot whist beside a defender's whist — the core's reason is shown.
    phone.locator("#board-1 input[name=dealer_whist]").check()
    phone.wait_for_selector("#board-1 .tb-preview .tb-alert-error")
    assert not phone.locator("#board-1 [data-role=save]").is_visible()
    screenshot(phone, "table-entry-refused")
    assert_accessible(phone)
    phone.locator("#board-1 input[name=dealer_whist]").uncheck()
    phone.wait_for_selector("#board-1 .tb-preview table.tb-vists")

    phone.fill("#board-1 input[name=pin]", "1001")
    phone.click("#board-1 [data-role=save]")
    phone.wait_for_selector("#board-1 .tb-badge-wait")
    assert Result.objects.get().status == "entered"
    screenshot(phone, "table-entry-saved")
    assert_accessible(phone)

    # The phone goes round the table: E, S and W confirm with their numbers and PINs.
    other = browser.new_context(
        base_url=live_server.url,
        locale="ru-RU",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    second = other.new_page()
    second.goto("/table/TAB1TT/#board-1")
    # A device that has identified nobody of this table sees the status of the row, not the row (rules §12.2.4).
    assert second.locator("#board-1 .tb-badge-wait").count() == 1
    assert second.locator("#board-1 .tb-rowtext").count() == 0
    assert second.locator("form.tb-unlock").count() == 1
    assert second.locator("#board-1 form.tb-confirm").count() == 0  # nobody confirms what he cannot read
    # E shows the rows on this phone with his number and PIN, then the phone goes round.
    unlock = second.locator("form.tb-unlock")
    unlock.locator("select[name=number]").select_option("2")
    unlock.locator("input[name=pin]").fill("1002")
    unlock.locator("button[type=submit]").click()
    second.wait_for_load_state()
    for number, pin in ((2, "1002"), (3, "1003"), (4, "1004")):
        board = second.locator("#board-1")
        if board.get_attribute("open") is None:
            board.locator("> summary").click()
        board.locator("select[name=number]").select_option(str(number))
        board.locator("input[name=pin]").fill(pin)
        board.locator("button[value=confirm]").click()
        second.wait_for_load_state()
    second.wait_for_selector("#board-1 .tb-badge-ok")
    second.locator("#board-1 > summary").click() if second.locator("#board-1").get_attribute(
        "open"
    ) is None else None
    assert second.locator("#board-1 .tb-locked").is_visible()
    assert "6♠" in second.locator("#board-1 .tb-rowtext").inner_text()  # E showed the rows here
    assert second.locator("#board-1 form.tb-confirm").count() == 0
    result = Result.objects.get()
    assert result.status == "confirmed" and result.confirmed_by == ["E", "S", "W"]
    screenshot(second, "table-entry-locked")
    other.close()


def test_the_page_works_without_javascript(browser, live_server, director):
    make_event(director=director)
    ctx = browser.new_context(
        base_url=live_server.url,
        locale="en-US",
        viewport={"width": 390, "height": 844},
        java_script_enabled=False,
    )
    pg = ctx.new_page()
    pg.goto("/table/TAB1TT/")
    pg.locator("#board-1 input[name=contract][value='6S']").check(force=True)
    pg.locator("#board-1 input[name=declarer][value='E']").check(force=True)
    pg.locator("#board-1 input[name=call1][value='whist']").check(force=True)
    pg.locator("#board-1 input[name=call2][value='pass']").check(force=True)
    pg.fill("#board-1 input[name=t1]", "6")
    pg.fill("#board-1 input[name=t2]", "4")
    pg.click("#board-1 button[value=check]")
    pg.wait_for_selector("#board-1 .tb-preview table.tb-vists", state="visible")  # the posted page has loaded
    screenshot(pg, "table-entry-nojs-checked")
    pg.fill("#board-1 input[name=pin]", "1001")
    pg.click("#board-1 button[value=save]")
    pg.wait_for_selector("#board-1 .tb-badge-wait")
    assert Result.objects.get().row["calls"] == {"S": "whist", "W": "pass"}
    ctx.close()
