"""One pulka event for the tests, made the way a director makes it: the event through
``pulkas.services.event.pulka_event_create``, its participants through ``events.participants.participant_save``
(each with the PIN 1000 + number, so a test can type it), persons linked by their federation numbers through
``players.services.register.link_event``; a round played to its end through the round services.

The duplicate form's counterpart is ``tests/table/factory.py``.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from events.participants import PIN_LENGTH, participant_save
from players.models import Person
from players.services import links
from players.services.register import link_event
from pulkas.models import PulkaRound, PulkaTable
from pulkas.services import rounds
from pulkas.services.event import pulka_event_create
from pulkas.simulate import play_round
from tournaments.models import Participant, Tournament

# Fifteen distinct Russian surnames, for tests that look players up by name on a page or in a file.
SURNAMES = (
    "Алексеев",
    "Борисова",
    "Воронцов",
    "Григорьева",
    "Дмитриев",
    "Егорова",
    "Жуков",
    "Зайцева",
    "Ильин",
    "Кузнецова",
    "Лебедев",
    "Морозова",
    "Никитин",
    "Орлова",
    "Петров",
)


def pin_of(number: int) -> str:
    return str(1000 + number)


class _KnownPin(random.Random):
    """The randomness ``participant_save`` draws a new PIN from, dealing the digits of a PIN the test knows."""

    def __init__(self, pin: str) -> None:
        assert len(pin) == PIN_LENGTH, pin
        super().__init__(0)
        self._digits = iter(pin)

    def choice(self, seq: Sequence[Any]) -> Any:
        digit = next(self._digits)
        assert digit in seq
        return digit


def register(
    tournament: Tournament,
    director: Any,
    players: int,
    *,
    names: Sequence[str] | None = None,
    persons: Sequence[Person] | None = None,
    now: dt.datetime | None = None,
) -> list[Participant]:
    """Participants 1 … ``players`` as the director registers them: «Игрок n» (or ``names[n - 1]``, or the
    person's name), PIN 1000 + n; with ``persons``, each carries his person's federation number and the event
    is linked to the register by those numbers."""
    now = now or timezone.now()
    people = []
    for n in range(1, players + 1):
        person = persons[n - 1] if persons is not None else None
        default = names[n - 1] if names is not None else f"Игрок {n}"
        people.append(
            participant_save(
                now=now,
                tournament=tournament,
                user=director,
                number=n,
                name=person.name if person is not None else default,
                federation_id=person.federation_id if person is not None else "",
                rng=_KnownPin(pin_of(n)),
            )
        )
    if persons is not None:
        link_event(tournament, now=now, user=director)
        confirm_proposals(tournament, now=now)
        people = list(tournament.participants.order_by("number"))
        assert [p.person_id for p in people] == [p.pk for p in persons[:players]]
    return people


def confirm_proposals(tournament: Tournament, *, now: dt.datetime) -> None:
    """The register's staff confirm every link the event's director proposed (players.services.links)."""
    staff, _ = get_user_model().objects.get_or_create(username="register-staff", defaults={"is_staff": True})
    for participant in links.pending().filter(tournament=tournament):
        links.confirm(participant_id=participant.pk, user=staff, now=now)


def pulka_event(
    director: Any,
    form: str = "compensation",
    players: int = 8,
    per_table: int = 4,
    *,
    name: str | None = None,
    slug: str | None = None,
    names: Sequence[str] | None = None,
    persons: Sequence[Person] | None = None,
    now: dt.datetime | None = None,
    variant: str = "sochi",
    **settings: Any,
) -> Tournament:
    """An Olympic, compensation or Swiss event directed by ``director``, no round drawn yet, with ``players``
    registered participants (see ``register``); ``settings`` are the event's (pool, rounds, cut_after, …),
    the form's defaults for the rest."""
    now = now or timezone.now()
    tournament = pulka_event_create(
        name=name or f"Кубок {form}",
        form=form,
        user=director,
        now=now,
        players_per_table=per_table,
        settings=settings,
        slug=slug,
        variant=variant,
    )
    register(tournament, director, players, names=names, persons=persons, now=now)
    return tournament


def running_round(director: Any, tournament: Tournament, *, seed: int | None = 5) -> PulkaRound:
    """The next round drawn (by lot with ``seed``) and started."""
    now = timezone.now()
    pulka_round = rounds.draw_round(tournament=tournament, user=director, now=now, seed=seed)
    rounds.start_round(pulka_round=pulka_round, user=director, now=now)
    return pulka_round


def play_to_the_end(
    tournament: Tournament,
    director: Any,
    pulka_round: PulkaRound,
    rng: random.Random,
    deals: int | None = None,
) -> None:
    """A drawn round started, played at random through the sheet's write path (``deals`` a table, or to the
    pool), stopped, its Olympic ties decided by lot, and ended."""
    rounds.start_round(pulka_round=pulka_round, user=director, now=timezone.now())
    finish_running(tournament, director, pulka_round, rng, deals)


def finish_running(
    tournament: Tournament,
    director: Any,
    pulka_round: PulkaRound,
    rng: random.Random,
    deals: int | None = None,
) -> None:
    """A running round played at random (``deals`` a table, or to the pool), stopped, its Olympic ties decided
    by lot, and ended."""
    now = timezone.now()
    play_round(pulka_round, rng, now=now, deals=deals)
    rounds.stop_round(pulka_round=pulka_round, user=director, now=now, reason="время вышло")
    for table in PulkaTable.objects.filter(round=pulka_round):
        if table.advance and table.advance["tied"]:
            places = table.olympic_advance(tournament.pulka_event) - len(table.advance["seats"])
            rounds.decide_tie(
                table=table, seats=table.advance["tied"][:places], user=director, now=now, reason="жребий"
            )
    rounds.end_round(pulka_round=pulka_round, user=director, now=now)
