"""A series' master-point scheme chosen on its edit page (issue 20; docs/players/master-points.md): by place or by
percentage, the documented defaults shown, saved through ``set_series_scheme`` (the series' final events are
computed again); a scheme the rules refuse is told in words on the form and nothing changes. The book names master
points without a formula (seed 004 §9)."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction as F
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from duplicate.gaps import publication_gaps
from events.publication import publish
from players.models import MasterPointAward, Person, Series, SeriesEvent
from preferans.numbers import parse_fraction
from tests.html import english_phrases, parse, visible_text
from tests.publishing import end_every_round, publish_to
from tournaments.models import AuditEntry, Publication, Tournament

pytestmark = pytest.mark.django_db
# The demo is seeded now, its rounds running; its director ends them and publishes official results a day later.
OFFICIAL = timezone.now() + dt.timedelta(days=1)


@pytest.fixture
def owner_client(client, director):
    client.force_login(director)
    return client


@pytest.fixture
def series(director):
    return Series.objects.create(name="Клубный сезон", slug="club", owner=director)


@pytest.fixture
def final_demo(series):
    """The demo event (20 players) in the series, every participant a person, its results final."""
    call_command("seed_demo", stdout=StringIO())
    t = Tournament.objects.get(slug="demo")
    for p in t.participants.all():
        p.person = Person.objects.create(name=p.name or f"P{p.number}", federation_id=f"F{p.number}")
        p.save(update_fields=["person"])
    director = t.directors.get()
    end_every_round(
        t, director, OFFICIAL - dt.timedelta(minutes=10)
    )  # the rounds left, then official results
    publish_to(t, Publication.OFFICIAL, director, OFFICIAL)
    SeriesEvent.objects.create(series=series, tournament=t, order=1)
    publish(
        tournament=t,
        to=Publication.FINAL,
        user=None,
        now=OFFICIAL + dt.timedelta(hours=1),
        acknowledged=publication_gaps(t).token,
    )
    return t


def edit_url(series: Series) -> str:
    return reverse("players:series_edit", kwargs={"slug": series.slug})


def total(t: Tournament) -> F:
    return sum((parse_fraction(a.points) for a in MasterPointAward.objects.filter(tournament=t)), F(0))


def test_the_page_offers_both_schemes_with_their_defaults(owner_client, series):
    page = owner_client.get(edit_url(series))
    form = parse(page).one("form", id="scheme-form")
    kinds = {i.get("value"): i for i in form.find_all("input", name="mp-kind")}
    assert (
        set(kinds) == {"place", "percent"} and "checked" in kinds["place"].attrs
    )  # empty: the default, by place
    defaults = {
        "mp-first": "10",
        "mp-field": "16",
        "mp-cut": "1/4",
        "mp-per_percent": "1/5",
        "mp-above": "50",
    }
    for name, default in defaults.items():  # empty boxes, the documented default shown in each
        box = form.one("input", name=name)
        assert box.get("value") in (None, "") and box.get("placeholder") == default
    text = form.text()
    for words in ("по местам", "по проценту", "10", "16", "1/4", "1/5", "50"):
        assert words in text
    assert not english_phrases(visible_text(page), series.name)


def test_choosing_by_percentage_recomputes_the_final_events(owner_client, series, final_demo):
    assert total(final_demo) == F(75, 2)  # the default scheme over 20 players
    response = owner_client.post(
        edit_url(series),
        {"mp-kind": "percent", "mp-per_percent": "1", "mp-above": "60", "mp-first": "99"},
        follow=True,
    )
    series.refresh_from_db()
    assert series.master_points == {
        "scheme": "percent",
        "per_percent": "1",
        "above": "60",
    }  # first: not this kind
    # 65.625 % → 45/8; 63.541… % → 85/24; 60.416… % → 5/12 each of places 3-5 (docs/players/master-points.md).
    assert sorted(
        parse_fraction(a.points) for a in MasterPointAward.objects.filter(tournament=final_demo)
    ) == [F(5, 12), F(5, 12), F(5, 12), F(85, 24), F(45, 8)]
    assert AuditEntry.objects.filter(tournament=final_demo, action="master_points.recompute").exists()
    assert "пересчитаны" in visible_text(response) and "1 турнира" in visible_text(response)
    # the page shows what was saved
    form = parse(response).one("form", id="scheme-form")
    assert form.one("input", name="mp-per_percent").get("value") == "1"
    assert "checked" in form.one("input", name="mp-kind", value="percent").attrs


def test_by_place_with_a_fraction_and_back_to_the_default(owner_client, series):
    owner_client.post(
        edit_url(series), {"mp-kind": "place", "mp-first": "12,5", "mp-field": "20", "mp-cut": "1/3"}
    )
    series.refresh_from_db()
    assert series.master_points == {"scheme": "place", "first": "25/2", "field": 20, "cut": "1/3"}
    owner_client.post(edit_url(series), {"mp-kind": "place"})
    series.refresh_from_db()
    assert series.master_points == {}  # nothing given: the documented default


def test_an_explicit_table_of_places_is_kept(owner_client, series):
    Series.objects.filter(pk=series.pk).update(
        master_points={"scheme": "place", "places": ["12", "8"], "field": 20}
    )
    owner_client.post(edit_url(series), {"mp-kind": "place", "mp-field": "24"})
    series.refresh_from_db()
    assert series.master_points == {"scheme": "place", "field": 24, "places": ["12", "8"]}


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ({"mp-kind": "place", "mp-first": "-1"}, "mp-first", "«Баллы победителя»"),
        ({"mp-kind": "percent", "mp-per_percent": "0"}, "mp-per_percent", "«Баллов за каждый процент»"),
        ({"mp-kind": "place", "mp-cut": "четверть"}, "mp-cut", "«Доля участников, получающих баллы»"),
    ],
)
def test_a_refused_scheme_is_told_on_the_form_and_nothing_changes(owner_client, series, data, field, words):
    Series.objects.filter(pk=series.pk).update(master_points={"scheme": "percent", "above": "55"})
    response = owner_client.post(edit_url(series), data)
    assert response.status_code == 200
    series.refresh_from_db()
    assert series.master_points == {"scheme": "percent", "above": "55"}
    box = parse(response).one("div", id=f"field-{field}")
    assert "has-error" in box.classes and words in box.text() and "не подходит" in box.text()
    assert not english_phrases(visible_text(response), series.name) and "«cut»" not in visible_text(response)


def test_the_rules_form_still_saves_without_touching_the_scheme(owner_client, series):
    Series.objects.filter(pk=series.pk).update(master_points={"scheme": "percent"})
    owner_client.post(
        edit_url(series), {"name": "Новое имя", "season": "2026", "measure": "points", "best": 3}
    )
    series.refresh_from_db()
    assert series.name == "Новое имя" and series.rules.get("measure") == "points"
    assert series.master_points == {"scheme": "percent"}


def test_only_the_owner_sets_the_scheme(client, other_user, series):
    client.force_login(other_user)
    assert client.post(edit_url(series), {"mp-kind": "percent"}).status_code == 403
    series.refresh_from_db()
    assert series.master_points == {}
