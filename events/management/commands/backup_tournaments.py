"""``python manage.py backup_tournaments DIR``: write every tournament as a bundle, one file per tournament."""

from __future__ import annotations

import json
import os
from pathlib import Path

from django.core.management.base import BaseCommand

from events.bundles import export_bundle
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Write every tournament as a bundle <slug>.json into DIR (created if missing)."

    def add_arguments(self, parser):
        parser.add_argument("directory")

    def handle(self, *args, **options):
        target = Path(options["directory"])
        target.mkdir(parents=True, exist_ok=True)
        count = 0
        for tournament in Tournament.objects.order_by("slug"):
            path = target / f"{tournament.slug}.json"
            tmp = path.with_suffix(".json.tmp")
            tmp.write_text(
                json.dumps(export_bundle(tournament), ensure_ascii=False, indent=1) + "\n",
                encoding="utf-8",
            )
            os.replace(tmp, path)  # a crash never leaves a half-written backup under the real name
            count += 1
        self.stdout.write(f"{count} tournament(s) written to {target}")
