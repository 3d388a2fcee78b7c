"""``manage.py rebuild_players`` (issue 20): every final event's master points and every rating computed again from
the first day, the counts printed; a second run changes nothing (docs/players/rating.md)."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction as F
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from duplicate.gaps import publication_gaps
from events.publication import publish
from players.models import MasterPointAward, Person, RatingEntry, Series, SeriesEvent
from preferans.numbers import parse_fraction
from tests.publishing import end_every_round, publish_to
from tournaments.models import AuditEntry, Publication, Tournament

pytestmark = pytest.mark.django_db
# The demo is seeded now, its rounds running; its director ends them and publishes official results a day later.
OFFICIAL = timezone.now() + dt.timedelta(days=1)


@pytest.fixture
def official_demo():
    """The demo event (20 players), every participant a person, play over and its results official."""
    call_command("seed_demo", stdout=StringIO())
    t = Tournament.objects.get(slug="demo")
    for p in t.participants.all():
        p.person = Person.objects.create(name=p.name or f"P{p.number}", federation_id=f"F{p.number}")
        p.save(update_fields=["person"])
    director = t.directors.get()
    end_every_round(
        t, director, OFFICIAL - dt.timedelta(minutes=10)
    )  # the rounds left, then official results
    return publish_to(t, Publication.OFFICIAL, director, OFFICIAL)


@pytest.fixture
def final_demo(official_demo):
    """The demo event, its results final (awards and ratings made)."""
    t = official_demo
    publish(
        tournament=t,
        to=Publication.FINAL,
        user=None,
        now=OFFICIAL + dt.timedelta(hours=1),
        acknowledged=publication_gaps(t).token,
    )
    return t


def snapshot() -> tuple[dict, dict]:
    awards = {
        (a.tournament_id, a.participant_id): (a.person_id, a.points, a.place)
        for a in MasterPointAward.objects.all()
    }
    ratings = {
        (e.person_id, e.tournament_id): (e.before, e.after, e.games, e.played_on)
        for e in RatingEntry.objects.all()
    }
    return awards, ratings


def rebuild() -> str:
    out = StringIO()
    call_command("rebuild_players", stdout=out)
    return out.getvalue()


def test_a_run_restores_what_the_hooks_made_and_a_second_run_changes_nothing(final_demo):
    made = snapshot()
    assert len(made[0]) == 5 and len(made[1]) == 20  # 5 places paid of 20 (default scheme); 20 persons rated
    MasterPointAward.objects.all().delete()
    RatingEntry.objects.all().delete()
    out = rebuild()
    assert snapshot() == made
    assert out.strip() == (
        "final events: 1; master-point awards: 5 (events changed: 1); rating entries: 20 (persons rated: 20)."
    )
    audits = AuditEntry.objects.count()
    assert "(events changed: 0)" in rebuild()
    assert snapshot() == made and AuditEntry.objects.count() == audits  # idempotent: nothing audited again


def test_a_scheme_changed_behind_the_pages_back_is_applied(final_demo):
    series = Series.objects.create(
        name="Сезон", slug="season", master_points={"scheme": "percent", "per_percent": "1", "above": "60"}
    )
    SeriesEvent.objects.create(series=series, tournament=final_demo, order=1)
    assert sum(parse_fraction(a.points) for a in MasterPointAward.objects.all()) == F(
        75, 2
    )  # still the default
    assert "(events changed: 1)" in rebuild()
    # 65.625 % → 45/8; 63.541… % → 85/24; 60.416… % → 5/12 each of places 3-5 (docs/players/master-points.md).
    assert sorted(parse_fraction(a.points) for a in MasterPointAward.objects.all()) == [
        F(5, 12),
        F(5, 12),
        F(5, 12),
        F(85, 24),
        F(45, 8),
    ]
    assert AuditEntry.objects.filter(
        action="master_points.recompute", reason__startswith="rebuild_players"
    ).exists()


def test_events_not_final_award_and_rate_nothing(official_demo):
    assert rebuild().startswith("final events: 0;")
    assert not MasterPointAward.objects.exists() and not RatingEntry.objects.exists()
