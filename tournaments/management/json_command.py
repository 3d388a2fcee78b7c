"""What the file-scoring commands share (formats.md §3, §7): read a JSON file or stdin, write UTF-8 JSON, and
fail with one line per problem on stderr, nothing on stdout, exit status 2."""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser


class JsonFileCommand(BaseCommand):
    """A command that reads one JSON document (a path, or ``-`` for stdin) and prints one JSON document."""

    requires_system_checks: list[str] = []
    what = "file"

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help=f"{self.what} file, or - for stdin")

    def read_text(self, path: str) -> str:
        try:
            raw = _read(path)
        except OSError as exc:
            self.fail([f"{path}: cannot read the {self.what}: {exc.strerror or exc}"])
        try:
            return raw.decode("utf-8-sig") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError as exc:
            self.fail([f"{self.what}: not UTF-8 text (byte {exc.start})"])

    def write_json(self, output: object) -> None:
        _ensure_utf8(self.stdout)
        self.stdout.write(json.dumps(output, ensure_ascii=False))

    def fail(self, lines: list[str]) -> NoReturn:
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
