"""The demo season (``seed_players_demo``): the demo's twenty players linked across three events by their
federation numbers, two final evenings with master points and ratings, a series holding all three; run twice,
it refreshes rather than duplicates."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from players.models import MasterPointAward, Person, RatingEntry, Series
from tournaments.models import Participant, Publication, Tournament

pytestmark = pytest.mark.django_db


def test_the_demo_season(client):
    call_command("seed_demo", stdout=StringIO())
    for _ in range(2):
        call_command("seed_players_demo", stdout=StringIO())
    assert Person.objects.count() == 20
    for person in Person.objects.all():
        assert Participant.objects.filter(person=person).count() == 3
    finals = Tournament.objects.filter(slug__startswith="demo-club-")
    assert sorted(t.publication for t in finals) == [Publication.FINAL, Publication.FINAL]
    assert MasterPointAward.objects.filter(tournament__in=finals).exists()
    assert RatingEntry.objects.count() == 40  # 20 persons × 2 final evenings
    season = Series.objects.get(slug="demo-season")
    assert season.events.count() == 3
    winner = MasterPointAward.objects.order_by("-points").first().person
    page = client.get(reverse("players:person", kwargs={"pk": winner.pk}))
    assert page.status_code == 200 and "Клубный вечер 1 (демо)" in page.content.decode()
    assert client.get(reverse("players:series", kwargs={"slug": "demo-season"})).status_code == 200
