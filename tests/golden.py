"""The golden test data of ``tests/data`` (see its README): the one way tests find it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"


def path(name: str) -> Path:
    """The file ``tests/data/<name>``; a missing one is an error that says where it was looked for."""
    found = DATA / name
    if not found.is_file():
        raise FileNotFoundError(f"golden test data {name!r} is not in {DATA}")
    return found


def load(name: str) -> Any:
    """A JSON file of ``tests/data``, decoded."""
    return json.loads(path(name).read_text(encoding="utf-8"))


def text(name: str) -> str:
    return path(name).read_text(encoding="utf-8")
