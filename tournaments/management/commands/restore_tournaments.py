"""``python manage.py restore_tournaments DIR``: import every bundle of a backup folder."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from preferans.bundle.document import BundleInvalid, load_json
from pulkas.services.bundle import import_bundle
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Import every <slug>.json bundle in DIR under its file name's slug. Tournaments that already exist are "
        "skipped unless --replace. All or nothing: one bad file restores none (exit status 2)."
    )

    def add_arguments(self, parser):
        parser.add_argument("directory")
        parser.add_argument("--replace", action="store_true", help="replace tournaments that already exist")

    def handle(self, *args, **options):
        files = sorted(Path(options["directory"]).glob("*.json"))
        if not files:
            self.stderr.write(f"no bundles (*.json) in {options['directory']}")
            raise SystemExit(2)
        restored, skipped, problems = [], [], []
        with transaction.atomic():
            for path in files:
                slug = path.stem
                existing = Tournament.objects.filter(slug=slug)
                if existing.exists():
                    if not options["replace"]:
                        skipped.append(slug)
                        continue
                    existing.delete()
                try:
                    data = load_json(path.read_text(encoding="utf-8"))
                    import_bundle(data=data, slug=slug, now=timezone.now())
                except (BundleInvalid, ValueError, UnicodeDecodeError) as exc:
                    lines = [str(p) for p in getattr(exc, "problems", ())] or [str(exc)]
                    problems.extend(f"{path.name}: {line}" for line in lines)
                    continue
                restored.append(slug)
            if problems:
                transaction.set_rollback(True)
        if problems:
            for line in problems:
                self.stderr.write(line)
            raise SystemExit(2)
        self.stdout.write(
            f"restored {len(restored)}, skipped {len(skipped)} existing: {', '.join(skipped) or '-'}"
        )
