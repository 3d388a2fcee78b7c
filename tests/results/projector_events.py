"""Events for the projector's tests, of both forms, taken from state to state the way a director takes them: a
duplicate event imported (rows of its first rounds simulated) and its rounds started and ended through the round
services; pulka events (compensation, Olympic) made by the factory, their rounds drawn, started, played at random
through the sheet, stopped and ended through the pulka round services; results published through
``events.publication`` (``tests.publishing``)."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from django.utils import timezone

from duplicate.gaps import round_gaps
from duplicate.rounds import round_end, round_start
from events.bundles import import_bundle
from preferans.simulate import simulated_bundle
from pulkas.models import PulkaRound
from pulkas.services import rounds as pulka_rounds
from tests.pulkas.factory import finish_running, pulka_event
from tournaments.models import Tournament

# Long Russian names, as a real entry list has them: the projector must show them whole.
FIRST = ("Александр", "Екатерина", "Константин", "Валентина", "Вячеслав", "Маргарита")
LAST = ("Константинопольский", "Преображенская", "Воскресенский", "Ковалевская", "Рождественский")


def long_names(n: int) -> list[str]:
    return [f"{LAST[i % len(LAST)]} {FIRST[i % len(FIRST)]} {i}" for i in range(1, n + 1)]


def duplicate_event(user: Any, *, slug: str = "pj-dup", tables: int = 8, played: int = 3) -> Tournament:
    """4 × ``tables`` participants with long names on the basic movement, rows simulated for rounds 1…``played``;
    no round started yet."""
    people = [{"number": i, "name": name, "club": "Клуб"} for i, name in enumerate(long_names(4 * tables), 1)]
    bundle = simulated_bundle(
        name="Кубок проектора",
        movement={"scheme": "basic", "tables": tables},
        played_rounds=played,
        participants=people,
        seed=11,
    )
    return import_bundle(data=bundle, user=user, slug=slug, now=timezone.now())


def start(t: Tournament, number: int, user: Any, *, minutes_ago: int = 0) -> None:
    rnd = t.sessions.get().rounds.get(number=number)
    round_start(rnd=rnd, user=user, now=timezone.now() - dt.timedelta(minutes=minutes_ago))


def end(t: Tournament, number: int, user: Any) -> None:
    rnd = t.sessions.get().rounds.get(number=number)
    round_end(rnd=rnd, user=user, now=timezone.now(), acknowledged=round_gaps(rnd).token)


def play_rounds(t: Tournament, upto: int, user: Any) -> None:
    """Rounds 1…``upto`` started and ended in order (the ones already ended left alone)."""
    for rnd in t.sessions.get().rounds.filter(number__lte=upto).order_by("number"):
        if rnd.status == "pending":
            start(t, rnd.number, user)
            rnd.refresh_from_db()
        if rnd.status == "running":
            end(t, rnd.number, user)


def pulka(user: Any, form: str, *, players: int, per_table: int, slug: str, **settings: Any) -> Tournament:
    return pulka_event(
        user,
        form,
        players=players,
        per_table=per_table,
        slug=slug,
        name="Кубок олимпийский" if form == "olympic" else "Кубок компенсационный",
        names=long_names(players),
        **settings,
    )


def draw(t: Tournament, user: Any) -> PulkaRound:
    number = PulkaRound.objects.filter(tournament=t).count() + 1
    return pulka_rounds.draw_round(tournament=t, user=user, now=timezone.now(), seed=number)


def start_pulka(r: PulkaRound, user: Any) -> PulkaRound:
    return pulka_rounds.start_round(pulka_round=r, user=user, now=timezone.now())


def finish_pulka(t: Tournament, r: PulkaRound, user: Any, rng: random.Random, deals: int = 3) -> None:
    """A running round played at random (``deals`` a table), stopped, its Olympic ties decided by lot, ended."""
    finish_running(t, user, r, rng, deals)
