"""``python manage.py movement --participants N`` (formats.md §4): print the movement for N participants.

JSON in the shape of formats.md §4 (the default, ``--format json``), or text a director can follow without
the docs (``--format text``). A number of participants that cannot be seated, or a scheme that does not exist for N:
exit status 2, a clear message on stderr and nothing on stdout.
"""

from __future__ import annotations

import json
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser

from preferans.movements import MovementError, movement_to_dict, plan, render_text


class Command(BaseCommand):
    help = (
        "Print the movement (seating, sets, table cards and the director's row of sets) for N participants. "
        "--scheme auto chooses: the book's special scheme where one exists (8, 9, 12, 13, 16, 18, 24), the basic "
        "movement for a prime number of tables, otherwise the best of rooms, skip, substitutes and cyclic "
        "schemes with rests (and says why). Exit status 2 when no movement exists."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--participants", type=int, required=True, help="number of participants N (at least 6)"
        )
        parser.add_argument(
            "--per-table",
            type=int,
            choices=[3, 4],
            default=None,
            help="players per table; default: auto tries 4 and then 3, basic takes 4 if N allows it, else 3",
        )
        parser.add_argument(
            "--scheme",
            choices=["auto", "basic", "book"],
            default="auto",
            help="auto (default): the planner; basic: §5 basic movement (skip procedure if the number of tables "
            "is not prime); book: the book's special scheme for N",
        )
        parser.add_argument(
            "--format",
            choices=["json", "text"],
            default="json",
            help="output format: json (default, formats.md §4) or text for the director",
        )
        parser.add_argument(
            "--rooms",
            type=int,
            default=None,
            help="split into this many rooms playing the same boards (basic movement in each room)",
        )
        parser.add_argument(
            "--rounds",
            type=int,
            default=None,
            help="shorten the session to K rounds (announced in advance, §5); default: the full scheme, "
            "at most 13 rounds for the planner",
        )
        parser.add_argument(
            "--deals-per-set", type=int, default=0, help="deals per set (default: players per table, §4)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        n: int = options["participants"]
        rooms: int | None = options["rooms"]
        if rooms is not None and rooms < 1:
            self._fail(f"--rooms must be at least 1, not {rooms}")
        if options["deals_per_set"] < 0:
            self._fail("--deals-per-set must not be negative")
        try:
            result = plan(
                n,
                per_table=options["per_table"],
                scheme=options["scheme"],
                rounds=options["rounds"],
                rooms=rooms,
                deals_per_set=options["deals_per_set"],
            )
        except MovementError as exc:
            self._fail(str(exc))
        if options["format"] == "json":
            data = movement_to_dict(result.movement, result.properties)
            data["explanation"] = list(result.explanation)
            self.stdout.write(json.dumps(data, ensure_ascii=False))
        else:
            self.stdout.write(
                render_text(result.movement, result.explanation, result.alternatives), ending=""
            )

    def _fail(self, message: str) -> NoReturn:
        self.stderr.write(f"movement: {message}")
        raise SystemExit(2)
