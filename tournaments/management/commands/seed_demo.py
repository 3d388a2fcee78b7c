"""``python manage.py seed_demo``: create (or refresh) the demo tournament and its director account."""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from tournaments.demo import DEMO_SLUG, PLAYED_ROUNDS, demo_bundle
from tournaments.models import Publication, Round, Session, Tournament, TournamentStatus
from tournaments.services.bundles import import_bundle

DEMO_USER, DEMO_PASSWORD = "demo", "demo-director"


class Command(BaseCommand):
    help = (
        "Create the demo tournament (20 participants, basic movement, 3 rounds played) and a director login."
    )

    def handle(self, *args, **options):
        with transaction.atomic():
            user, created = get_user_model().objects.get_or_create(
                username=DEMO_USER, defaults={"is_staff": True, "is_superuser": True}
            )
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
            Tournament.objects.filter(slug=DEMO_SLUG).delete()
            tournament = import_bundle(
                data=demo_bundle(), user=user, slug=DEMO_SLUG, starts_on=timezone.localdate(), now=timezone.now()
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
            tournament.publication = Publication.PROVISIONAL
            tournament.published_at = now
            tournament.venue = "Москва, клуб «Пуля»"
            tournament.status = TournamentStatus.RUNNING
            tournament.save(update_fields=["publication", "published_at", "venue", "status"])
        self.stdout.write(
            f"demo tournament ready: /t/{DEMO_SLUG}/  (director login {DEMO_USER} / {DEMO_PASSWORD})"
        )
