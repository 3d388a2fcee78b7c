"""``python manage.py rescore SLUG [--background]``: recompute every result and the standings."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from scoring.rescore import rescore_tournament
from scoring.tasks import rescore_tournament_task
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Rescore a tournament through the scoring core (in the background with --background)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--background", action="store_true", help="queue a Celery task instead")

    def handle(self, *args, **options):
        try:
            tournament = Tournament.objects.get(slug=options["slug"])
        except Tournament.DoesNotExist as exc:
            self.stderr.write(f"no tournament with the short name {options['slug']!r}")
            raise SystemExit(2) from exc
        if options["background"]:
            result = rescore_tournament_task.delay(tournament.pk)
            self.stdout.write(f"queued {result.id}")
        else:
            rescore_tournament(tournament_id=tournament.pk)
            self.stdout.write(f"rescored {tournament.slug}")
