"""``python manage.py pair_round PATH|- [--check SEATING]`` (formats.md §9): seat the next round of a
compensation or Swiss event by ``docs/rules/pairing-spec.md``, without the database, or check a seating.

Prints the seating (§9.2) or the check (§9.3) as JSON on stdout. ``--check`` exits 0 when the seating is valid and
correct, 1 otherwise. Bad input (JSON, keys, types, bounds, ids repeated): nothing on stdout, one line per problem
on stderr, exit status 2.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandParser

from preferans.bundle.document import BundleInvalid, load_json
from preferans.pairing import pair
from preferans.pairing.check import check
from preferans.pairing.document import check_document, pairing_document, read_request, read_seating
from tournaments.management.json_command import JsonFileCommand


class Command(JsonFileCommand):
    help = "Seat the next round of a compensation or Swiss event (JSON, preferans-pairing v1), or check a seating."
    what = "pairing"

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--check", metavar="SEATING", help="a file holding a seating to check (formats §9.3)"
        )

    def _load(self, path: str, what: str) -> object:
        self.what = what
        try:
            return load_json(self.read_text(path))
        except BundleInvalid as exc:  # bad JSON, duplicate keys, NaN
            self.fail([f"{what}: {' '.join(p.message.split())}" for p in exc.problems])

    def handle(self, *args: Any, **options: Any) -> None:
        request, problems = read_request(self._load(options["path"], "pairing"))
        seating = None
        if options.get("check"):
            seating, seating_problems = read_seating(self._load(options["check"], "seating"))
            problems += seating_problems
        if problems or request is None:
            self.fail(problems)
        if seating is None:
            result = pair(request.form, request.per_table, request.players, request.history, request.seed)
            self.write_json(pairing_document(result))
            return
        tables, byes = seating
        checked = check(request.form, request.per_table, request.players, request.history, tables, byes)
        self.write_json(check_document(checked))
        if not checked.correct:
            raise SystemExit(1)
