"""Issue 17: from the dashboard's alert to a settled dispute in two clicks, in a real browser (desktop and phone)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import login as log_in
from tests.e2e.conftest import screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
REASON = "W взял 3 взятки, а не 2"


def dispute_at_the_table() -> None:
    """N enters board 1 on the table's page and S disputes it there (the players' channel, no browser needed)."""
    from django.test import Client
    from django.urls import reverse

    from tests.table.factory import pin_of

    url = reverse("table:entry", kwargs={"code": "TAB1TT"})
    row = {
        "board": 1,
        "key": "e2e-dispute",
        "contract": "6S",
        "declarer": "E",
        "t1": "6",
        "t2": "2",
        "call1": "whist",
        "call2": "whist",
        "play": "closed",
    }
    client = Client()
    client.post(url, {**row, "action": "save", "number": 1, "pin": pin_of(1)})
    client.post(url, {"board": 1, "number": 3, "pin": pin_of(3), "action": "dispute", "reason": REASON})


@pytest.mark.parametrize("width", [1280, 360])
def test_alert_show_accept_is_two_clicks(browser, live_server, django_user_model, width):
    from scoring.models import Result
    from tests.table.factory import make_event
    from tournaments.models import AuditEntry

    director = django_user_model.objects.create_user("dora", password="pw-dora-12345")
    make_event(director=director)
    dispute_at_the_table()
    assert Result.objects.get().status == Result.Status.DISPUTED

    context = browser.new_context(
        base_url=live_server.url, locale="ru-RU", viewport={"width": width, "height": 800}
    )
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        log_in(page, "dora", "pw-dora-12345")
        page.goto("/director/tt/")
        alert = page.locator(".alert-error")
        assert REASON in alert.inner_text() and "S — 3. Player 3" in alert.inner_text()
        screenshot(page, f"dispute-dashboard-{width}")
        assert page.evaluate("document.documentElement.scrollWidth") <= width

        alert.locator("a").click()  # click 1: «показать»
        page.wait_for_url("**/r1/t1/#board-1")
        row = page.locator("tr#board-1")
        assert "row-disputed" in (row.get_attribute("class") or "")
        assert REASON in row.inner_text()
        background = row.locator("td").first.evaluate("td => getComputedStyle(td).backgroundColor")
        assert background == "rgb(255, 241, 194)"  # amber, not the green of a stored row
        button = row.get_by_role("button", name="Принять как записано")
        assert button.is_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing sideways on a phone
        screenshot(page, f"dispute-row-{width}")

        button.click()  # click 2: «Принять как записано»
        page.wait_for_url("**/r1/t1/?room=1#board-1")
        assert "принята как записано" in page.locator(".messages").inner_text()
        screenshot(page, f"dispute-accepted-{width}")
    finally:
        context.close()
    result = Result.objects.get()
    assert result.status == Result.Status.CONFIRMED
    entry = AuditEntry.objects.filter(action="result.confirm").latest("id")
    assert entry.user_id == director.pk and REASON in entry.reason
