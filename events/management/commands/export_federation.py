"""``python manage.py export_federation SLUG [PATH|-]``: write an event as a federation file
(docs/federation-file.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from events.bundles import tournament_to_bundle
from players.services.interchange import export_text
from preferans.interchange.fields import DocumentInvalid
from tournaments.management.base import TournamentCommand


class Command(TournamentCommand):
    help = "Write a duplicate event as a federation file (to PATH, or to standard output)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument(
            "path", nargs="?", default="-", help="output file, or - for standard output (default)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = self.tournament(options["slug"])
        try:
            text = export_text(tournament, to_bundle=tournament_to_bundle)
        except DocumentInvalid as exc:
            for problem in exc.problems:
                self.stderr.write(str(problem))
            raise SystemExit(2) from exc
        write_out(self, options["path"], text)


def write_out(command: Any, path: str, text: str) -> None:
    """``text`` to the file ``path`` (written whole, UTF-8), or to standard output for ``-``."""
    if path == "-":
        command.stdout.write(text, ending="")
        return
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    except OSError as exc:
        command.stderr.write(f"{path}: cannot write: {exc.strerror or exc}")
        raise SystemExit(2) from exc
