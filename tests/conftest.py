"""Shared fixtures."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tournaments.models import Participant, Publication, Tournament


@pytest.fixture
def director(db):
    return get_user_model().objects.create_user("director", password="pw-director-1")


@pytest.fixture
def other_user(db):
    return get_user_model().objects.create_user("someone", password="pw-someone-1")


@pytest.fixture
def tournament(db, director):
    t = Tournament.objects.create(name="Кубок клуба", slug="club-cup", variant="sochi")
    t.directors.add(director)
    for n, name in enumerate(["Иванов", "Петров", "Сидоров", "Кузнецов"], start=1):
        Participant.objects.create(tournament=t, number=n, name=name)
    return t


@pytest.fixture
def published(tournament):
    tournament.publication = Publication.PROVISIONAL
    tournament.save(update_fields=["publication"])
    return tournament
