"""Issue 29: a participant locked after too many wrong PINs — the director sees it on the dashboard and the PIN
list, in a real browser (desktop and phone), and clears it with one click."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import login as log_in
from tests.e2e.conftest import overflowing, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def guess(number: int, times: int) -> None:
    """Wrong PINs for participant ``number`` at his table, each from an address of its own."""
    from django.test import Client
    from django.urls import reverse

    url = reverse("table:entry", kwargs={"code": "TAB1TT"})
    for i in range(times):
        Client().post(
            url, {"action": "show", "number": number, "pin": "0000"}, REMOTE_ADDR=f"10.9.{number}.{i}"
        )


@pytest.mark.parametrize(
    ("width", "where"), [(1366, "/director/tt/"), (390, "/director/tt/participants/pins/")]
)
def test_the_director_sees_a_pin_lock_and_clears_it(browser, live_server, django_user_model, width, where):
    from tests.table.factory import make_event
    from tournaments import pins
    from tournaments.models import AuditEntry

    director = django_user_model.objects.create_user("dora", password="pw-dora-12345")
    make_event(director=director)
    guess(1, pins.CEILING)
    guess(2, 3)
    context = browser.new_context(
        base_url=live_server.url, locale="ru-RU", viewport={"width": width, "height": 800}
    )
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        log_in(page, "dora", "pw-dora-12345")
        for url, name in (("/director/tt/", "dashboard"), ("/director/tt/participants/pins/", "pins")):
            page.goto(url)
            lock = page.locator(".pin-locks li")
            assert f"PIN игрока 1 заблокирован после {pins.CEILING} неверных попыток" in lock.inner_text()
            screenshot(page, f"pin-lock-{name}-{width}")
            assert not overflowing(page), overflowing(page)
        assert "Игрок 2: неверных попыток за сутки: 3" in page.locator(".pin-strikes").inner_text()
        page.goto(where)
        page.get_by_role("button", name="Снять блокировку").click()
        expect(page.locator(".pin-locks")).to_have_count(0)
        assert "Участник 1 снова может вводить PIN." in page.content()
        assert AuditEntry.objects.filter(action="participant.pin_unlock", data__number=1).exists()
    finally:
        context.close()
