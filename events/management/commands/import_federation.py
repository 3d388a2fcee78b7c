"""``python manage.py import_federation PATH|-``: create an event from a federation file
(docs/federation-file.md); prints its short name. Invalid input: exit 2, one problem a line, nothing saved."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser
from django.utils import timezone

from events.bundles import import_bundle
from players.services.interchange import import_event
from preferans.interchange.fields import DocumentInvalid
from tournaments.management.json_command import JsonFileCommand


class Command(JsonFileCommand):
    help = "Create a duplicate event from a federation file, linking its players by federation number."
    what = "federation file"

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument("--slug", help="short name to use (default: the file's, else made from the name)")
        parser.add_argument(
            "--link-existing",
            action="store_true",
            help="link the file's players to persons the register holds already (by federation number); without "
            "it a file naming one is refused: only the register's staff vouch for a file",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        text = self.read_text(options["path"])
        try:
            tournament = import_event(
                text,
                import_bundle=import_bundle,
                now=timezone.now(),
                slug=options.get("slug"),
                link_existing=options.get("link_existing", False),
            )
        except DocumentInvalid as exc:
            self.fail([str(problem) for problem in exc.problems])
        self.stdout.write(tournament.slug)
