"""``python manage.py score_bundle PATH`` (formats.md §3): score a bundle without touching the database.

Prints the results and standings as JSON (UTF-8, ``ensure_ascii=False``) on stdout. On invalid input (bad JSON,
unknown field, illegal row, inconsistent seats) it prints nothing on stdout, one line per problem on stderr, and
exits with status 2. ``-`` reads the bundle from stdin.
"""

from __future__ import annotations

import gc
from typing import Any

from preferans.bundle.document import BundleInvalid, load_json
from preferans.duplicate.session_scoring import score_document
from tournaments.management.json_command import JsonFileCommand


class Command(JsonFileCommand):
    help = "Score a tournament bundle (JSON, format v1) and print results and standings as JSON."
    what = "bundle"

    def handle(self, *args: Any, **options: Any) -> None:
        text = self.read_text(options["path"])
        # A one-shot process building many small objects and no cycles: the cyclic GC only costs time here.
        gc.disable()
        try:
            output = score_document(load_json(text))
        except BundleInvalid as exc:
            self.fail([str(p) for p in exc.problems])
        finally:
            gc.enable()
        self.write_json(output)
