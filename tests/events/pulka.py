"""A pulka event for the tests of the whole event's workflows, made through the services."""

from __future__ import annotations

from django.utils import timezone

from pulkas.models import PulkaRound
from pulkas.services import rounds
from pulkas.services.event import pulka_event_create
from tournaments.models import Participant, Tournament


def pulka_event(director, form: str, *, players: int, per_table: int, **settings) -> Tournament:
    t = pulka_event_create(
        name=f"{form} cup",
        form=form,
        user=director,
        now=timezone.now(),
        players_per_table=per_table,
        settings=settings,
    )
    for n in range(1, players + 1):
        Participant.objects.create(tournament=t, number=n, name=f"Игрок {n}", pin=f"{1000 + n}")
    return t


def finish_round(pulka_round: PulkaRound, director, now) -> None:
    """Time is up: the tables still playing are stopped, the round ends."""
    rounds.stop_round(pulka_round=pulka_round, user=director, now=now)
    rounds.end_round(pulka_round=pulka_round, user=director, now=now)
