"""``python manage.py score_pulka PATH|-`` (formats.md §7): score one pulka without touching the database.

Prints the sheet after every deal and the final result as JSON (UTF-8) on stdout. On invalid input (bad JSON,
unknown field, illegal row, a deal after the end or beyond ``max_deals``, a wrong ``raspasy_step`` or exit from
raspasy, a number of players other than 3 or 4) it prints nothing on stdout, one line per problem on stderr
naming the deal (``deal 7: …``) or the field, and exits with status 2.
"""

from __future__ import annotations

from typing import Any

from preferans.bundle.document import BundleInvalid, load_json
from preferans.pulka import PulkaInvalid
from preferans.pulka.document import result_document, score_document
from tournaments.management.json_command import JsonFileCommand


class Command(JsonFileCommand):
    help = (
        "Score a pulka (JSON, preferans-pulka v1): the sheet after every deal, the settlement and the ranks."
    )
    what = "pulka"

    def handle(self, *args: Any, **options: Any) -> None:
        text = self.read_text(options["path"])
        try:
            document, score = score_document(load_json(text))
        except BundleInvalid as exc:  # bad JSON, duplicate keys, NaN
            self.fail([f"pulka: {' '.join(p.message.split())}" for p in exc.problems])
        except PulkaInvalid as exc:
            self.fail([str(p) for p in exc.problems])
        self.write_json(result_document(document, score))
