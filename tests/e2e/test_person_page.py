"""A person's page in a real browser on a phone (360 px) and a desktop (1280 px): every published event with its
result, master points, the rating chart and the statistics, nothing wider than the screen (issue 20, «Browser
test of a person's page on phone and desktop»)."""

from __future__ import annotations

import copy
import datetime as dt
import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from events.bundles import import_bundle
from players.models import MasterPointAward, Person, RatingEntry
from tests.e2e.conftest import overflowing, screenshot
from tests.publishing import end_every_round, publish_to
from tournaments.models import Participant, Publication

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SMALL = json.loads((Path(__file__).parents[1] / "data" / "small_bundle.json").read_text(encoding="utf-8"))
RATINGS = [("1500", "1512"), ("1512", "3013/2"), ("3013/2", "1530"), ("1530", "1530")]


def _season() -> Person:
    director = get_user_model().objects.create_user("season-director", password="season-pass-12345")
    person = Person.objects.create(
        name="Константинопольская Александра Владиславовна",
        club="Клуб «Белая дама»",
        city="Санкт-Петербург",
        federation_id="RUS-000123",
    )
    names = [
        "Кубок клуба",
        "Открытый чемпионат Санкт-Петербурга по спортивному преферансу",
        "Зимний турнир",
        "Черновик",
    ]
    for k, (name, (before, after)) in enumerate(zip(names, RATINGS, strict=True)):
        bundle = copy.deepcopy(SMALL)
        bundle["tournament"]["name"] = name
        now = timezone.now()
        t = import_bundle(
            data=bundle, slug=f"e{k}", now=now, user=director, starts_on=dt.date(2026, 1 + k, 10)
        )
        end_every_round(t, director, now)
        publish_to(t, Publication.DRAFT if name == "Черновик" else Publication.FINAL, director, now)
        p = Participant.objects.get(tournament=t, number=k + 1)
        p.person = person
        p.save(update_fields=["person"])
        MasterPointAward.objects.create(
            person=person,
            tournament=t,
            participant=p,
            points=f"{k + 1}/2",
            place="1",
            scheme="test",
            computed_at=timezone.now(),
        )
        RatingEntry.objects.create(
            person=person,
            tournament=t,
            before=before,
            after=after,
            played_on=t.starts_on,
            computed_at=timezone.now(),
        )
    return person


@pytest.mark.parametrize("width", [360, 1280])
def test_person_page_on_phone_and_desktop(browser, live_server, width: int) -> None:
    person = _season()
    context = browser.new_context(
        base_url=live_server.url, locale="ru-RU", viewport={"width": width, "height": 800}
    )
    page = context.new_page()
    page.goto(f"/players/{person.pk}/")
    assert page.locator("html").get_attribute("lang") == "ru"
    assert page.locator("h1").inner_text() == person.name
    assert page.locator("table#person-events tbody tr").count() == 3  # the unpublished event is absent
    assert page.locator("[data-total=master-points]").inner_text() == "3"  # 1/2 + 1 + 3/2
    chart = "svg.chart-rating-phone" if width < 700 else "svg.chart-rating"
    assert page.locator(chart).is_visible()
    assert (
        page.locator("table#person-declarer").is_visible()
        and page.locator("table#person-defence").is_visible()
    )
    assert overflowing(page) == [], width
    screenshot(page, f"person-page-{width}")
    # The event's link opens the personal card, which links back to the person.
    page.locator("table#person-events tbody tr >> nth=0 >> a").click()
    page.wait_for_url("**/t/e2/players/3/")
    page.locator(f"a[data-person='{person.pk}']").click()
    page.wait_for_url(f"**/players/{person.pk}/")
    context.close()
