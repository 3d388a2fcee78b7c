"""``python manage.py import_bundle PATH|-``: create a tournament from a bundle (formats.md §6)."""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand
from django.utils import timezone

from events.bundles import import_bundle
from preferans.bundle.document import BundleInvalid, load_json


class Command(BaseCommand):
    help = (
        "Create a tournament (participants, sessions, boards, results) from a bundle; prints its slug last."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help="bundle file, or - for standard input")
        parser.add_argument("--slug", help="short name to use (default: made from the tournament's name)")

    def handle(self, *args, **options):
        path = options["path"]
        try:
            if path == "-":
                text = sys.stdin.read()
            else:
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
        except OSError as exc:
            self.stderr.write(f"cannot read {path}: {exc.strerror}")
            raise SystemExit(2) from exc
        try:
            tournament = import_bundle(data=load_json(text), slug=options.get("slug"), now=timezone.now())
        except BundleInvalid as exc:
            for problem in exc.problems:
                self.stderr.write(str(problem))
            raise SystemExit(2) from exc
        self.stdout.write(tournament.slug)
