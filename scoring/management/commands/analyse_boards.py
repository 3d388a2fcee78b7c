"""``python manage.py analyse_boards PATH|-`` (formats.md §8.2): what each active seat makes as declarer in every
strain and at misère, after his best discard of two from twelve cards, with the discard.

Prints a JSON list in the input order. On an illegal input (§8.3) it prints nothing on stdout, one line per problem
on stderr naming the board counted from 1, and exits with status 2.
"""

from __future__ import annotations

from typing import Any

from preferans.bundle.document import BundleInvalid, load_json
from preferans.dd.board import analyse_board, analysis_json, parse_boards
from preferans.dd.engine import search_factory
from preferans.dd.position import PositionInvalid
from tournaments.management.json_command import JsonFileCommand


class Command(JsonFileCommand):
    help = (
        "Analyse whole boards double dummy (JSON list, formats.md §8.2): each active seat's most tricks in "
        "S C D H NT and fewest at misère after his best discard, with the discards, as JSON."
    )
    what = "boards"

    def handle(self, *args: Any, **options: Any) -> None:
        text = self.read_text(options["path"])
        try:
            boards = parse_boards(load_json(text))
        except BundleInvalid as exc:
            self.fail([f"boards: {p.message}" for p in exc.problems])
        except PositionInvalid as exc:
            self.fail(list(exc.problems))
        factory = search_factory()
        self.write_json([analysis_json(board, analyse_board(board, factory)) for board in boards])
