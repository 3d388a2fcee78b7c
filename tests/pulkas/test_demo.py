"""The demo pulka events: created twice in a row without trouble, with a round played and one running."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from pulkas.models import PulkaDeal, PulkaRound
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_seed_pulka_demo_twice() -> None:
    call_command("seed_pulka_demo", stdout=None)
    call_command("seed_pulka_demo", stdout=None)
    for slug, tables in (("demo-olympic", 1), ("demo-compensation", 2)):
        t = Tournament.objects.get(slug=slug)
        r1, r2 = PulkaRound.objects.filter(tournament=t).order_by("number")
        assert r1.status == "ended" and r2.status == "running"
        assert r2.tables.count() == tables
        assert PulkaDeal.objects.filter(table__round=r2).exists()
