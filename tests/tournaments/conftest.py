"""Fixtures for the director's application: an event of 20 seated by the basic movement on 5 tables."""

from __future__ import annotations

import pytest
from django.utils import timezone

from duplicate.rounds import movement_choose
from tournaments.models import Participant
from tournaments.services.event import tournament_create

# A legal row for a 4-player table whatever the dealer: the declarer is the first active seat after the dealer.
ORDER = ("N", "E", "S", "W")


def legal_row(dealer: str) -> dict:
    active = [s for s in ORDER if s != dealer]
    d, w1, w2 = active[0], active[1], active[2]
    return {
        "contract": "6S",
        "declarer": [d, 6],
        "w1": [w1, 2],
        "w2": [w2, 2],
        "calls": {w1: "whist", w2: "whist"},
        "play": "closed",
    }


@pytest.fixture
def event(db, director):
    t = tournament_create(name="Весенний кубок", user=director, slug="spring", now=timezone.now())
    Participant.objects.bulk_create(
        Participant(tournament=t, number=n, name=f"Игрок {n}", pin=f"{1000 + n}") for n in range(1, 21)
    )
    return t


@pytest.fixture
def seated(event, director):
    session = event.sessions.get(number=1)
    movement_choose(session=session, user=director, spec={"scheme": "basic", "tables": 5}, now=timezone.now())
    return event


@pytest.fixture
def session(seated):
    return seated.sessions.get(number=1)


@pytest.fixture
def dclient(client, director):
    client.force_login(director)
    return client
