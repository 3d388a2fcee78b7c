"""Fixtures for rulings, appeals and corrections: the demo tournament with its session ended at a pinned time."""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core.management import call_command

from appeals.models import CommitteeMember
from tests.publishing import end_every_round, publish_to
from tournaments.models import Participant, Publication, Session, Tournament

ENDED = dt.datetime(2026, 3, 14, 18, 0, tzinfo=dt.UTC)
OFFICIAL = ENDED + dt.timedelta(hours=1)


def publish_demo(t: Tournament, step: str, *, official_at: dt.datetime = OFFICIAL) -> Tournament:
    """The demo's director ends the rounds still to play at ENDED and publishes its results up to ``step``:
    official at ``official_at``, final an hour later (after the correction period)."""
    director = t.directors.get()
    end_every_round(t, director, ENDED)
    at = official_at + dt.timedelta(hours=1) if step == Publication.FINAL else official_at
    return publish_to(t, step, director, at, official_at=official_at)


@pytest.fixture
def demo(db):
    call_command("seed_demo", stdout=StringIO())
    t = Tournament.objects.get(slug="demo")
    session = t.sessions.get()
    Session.objects.filter(pk=session.pk).update(status=Session.Status.FINISHED, ended_at=ENDED)
    session.refresh_from_db()
    return t, session


@pytest.fixture
def director_user(demo):
    t, _session = demo
    return t.directors.get()


@pytest.fixture
def committee(demo):
    t, _session = demo
    # Three members who did not play at table 1 in round 1 (participants 1, 6, 11, 16 did).
    return [
        CommitteeMember.objects.create(
            tournament=t,
            name=f"Member {n}",
            participant=Participant.objects.get(tournament=t, number=n),
            is_chair=(n == 2),
        )
        for n in (2, 3, 4)
    ]


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The PIN attempt counter lives in the cache: each test starts with none."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
