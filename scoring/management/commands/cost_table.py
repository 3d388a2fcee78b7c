"""``python manage.py cost_table --variant sochi|leningrad|rostov --players 3|4 [--format text|csv] [--rules JSON]``

Prints the organisers' table of game costs in vists (spec §10), generated from the scoring core.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from preferans.game import (
    VARIANTS,
    RulesError,
    cost_table,
    format_cost_table_csv,
    format_cost_table_text,
    make_rules,
)


class Command(BaseCommand):
    help = "Print the table of game costs in vists (scoring spec §10) for a variant and a table size."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--variant", required=True, help=f"one of {', '.join(VARIANTS)}")
        parser.add_argument("--players", required=True, help="players at a table: 3 or 4")
        parser.add_argument("--format", default="text", dest="output_format", help="text (default) or csv")
        parser.add_argument(
            "--rules",
            default=None,
            help="overrides of the variant as a JSON object, keys of docs/rules-keys.md, e.g. '{\"consolation\": 15}'",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        variant = options["variant"]
        if variant not in VARIANTS:
            raise CommandError(f"unknown variant {variant!r} — use one of {', '.join(VARIANTS)}")
        players_raw = options["players"]
        if players_raw not in ("3", "4", 3, 4):
            raise CommandError(f"--players must be 3 or 4, not {players_raw!r}")
        output_format = options["output_format"]
        if output_format not in ("text", "csv"):
            raise CommandError(f"--format must be text or csv, not {output_format!r}")
        overrides: dict[str, object] = {}
        if options["rules"] is not None:
            try:
                parsed = json.loads(options["rules"])
            except json.JSONDecodeError as exc:
                raise CommandError(f"--rules is not valid JSON: {exc}") from exc
            if not isinstance(parsed, dict):
                raise CommandError("--rules must be a JSON object such as '{\"consolation\": 15}'")
            overrides = parsed
        try:
            rules = make_rules(variant, overrides)
        except RulesError as exc:
            raise CommandError(str(exc)) from exc
        table = cost_table(rules, int(players_raw))
        if output_format == "csv":
            self.stdout.write(format_cost_table_csv(table), ending="")
        else:
            self.stdout.write(format_cost_table_text(table), ending="")
