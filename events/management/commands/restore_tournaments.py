"""``python manage.py restore_tournaments DIR``: import every bundle of a backup folder."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from events.bundles import import_bundle
from preferans.bundle.document import BundleInvalid, load_json
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
        loaded: dict[str, object] = {}
        for path in files:
            try:
                loaded[path.stem] = load_json(path.read_text(encoding="utf-8"))
            except (BundleInvalid, ValueError, UnicodeDecodeError) as exc:
                lines = [str(p) for p in getattr(exc, "problems", ())] or [str(exc)]
                problems.extend(f"{path.name}: {line}" for line in lines)
        with transaction.atomic():
            for slug in _qualifications_first(loaded):
                existing = Tournament.objects.filter(slug=slug)
                if existing.exists():
                    if not options["replace"]:
                        skipped.append(slug)
                        continue
                    existing.delete()
                try:
                    # The site's own backups: their links to the register are restored, not proposed again.
                    import_bundle(data=loaded[slug], slug=slug, now=timezone.now(), trusted_links=True)
                except (BundleInvalid, ValueError) as exc:
                    lines = [str(p) for p in getattr(exc, "problems", ())] or [str(exc)]
                    problems.extend(f"{slug}.json: {line}" for line in lines)
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


def _qualifications_first(loaded: dict[str, object]) -> list[str]:
    """The slugs in name order, except that a final comes after the qualification it names (docs/formats.md §2.2)
    when that qualification is restored from the same directory."""

    def qualification(slug: str) -> str | None:
        data = loaded[slug]
        tournament = data.get("tournament") if isinstance(data, dict) else None
        named = tournament.get("qualification") if isinstance(tournament, dict) else None
        return named if isinstance(named, str) and named in loaded and named != slug else None

    def depth(slug: str, seen: frozenset[str] = frozenset()) -> int:
        named = qualification(slug)
        return 0 if named is None or named in seen else 1 + depth(named, seen | {slug})

    return sorted(loaded, key=lambda slug: (depth(slug), slug))
