"""``python manage.py import_bundle PATH|-``: create a tournament from a bundle (formats.md §6). The file is read as
every JSON command reads one (``JsonFileCommand.read_text``: UTF-8, a byte-order mark accepted)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser
from django.utils import timezone

from events.bundles import import_bundle
from preferans.bundle.document import BundleInvalid, load_json
from tournaments.management.json_command import JsonFileCommand


class Command(JsonFileCommand):
    help = (
        "Create a tournament (participants, sessions, boards, results) from a bundle; prints its slug last."
    )
    what = "bundle"

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--slug", help="short name to use (default: made from the tournament's name)")
        parser.add_argument(
            "--link-existing",
            action="store_true",
            help="link participants to the persons the register holds (by federation number) at once; without it "
            "those links are only proposed for the register's staff to confirm",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        text = self.read_text(options["path"])
        try:
            tournament = import_bundle(
                data=load_json(text),
                slug=options.get("slug"),
                now=timezone.now(),
                trusted_links=bool(options.get("link_existing")),
            )
        except BundleInvalid as exc:
            self.fail([str(problem) for problem in exc.problems])
        self.stdout.write(tournament.slug)
