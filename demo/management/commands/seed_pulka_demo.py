"""``python manage.py seed_pulka_demo``: create (or refresh) two demo events played in pulkas.

* an Olympic event of 9 players (3 tables of 3, the winners go on to a final table): round 1 played and ended,
  the final played and ended — play is over, so a director can make the results official, then final;
* a compensation event of 8 players (2 tables of 4, 3 rounds): round 1 played, round 2 drawn by rating and
  running with a few deals on each sheet.

The deals are random but legal, written through the same write path as the players' phones. Needs the demo
director account of ``seed_demo`` (created here too if missing). PINs are 1000 + the participant's number.
Development only, unless ``--production`` (demo/account.py).
"""

from __future__ import annotations

import random
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone

from demo.account import add_production_flag, demo_director, production
from events.publication import publication_gaps, publish
from pulkas.services import rounds
from pulkas.services.event import pulka_event_create
from pulkas.simulate import play_round
from tournaments.models import Participant, Publication, Tournament

NAMES = (
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
)
EVENTS: dict[str, dict[str, Any]] = {
    "demo-olympic": {
        "name": "Олимпийский кубок «Пуля» (демо)",
        "form": "olympic",
        "players": 9,
        "per_table": 3,
        "settings": {"pool": 10, "round_minutes": 90},
    },
    "demo-compensation": {
        "name": "Компенсационный турнир (демо)",
        "form": "compensation",
        "players": 8,
        "per_table": 4,
        "settings": {"pool": 10, "rounds": 3, "round_minutes": 60},
    },
}


class Command(BaseCommand):
    help = "Create the demo Olympic and compensation events (pulkas), with rounds played and running."

    def add_arguments(self, parser: CommandParser) -> None:
        add_production_flag(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        on_server = production("seed_pulka_demo", options)
        rng = random.Random(2026)
        with transaction.atomic():
            user = demo_director(production=on_server)
            for slug, spec in EVENTS.items():
                Tournament.objects.filter(slug=slug).delete()
                self._event(slug, spec, user, rng)
        self.stdout.write("demo pulka events ready: " + ", ".join(f"/t/{slug}/pulka/" for slug in EVENTS))

    def _event(self, slug: str, spec: dict[str, Any], user: Any, rng: random.Random) -> None:
        now = timezone.now()
        tournament = pulka_event_create(
            name=spec["name"],
            form=spec["form"],
            user=user,
            now=now,
            players_per_table=spec["per_table"],
            settings=spec["settings"],
            slug=slug,
            venue="Москва, клуб «Пуля»",
            starts_on=timezone.localdate(),
        )
        for number in range(1, spec["players"] + 1):
            Participant.objects.create(
                tournament=tournament, number=number, name=NAMES[number - 1], pin=str(1000 + number)
            )
        first = rounds.draw_round(tournament=tournament, user=user, now=now, seed=rng.randrange(2**31))
        rounds.start_round(pulka_round=first, user=user, now=now)
        play_round(first, rng, now=now, deals=12)
        rounds.stop_round(pulka_round=first, user=user, now=now, reason="Время тура вышло")
        for table in first.tables.all():
            if table.advance and table.advance["tied"]:
                places = table.olympic_advance(tournament.pulka_event) - len(table.advance["seats"])
                rounds.decide_tie(
                    table=table, seats=table.advance["tied"][:places], user=user, now=now, reason="жребий"
                )
        rounds.end_round(pulka_round=first, user=user, now=now)
        second = rounds.draw_round(tournament=tournament, user=user, now=now, seed=rng.randrange(2**31))
        rounds.start_round(pulka_round=second, user=user, now=now)
        if spec["form"] == "olympic":  # the final is played to its end: play is over
            play_round(second, rng, now=now, deals=12)
            rounds.stop_round(pulka_round=second, user=user, now=now, reason="Время тура вышло")
            rounds.end_round(pulka_round=second, user=user, now=now)
        else:
            play_round(second, rng, now=now, deals=3)
        publish(  # provisional results, as a director publishes them (what is open acknowledged)
            tournament=tournament,
            to=Publication.PROVISIONAL,
            user=user,
            now=now,
            acknowledged=publication_gaps(tournament).token,
        )
