"""The demo pulka events: created twice in a row without trouble, with a round played and one running."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from events.publication import play_finished
from pulkas.models import PulkaDeal, PulkaRound
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_seed_pulka_demo_twice() -> None:
    call_command("seed_pulka_demo", stdout=None)
    call_command("seed_pulka_demo", stdout=None)
    for slug, tables in (("demo-olympic", 1), ("demo-compensation", 2)):
        t = Tournament.objects.get(slug=slug)
        r1, r2 = PulkaRound.objects.filter(tournament=t).order_by("number")
        # The Olympic final has been played to its end (its results can become official); the compensation
        # event's second round is being played.
        assert r1.status == "ended" and r2.status == ("ended" if slug == "demo-olympic" else "running")
        assert play_finished(t) == (slug == "demo-olympic") and t.publication == "provisional"
        assert r2.tables.count() == tables
        assert PulkaDeal.objects.filter(table__round=r2).exists()
