"""``python manage.py rescore SLUG [--background]``: recompute every result and the standings."""

from __future__ import annotations

from scoring.rescore import rescore_tournament
from scoring.tasks import rescore_tournament_task
from tournaments.management.base import TournamentCommand


class Command(TournamentCommand):
    help = "Rescore a tournament through the scoring core (in the background with --background)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--background", action="store_true", help="queue a Celery task instead")

    def handle(self, *args, **options):
        tournament = self.tournament(options["slug"])
        if options["background"]:
            result = rescore_tournament_task.delay(tournament.pk)
            self.stdout.write(f"queued {result.id}")
        else:
            rescore_tournament(tournament_id=tournament.pk)
            self.stdout.write(f"rescored {tournament.slug}")
