"""``python manage.py seed_players_demo``: a demo season for the players across events (docs/players.md).

Two earlier club evenings of the demo's twenty players (the same people, known by their federation numbers,
seated at other numbers), each played in full and made final, so that their master points and ratings are
computed; and a series «Демо-сезон» holding both evenings and the demo tournament of ``seed_demo``. Every
person's page (/players/<id>/) then has a history, master points and a rating chart.

Run after ``seed_demo`` (it links the demo tournament's players by the same numbers). Development only, unless
``--production`` (demo/account.py).
"""

from __future__ import annotations

import datetime as dt

from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone

from demo.account import add_production_flag, demo_director, production
from demo.duplicate_event import DEMO_SLUG, NAMES, federation_id
from duplicate.gaps import round_gaps
from duplicate.rounds import round_end, round_start
from events.bundles import import_bundle
from events.publication import publication_gaps, publish
from players.models import Series
from players.services import series as series_service
from preferans.simulate import simulated_bundle
from tournaments.models import Publication, Tournament

SERIES_SLUG = "demo-season"
EVENINGS = ((1, "Клубный вечер 1 (демо)", 21), (2, "Клубный вечер 2 (демо)", 14))  # number, name, days ago


def evening_bundle(number: int, name: str) -> dict[str, object]:
    """An evening of the demo's players, all rounds played; player k sits at number (k + 7·number) mod 20 + 1."""
    people = [
        {
            "number": (k + 7 * number) % len(NAMES) + 1,
            "name": person,
            "club": club,
            "federation_id": federation_id(k + 1),
        }
        for k, (person, club) in enumerate(NAMES)
    ]
    return simulated_bundle(
        name=name,
        movement={"scheme": "basic", "tables": 5},
        participants=sorted(people, key=lambda p: p["number"]),
        seed=2026 + number,
    )


class Command(BaseCommand):
    help = "Create the demo season: two final club evenings of the demo players and a series holding them."

    def add_arguments(self, parser: CommandParser) -> None:
        add_production_flag(parser)

    def handle(self, *args: object, **options: object) -> None:
        on_server = production("seed_players_demo", options)
        now = timezone.now()
        with transaction.atomic():
            user = demo_director(production=on_server)
            Series.objects.filter(slug=SERIES_SLUG).delete()
            evenings = []
            for number, name, days_ago in EVENINGS:
                slug = f"demo-club-{number}"
                Tournament.objects.filter(slug=slug).delete()
                played = now - dt.timedelta(days=days_ago)
                event = import_bundle(
                    data=evening_bundle(number, name),
                    user=user,
                    slug=slug,
                    starts_on=played.date(),
                    now=played,
                    trusted_links=True,  # the demo's own persons, seeded again
                )
                # Its rounds started and ended as the director ran them, then the results published: provisional
                # and official that night, final after the correction period.
                for session in event.sessions.all():
                    for rnd in session.rounds.order_by("number"):
                        at = played + dt.timedelta(minutes=40 * rnd.number)
                        round_start(rnd=rnd, user=user, now=at)
                        round_end(rnd=rnd, user=user, now=at, acknowledged=round_gaps(rnd).token)
                for step, hours in ((Publication.PROVISIONAL, 2), (Publication.OFFICIAL, 3)):
                    publish(
                        tournament=event,
                        to=step,
                        user=user,
                        now=played + dt.timedelta(hours=hours),
                        acknowledged=publication_gaps(event).token,
                    )
                publish(
                    tournament=event,
                    to=Publication.FINAL,
                    user=user,
                    now=played + dt.timedelta(days=1),
                    acknowledged=publication_gaps(event).token,
                )
                evenings.append(event)
            season = series_service.series_create(
                name="Демо-сезон", slug=SERIES_SLUG, measure="percent", best=2, user=user, now=now
            )
            for event in [*evenings, *Tournament.objects.filter(slug=DEMO_SLUG)]:
                series_service.series_add_event(series=season, tournament=event, user=user, now=now)
        self.stdout.write(
            f"demo season ready: /players/series/{SERIES_SLUG}/ ({len(evenings)} final evenings, master points and "
            "ratings computed; each player's page is linked from his personal card)"
        )
