"""Speed at the table in Chromium: a row typed while the Wi-Fi is down is kept on the phone and sent once, the next
board opens with «saved» in view, and «Confirm all» takes one PIN (issue 17)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from scoring.models import Result
from tests.e2e.conftest import CHROMIUM_ARGS, screenshot  # noqa: F401  (the launcher's flags, for reference)
from tests.table.factory import make_event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("SHOTS_DIR")  # also keep the viewport shots there (the helpers look at them)


def shot(pg, name: str) -> None:  # type: ignore[no-untyped-def]
    screenshot(pg, name)
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=f"{SHOTS}/{name}.png")  # what the phone shows, without scrolling


def small_phone(browser, live_server, width: int = 360, height: int = 640):  # type: ignore[no-untyped-def]
    context = browser.new_context(
        base_url=live_server.url,
        locale="ru-RU",
        viewport={"width": width, "height": height},
        is_mobile=width < 800,
        has_touch=width < 800,
        device_scale_factor=2 if width < 800 else 1,
    )
    pg = context.new_page()
    pg.set_default_timeout(20000)
    return context, pg


def fill_board_1(pg) -> None:  # type: ignore[no-untyped-def]
    for name, value in (("contract", "6S"), ("declarer", "E"), ("call1", "whist"), ("call2", "whist")):
        pg.locator(f"#board-1 input[name={name}][value='{value}']").locator("xpath=..").click()
    pg.fill("#board-1 input[name=t1]", "6")
    pg.fill("#board-1 input[name=t2]", "2")
    pg.wait_for_selector("#board-1 .tb-preview table.tb-vists")
    pg.fill("#board-1 input[name=pin]", "1001")


def test_a_row_typed_offline_is_kept_and_sent_once(browser, live_server, director):
    make_event(director=director)
    context, pg = small_phone(browser, live_server)
    pg.goto("/table/TAB1TT/")
    fill_board_1(pg)
    shot(pg, "h1-entry-360")

    context.set_offline(True)
    pg.click("#board-1 [data-role=save]")
    queued = pg.locator("#board-1 [data-role=queued]")
    queued.wait_for(state="visible")
    assert "Нет сети: результат сохранён на телефоне" in queued.inner_text()
    queued.scroll_into_view_if_needed()
    shot(pg, "h1-offline-360")
    assert not Result.objects.exists()

    # The network is back for pages, but the hall's Wi-Fi still drops the sends: the row survives a reload.
    def drop_posts(route):  # type: ignore[no-untyped-def]
        return route.abort() if route.request.method == "POST" else route.continue_()

    context.route("**/table/TAB1TT/**", drop_posts)
    context.set_offline(False)
    pg.reload()
    pg.locator("#board-1 [data-role=queued]").wait_for(state="visible")
    assert pg.locator("#board-1 input[name=contract][value='6S']").is_checked()  # nothing lost
    assert not Result.objects.exists()

    # The send reaches the server but its answer is lost: the phone sends it again with the same key.
    lost = []

    def answer_lost(route):  # type: ignore[no-untyped-def]
        if route.request.method != "POST":
            return route.continue_()
        route.fetch(max_redirects=0)
        lost.append(1)
        return route.abort()

    context.unroute("**/table/TAB1TT/**")
    context.route("**/table/TAB1TT/**", answer_lost)
    pg.wait_for_function("() => true")  # the outbox retries every five seconds
    for _ in range(40):
        if lost:
            break
        pg.wait_for_timeout(250)
    assert lost and Result.objects.count() == 1
    context.unroute("**/table/TAB1TT/**")
    pg.wait_for_url("**saved=1**", timeout=20000)
    pg.locator("[data-role=outbox]").wait_for(state="visible")
    assert "Отправлено" in pg.locator("[data-role=outbox]").inner_text()
    assert Result.objects.count() == 1 and Result.objects.get().idempotency_key  # replayed, not stored twice
    # «saved» and the next board are in view on a 360×640 phone
    saved = pg.locator("[data-role=saved]")
    assert "Сдача 1 записана" in saved.inner_text() and saved.is_visible()
    box = saved.bounding_box()
    assert box is not None and 0 <= box["y"] < 640
    assert pg.locator("#board-2").get_attribute("open") is not None
    shot(pg, "h1-saved-next-360")
    assert pg.evaluate("() => JSON.parse(localStorage.getItem('tb-outbox') || '[]').length") == 0
    pg.reload()
    assert Result.objects.count() == 1
    context.close()


@pytest.mark.parametrize("width", [360, 1280])
def test_saved_next_board_and_confirm_all(browser, live_server, director, width):
    t, _session = make_event(director=director)
    context, pg = small_phone(browser, live_server, width, 640 if width < 800 else 900)
    pg.goto("/table/TAB1TT/")
    fill_board_1(pg)
    pg.click("#board-1 [data-role=save]")
    pg.wait_for_url("**saved=1**")
    saved = pg.locator("[data-role=saved]")
    assert saved.is_visible() and 0 <= saved.bounding_box()["y"] < (640 if width < 800 else 900)
    assert pg.locator("#board-2").get_attribute("open") is not None
    shot(pg, f"h1-saved-next-{width}")
    # the phone goes round: S chooses himself in «Confirm all», types his PIN once
    panel = pg.locator("form.tb-all")
    panel.locator("select[name=number]").select_option("3")
    panel.locator("input[name=pin]").fill("1003")
    shot(pg, f"h1-confirm-all-{width}")
    assert "Подтвердить все (1)" in panel.locator("button").inner_text()
    panel.locator("button[value=confirm_all]").click()
    pg.wait_for_load_state()
    assert Result.objects.get().confirmed_by == ["S"]
    assert pg.locator(".messages").inner_text().strip().startswith("Player 3: подтверждена сдача 1")
    scroll = pg.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    assert scroll  # nothing needs sideways scrolling
    context.close()
