"""``python manage.py score_bundle PATH`` (formats.md §3): score a bundle without touching the database.

Prints the results and standings as JSON (UTF-8, ``ensure_ascii=False``) on stdout. On invalid input (bad JSON,
unknown field, illegal row, inconsistent seats) it prints nothing on stdout, one line per problem on stderr, and
exits with status 2. ``-`` reads the bundle from stdin.
"""

from __future__ import annotations

import gc
import json
import sys
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser

from preferans.bundle.document import BundleInvalid, load_json
from preferans.duplicate.session_scoring import score_document


class Command(BaseCommand):
    help = "Score a tournament bundle (JSON, format v1) and print results and standings as JSON."
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="bundle file, or - for stdin")

    def handle(self, *args: Any, **options: Any) -> None:
        path: str = options["path"]
        try:
            raw = _read(path)
        except OSError as exc:
            self._fail([f"{path}: cannot read the bundle: {exc.strerror or exc}"])
        try:
            text = raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError as exc:
            self._fail([f"bundle: not UTF-8 text (byte {exc.start})"])
        # A one-shot process building many small objects and no cycles: the cyclic GC only costs time here.
        gc.disable()
        try:
            output = score_document(load_json(text))
        except BundleInvalid as exc:
            self._fail([str(p) for p in exc.problems])
        finally:
            gc.enable()
        _ensure_utf8(self.stdout)
        self.stdout.write(json.dumps(output, ensure_ascii=False))

    def _fail(self, lines: list[str]) -> NoReturn:
        for line in lines:
            self.stderr.write(line, style_func=lambda s: s)
        # A CommandError would exit with status 1; the contract says 2.
        raise SystemExit(2)


def _read(path: str) -> bytes | str:
    if path == "-":
        buffer = getattr(sys.stdin, "buffer", None)
        return buffer.read() if buffer is not None else sys.stdin.read()
    with open(path, "rb") as handle:
        return handle.read()


def _ensure_utf8(wrapper: Any) -> None:
    """Write UTF-8 even where the process locale says otherwise (formats.md: JSON in UTF-8)."""
    stream = getattr(wrapper, "_out", None)
    if stream is sys.stdout and (getattr(stream, "encoding", "") or "").lower().replace("-", "") != "utf8":
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(encoding="utf-8")
