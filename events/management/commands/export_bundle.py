"""``python manage.py export_bundle SLUG [PATH]``: write a tournament back as a bundle (formats.md §6)."""

from __future__ import annotations

import json

from events.bundles import export_bundle
from tournaments.management.base import TournamentCommand


class Command(TournamentCommand):
    help = "Write a tournament as a bundle (to PATH, or to standard output)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("path", nargs="?", help="output file (default: standard output)")

    def handle(self, *args, **options):
        tournament = self.tournament(options["slug"])
        text = json.dumps(export_bundle(tournament), ensure_ascii=False, indent=1)
        if options.get("path"):
            with open(options["path"], "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
        else:
            self.stdout.write(text)
