"""The pages the seeding ratings changed (issue 28), in Chromium, in Russian, on a phone (390 px) and a desktop
(1366 px): a person's form and page, the register's import preview, the participants list, its import preview and a
participant's form, the pulka rounds page with «Рассадить первый тур по рейтингу». Nothing scrolls sideways, no
English on the Russian page."""

from __future__ import annotations

import datetime as dt
import os
from decimal import Decimal
from pathlib import Path

import pytest
from django.urls import reverse

from players.models import Person
from tests.e2e.conftest import login, overflowing, screenshot
from tests.html import english_phrases
from tests.pulkas.factory import pulka_event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("SHOTS_DIR")
SIZES = {"phone": (390, 844), "desktop": (1366, 900)}
NOW = dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC)
LIST = (
    "№;Фамилия Имя Отчество;Город;Клуб;Рейтинг клуба\n"
    "1;Григорьева Наталья Сергеевна;Сочи;Спартак;1800\n"
    "2;Борисова Анна;Сочи;Спартак;1720,5\n"
    "3;Дмитриев Олег;Адлер;Динамо;1650\n"
    "4;Алексеев Пётр;Адлер;;\n"
).encode()


def shot(pg, name: str) -> None:  # type: ignore[no-untyped-def]
    screenshot(pg, name)
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def test_the_rating_pages_fit_a_phone_and_a_desktop_in_russian(browser, live_server, director, tmp_path):
    director.is_staff = True  # the register's editor too
    director.save(update_fields=["is_staff"])
    person = Person.objects.create(
        name="Иванов Иван",
        club="Спартак",
        city="Сочи",
        federation_id="F-1",
        declared_rating=Decimal("1650.5"),
        declared_rating_source="ФСП, рейтинг-лист на 01.12.2026",
    )
    t = pulka_event(director, "compensation", 1, 3, name="Новый клуб", persons=[person], now=NOW)
    upload = tmp_path / "список.csv"
    upload.write_bytes(LIST)
    for size, (width, height) in SIZES.items():
        context = browser.new_context(
            base_url=live_server.url,
            locale="ru-RU",
            viewport={"width": width, "height": height},
            is_mobile=size == "phone",
            has_touch=size == "phone",
        )
        pg = context.new_page()
        pg.set_default_timeout(20000)
        login(pg, "director", "pw-director-1")
        pages = {
            "person-form": reverse("players:register_person", args=[person.pk]),
            "person-page": reverse("players:person", args=[person.pk]),
            "participants": reverse("director:participants", args=[t.slug]),
            "participant-form": reverse("director:participant", args=[t.slug, 1]),
            "rounds": reverse("director:pulka_rounds", args=[t.slug]),
        }
        if (
            size == "phone"
        ):  # the participant's own rating, typed on his form, shows under his name on a phone
            pg.goto(pages["participant-form"])
            pg.fill("input[name=declared_rating]", "1650,5")
            pg.click("main form button[type=submit]:not([name=delete])")
            pg.wait_for_url(lambda url: url.rstrip("/").endswith("/participants"))
        for name, url in pages.items():
            pg.goto(url)
            check(pg, f"seeding-{name}-{size}", t.name)
            if name == "participants":
                assert "1650,5" in pg.locator("#participants").inner_text()
                assert pg.locator("#participants a", has_text="изменить").first.is_visible()
                box, link = (
                    pg.locator("#participants").bounding_box(),
                    pg.locator("#participants a").first.bounding_box(),
                )
                assert (
                    box and link and link["x"] + link["width"] <= box["x"] + box["width"] + 1
                )  # not scrolled away
        pg.goto(reverse("players:register_import"))
        pg.set_input_files("#import-upload input[type=file]", str(upload))
        pg.click("#import-upload button[type=submit]")
        pg.wait_for_selector("#import-preview")
        assert "1720,50" in pg.locator("#import-preview").inner_text()
        check(pg, f"seeding-register-import-{size}", t.name)
        pg.goto(reverse("director:participants_import", args=[t.slug]))
        pg.set_input_files("input[type=file]", str(upload))
        pg.click("main form[enctype] button[type=submit]")
        pg.wait_for_selector("#preview")
        assert "Рейтинг федерации или клуба" in pg.locator("#columns").inner_text()
        check(pg, f"seeding-participants-import-{size}", t.name)
        context.close()


def check(pg, name: str, *data: str) -> None:  # type: ignore[no-untyped-def]
    shot(pg, name)
    assert overflowing(pg) == [], name
    text = pg.locator("main").inner_text()
    assert english_phrases(text, *data, "Excel (.xlsx)") == [], name
