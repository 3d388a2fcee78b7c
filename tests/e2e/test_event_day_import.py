"""Issue 17: the participants import's column mapping in a real browser, in Russian, at phone and desktop widths."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import login as log_in
from tests.e2e.conftest import screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CSV = "№;Фамилия Имя;Клуб;Номер ФСП;Разряд\n" + "".join(
    f"{n};Игроков Игорь {n};Сочи;ФСП-{100 + n};КМС\n" for n in range(1, 14)
)


@pytest.mark.parametrize("width", [360, 1280])
def test_import_preview_shows_the_mapping_and_fits_the_screen(browser, live_server, django_user_model, width):
    from django.utils import timezone

    from tournaments.services.event import tournament_create

    user = django_user_model.objects.create_user("anna", password="pw-anna-12345")
    t = tournament_create(name="Сочи, осень", user=user, slug="sochi", now=timezone.now())
    context = browser.new_context(
        base_url=live_server.url, locale="ru-RU", viewport={"width": width, "height": 900}
    )
    page = context.new_page()
    page.set_default_timeout(15000)
    log_in(page, "anna", "pw-anna-12345")
    page.goto(f"/director/{t.slug}/participants/import/")
    page.set_input_files(
        "input[name=file]",
        files=[{"name": "список.csv", "mimeType": "text/csv", "buffer": CSV.encode("cp1251")}],
    )
    page.click("form[enctype] button[type=submit]")
    expect(page.locator("#columns li")).to_have_count(5)
    assert "«Разряд»" in page.locator("#ignored").inner_text()
    assert page.locator("#col-3").input_value() == "federation_id"
    # Nothing on the page needs sideways scrolling (the mapping table included).
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    for table in ("#columns", "#preview"):
        box = page.locator(table).bounding_box()
        assert box is not None and box["x"] + box["width"] <= width, table
    screenshot(page, f"event-day-import-preview-{width}")
    # The director reads «Разряд» as the club and registers the list.
    page.select_option("#col-4", "club")
    page.select_option("#col-2", "")
    page.click("button[name=apply]")
    expect(page.locator("#ignored")).to_contain_text("«Клуб»")
    page.click("button[name=confirm]")
    page.wait_for_url("**/participants/")
    assert list(t.participants.order_by("number").values_list("club", "federation_id"))[:1] == [
        ("КМС", "ФСП-101")
    ]
    context.close()
