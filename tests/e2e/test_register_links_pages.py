"""Issue 29: the register staff's «Proposed links» page and the event's register page (a proposal awaiting the
staff, the deciding series) at a phone's and a desktop's width: nothing cut off or scrolling sideways."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from players.models import Series, SeriesEvent
from players.services.register import link_event, person_save
from tests.e2e.conftest import login, overflowing, screenshot
from tournaments.models import Participant, Tournament

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("width", [390, 1366])
def test_proposed_links_and_the_event_page(page, width):
    users = get_user_model().objects
    keeper = users.create_user("keeper", password="pw-keeper-1", is_staff=True)
    director = users.create_user("boss", password="pw-boss-1")
    victim = person_save(
        person=None,
        name="Константинопольский Александр",
        club="Спартак",
        city="Санкт-Петербург",
        federation_id="ФСП-000123456",
        user=keeper,
    )
    t = Tournament.objects.create(
        name="Открытый кубок клуба «Пуля» 2026", slug="cup", starts_on=dt.date(2026, 3, 1)
    )
    t.directors.add(director)
    for n, (name, fed) in enumerate(
        [("Константинопольский Александр", victim.federation_id), ("Иванов", "")], 1
    ):
        Participant.objects.create(tournament=t, number=n, name=name, club="Спартак", federation_id=fed)
    link_event(t, now=timezone.now(), user=director)
    for slug, name in (("a", "Зимний сезон клубов Сочи"), ("b", "Кубок федерации, этапы")):
        SeriesEvent.objects.create(
            series=Series.objects.create(name=name, slug=slug, owner=director), tournament=t
        )
    page.set_viewport_size({"width": width, "height": 900})
    login(page, "keeper", "pw-keeper-1")
    page.goto("/players/register/links/")
    assert page.locator("#proposed-links .card").count() == 1
    screenshot(page, f"register-links-{width}")
    assert overflowing(page) == []
    page.goto("/players/register/")
    assert page.locator("#register-links").count() == 1
    screenshot(page, f"register-list-{width}")
    assert overflowing(page) == []
    page.context.clear_cookies()
    login(page, "boss", "pw-boss-1")
    page.goto("/players/event/cup/")
    assert page.locator(".awaiting").count() == 1 and page.locator("#no-deciding-series").count() == 1
    screenshot(page, f"register-event-{width}")
    assert overflowing(page) == []
