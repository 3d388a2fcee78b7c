"""``python manage.py solve_positions PATH|-`` (formats.md §8.1): the exact double-dummy tricks of positions.

Prints a JSON list in the input order, ``[{"tricks": n}, ...]``. On an illegal input (§8.3) it prints nothing on
stdout, one line per problem on stderr naming the position counted from 1, and exits with status 2.
"""

from __future__ import annotations

from typing import Any

from preferans.bundle.document import BundleInvalid, load_json
from preferans.dd.engine import search_factory
from preferans.dd.position import PositionInvalid, parse_positions
from preferans.dd.solver import solve
from tournaments.management.json_command import JsonFileCommand


class Command(JsonFileCommand):
    help = (
        "Solve double-dummy positions (JSON list, formats.md §8.1) and print the declarer's tricks as JSON."
    )
    what = "positions"

    def handle(self, *args: Any, **options: Any) -> None:
        text = self.read_text(options["path"])
        try:
            positions = parse_positions(load_json(text))
        except BundleInvalid as exc:
            self.fail([f"positions: {p.message}" for p in exc.problems])
        except PositionInvalid as exc:
            self.fail(list(exc.problems))
        factory = search_factory()
        self.write_json([{"tricks": solve(p, factory(p.trump, p.declarer, p.goal))} for p in positions])
