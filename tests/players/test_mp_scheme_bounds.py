"""Issue 29, N12: every number of a master-point scheme is bounded (the rules, the model, the form and the
service), and an event in two series takes the master points of the series its director chose — another series'
owner changing his scheme changes nothing; with two series and no choice the event gets none, and its page says so."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction as F
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from duplicate.gaps import publication_gaps
from events.publication import publish
from players.models import MasterPointAward, Person, Series, SeriesEvent
from preferans.numbers import parse_fraction
from preferans.ratings.master_points import MasterPointError, Placed, award, parse_scheme
from tests.html import visible_text
from tests.publishing import end_every_round, publish_to
from tournaments.models import AuditEntry, Publication, Tournament

pytestmark = pytest.mark.django_db
OFFICIAL = timezone.now() + dt.timedelta(days=1)
RU = {"Accept-Language": "ru"}


@pytest.mark.parametrize(
    "raw",
    [
        {"first": "1000000"},
        {"first": "1001"},
        {"places": ["1000000", "1"]},
        {"places": ["1"] * 201},
        {"field": 5000},
        {"max_factor": "1000"},
        {"scheme": "percent", "per_percent": "10000"},
        {"scheme": "percent", "above": "1000"},
        {"scheme": "percent", "max": "1000000"},
    ],
)
def test_a_scheme_beyond_the_bounds_is_refused_by_the_rules_and_the_model(raw):
    with pytest.raises(MasterPointError):
        parse_scheme(raw)
    with pytest.raises(ValidationError):
        Series(name="S", slug="s", master_points=raw).full_clean()


def test_no_award_exceeds_the_bound_whatever_the_field():
    """The field factor is at most 10 even without max_factor: a field of 1000 at field=1 gets 10 × first."""
    scheme = parse_scheme({"first": "1000", "field": 1})
    points = award(scheme, [Placed(n, str(n), F(50)) for n in range(1, 1001)])
    assert max(points.values()) == F(10_000)


def test_the_series_page_refuses_a_million_for_the_winner(client, director):
    series = Series.objects.create(name="Клубный сезон", slug="club", owner=director)
    client.force_login(director)
    url = reverse("players:series_edit", kwargs={"slug": series.slug})
    page = client.post(url, {"mp-kind": "place", "mp-first": "1000000"}, headers=RU)
    series.refresh_from_db()
    assert series.master_points == {}
    assert "не больше 1000" in visible_text(page)
    page = client.post(url, {"mp-kind": "place", "mp-field": "5000"}, headers=RU)
    series.refresh_from_db()
    assert series.master_points == {} and page.status_code == 200


@pytest.fixture
def two_series(director):
    """The demo event (20 players, every one a person) in two series: «other», added first, owned by a co-director;
    «mine», added second, owned by the demo's director. Results official, then final."""
    call_command("seed_demo", stdout=StringIO())
    t = Tournament.objects.get(slug="demo")
    for p in t.participants.all():
        p.person = Person.objects.create(name=p.name or f"P{p.number}", federation_id=f"F{p.number}")
        p.save(update_fields=["person"])
    boss = t.directors.get()
    rival = get_user_model().objects.create_user("rival", password="x")
    t.directors.add(rival)
    other = Series.objects.create(name="Чужой сезон", slug="other", owner=rival)
    mine = Series.objects.create(name="Наш сезон", slug="mine", owner=boss)
    SeriesEvent.objects.create(series=other, tournament=t, order=1)
    SeriesEvent.objects.create(series=mine, tournament=t, order=1)
    end_every_round(t, boss, OFFICIAL - dt.timedelta(minutes=10))
    publish_to(t, Publication.OFFICIAL, boss, OFFICIAL)
    publish(
        tournament=t,
        to=Publication.FINAL,
        user=None,
        now=OFFICIAL + dt.timedelta(hours=1),
        acknowledged=publication_gaps(t).token,
    )
    return t, boss, rival, other, mine


def total(t: Tournament) -> F:
    return sum((parse_fraction(a.points) for a in MasterPointAward.objects.filter(tournament=t)), F(0))


def test_the_chosen_series_decides_and_another_owner_changes_nothing(two_series):
    t, boss, rival, other, mine = two_series
    as_boss, as_rival = Client(), Client()
    as_boss.force_login(boss)
    as_rival.force_login(rival)
    links = reverse("players:event_links", args=[t.slug])
    # Two series, none chosen: no master points, and the event's page says so.
    assert total(t) == 0
    assert as_boss.get(links, headers=RU).content.decode().count('id="no-deciding-series"') == 1
    # The director chooses «mine» (the second series): the default scheme over 20 players.
    assert as_boss.post(links, {"decide": "1", "series": str(mine.pk)}).status_code == 302
    assert total(t) == F(75, 2)
    assert AuditEntry.objects.filter(tournament=t, action="master_points.series").exists()
    # The first series' owner changes his scheme: the event's points do not move.
    edit = reverse("players:series_edit", kwargs={"slug": other.slug})
    as_rival.post(edit, {"mp-kind": "place", "mp-first": "1000"})
    other.refresh_from_db()
    assert other.master_points == {"scheme": "place", "first": "1000"}
    assert total(t) == F(75, 2)
    # The chosen series' owner changes his: they do.
    as_boss.post(
        reverse("players:series_edit", kwargs={"slug": mine.slug}), {"mp-kind": "place", "mp-first": "20"}
    )
    assert total(t) == F(75)
    # Only the event's directors choose.
    stranger = Client()
    stranger.force_login(get_user_model().objects.create_user("stranger", password="x"))
    assert stranger.post(links, {"decide": "1", "series": str(other.pk)}).status_code == 403
    assert SeriesEvent.objects.get(series=mine, tournament=t).decides
