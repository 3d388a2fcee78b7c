"""``python manage.py seed_demo``: create (or refresh) the demo tournament and its director account.

Development only, unless ``--production`` (demo/account.py).
"""

from __future__ import annotations

import datetime as dt

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from demo.account import add_production_flag, demo_director, login_words, production
from demo.duplicate_event import DEMO_SLUG, PLAYED_ROUNDS, demo_bundle
from events.bundles import import_bundle
from events.publication import publication_gaps, publish
from tournaments.models import Publication, Round, Session, Tournament, TournamentStatus


class Command(BaseCommand):
    help = (
        "Create the demo tournament (20 participants, basic movement, 3 rounds played) and a director login."
    )

    def add_arguments(self, parser):
        add_production_flag(parser)

    def handle(self, *args, **options):
        on_server = production("seed_demo", options)
        with transaction.atomic():
            user = demo_director(production=on_server)
            Tournament.objects.filter(slug=DEMO_SLUG).delete()
            tournament = import_bundle(
                data=demo_bundle(),
                user=user,
                slug=DEMO_SLUG,
                starts_on=timezone.localdate(),
                now=timezone.now(),
                trusted_links=True,  # the demo's own persons, seeded again
            )
            now = timezone.now()
            session = tournament.sessions.get(number=1)
            minutes = tournament.minutes_per_deal * tournament.deals_per_set
            for rnd in session.rounds.all():
                if rnd.number <= PLAYED_ROUNDS:
                    rnd.status = Round.Status.ENDED
                    rnd.started_at = now - dt.timedelta(
                        minutes=(PLAYED_ROUNDS + 1 - rnd.number) * (minutes + 5)
                    )
                    rnd.ended_at = rnd.started_at + dt.timedelta(minutes=minutes)
                elif rnd.number == PLAYED_ROUNDS + 1:
                    rnd.status = Round.Status.RUNNING
                    rnd.started_at = now - dt.timedelta(minutes=3)
                rnd.save()
            for participant in tournament.participants.all():
                participant.pin = str(1000 + participant.number)  # demo PINs: 1001, 1002, …
                participant.save(update_fields=["pin"])
            session.status = Session.Status.RUNNING
            session.save(update_fields=["status"])
            tournament.venue = "Москва, клуб «Пуля»"
            tournament.status = TournamentStatus.RUNNING
            tournament.save(update_fields=["venue", "status"])
            publish(  # provisional results while play goes on, as a director publishes them
                tournament=tournament,
                to=Publication.PROVISIONAL,
                user=user,
                now=now,
                acknowledged=publication_gaps(tournament).token,
            )
        self.stdout.write(f"demo tournament ready: /t/{DEMO_SLUG}/  ({login_words(production=on_server)})")
