"""The bounds of everything that enters (formats.md §2), and a JSON reader that refuses size and depth first.

One place for the numbers: the bundle, the director's forms, the participants import and the API all check
these, so a value one channel accepts is accepted by every channel. Readers check a bound before doing work
that grows with it (a movement of a million tables is refused, never built).

Pure Python, no Django import.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from typing import Any

__all__ = [
    "BOARDS_MAX",
    "DEPTH_MAX",
    "DIGITS_MAX",
    "LONG_TEXT_MAX",
    "PARTICIPANTS_MAX",
    "PARTICIPANT_NUMBER_MAX",
    "REASON_MAX",
    "ROOMS_MAX",
    "ROUNDS_MAX",
    "TABLES_MAX",
    "TEXT_MAX",
    "JsonTooDeep",
    "JsonTooLarge",
    "JsonNumberTooLong",
    "JsonRefused",
    "StrictJsonInvalid",
    "bounded_json",
    "strict_json",
    "control_characters",
    "depth_of",
    "strip_controls",
]

PARTICIPANT_NUMBER_MAX = 9999
PARTICIPANTS_MAX = 9999
TABLES_MAX = 500  # a room
ROOMS_MAX = 99
ROUNDS_MAX = 999
BOARDS_MAX = 9999  # a session
TEXT_MAX = 200  # names, clubs and other short texts
REASON_MAX = 1000
LONG_TEXT_MAX = 4000  # appeal texts, statements, rulings
DIGITS_MAX = 30  # in a numerator or a denominator
DEPTH_MAX = 20  # JSON nesting

_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_LINE_BREAKS = re.compile(r"[\t\n\r\u2028\u2029\x85]")


def control_characters(text: str, *, lines: bool = False) -> bool:
    """Whether ``text`` holds a control character (tabs and line breaks count, unless ``lines``)."""
    if _CONTROLS.search(text) is not None:
        return True
    return not lines and _LINE_BREAKS.search(text) is not None


def strip_controls(text: str, *, lines: bool = False) -> str:
    """``text`` without control characters: line breaks and tabs become spaces (kept when ``lines``, as
    ``\\n``), the others are dropped. Every text a person types goes through this one function."""
    if lines:
        text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\u2028", "\n").replace("\u2029", "\n")
        text = text.replace("\x85", "\n")
    else:
        text = _LINE_BREAKS.sub(" ", text)
    text = _CONTROLS.sub("", text)
    # Format characters that reorder or hide text (bidi overrides, zero-width joiners at the edges) stay out too.
    return "".join(c for c in text if unicodedata.category(c) != "Cf" or c in "\u200c\u200d")


class JsonRefused(ValueError):
    """A JSON text refused before it is decoded; ``message`` says which bound it breaks (English; channels
    translate by ``kind``), ``limit`` is the bound."""

    kind = "json"

    def __init__(self, message: str, limit: int) -> None:
        self.message = message
        self.limit = limit
        super().__init__(message)


class JsonTooLarge(JsonRefused):
    kind = "size"


class JsonTooDeep(JsonRefused):
    kind = "depth"


class JsonNumberTooLong(JsonRefused):
    kind = "digits"


_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


def _check_depth(text: str, limit: int) -> None:
    depth = 0
    for match in _BRACKETS.finditer(_STRINGS.sub('""', text)):
        if match.group() in "[{":
            depth += 1
            if depth > limit:
                raise JsonTooDeep(f"JSON nested more than {limit} levels deep", limit)
        else:
            depth -= 1


def depth_of(value: object) -> int:
    """How deeply a decoded JSON value nests (a scalar: 0, ``[]``: 1); stops counting past :data:`DEPTH_MAX`."""
    stack: list[tuple[object, int]] = [(value, 0)]
    deepest = 0
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict | list):
            level += 1
            deepest = max(deepest, level)
            if deepest > DEPTH_MAX:
                return deepest
            stack.extend((child, level) for child in (node.values() if isinstance(node, dict) else node))
    return deepest


def bounded_json(
    text: str | bytes,
    *,
    max_chars: int | None = None,
    max_depth: int = DEPTH_MAX,
    max_digits: int = DIGITS_MAX,
    **loads: Any,
) -> Any:
    """``json.loads`` that first refuses a text longer than ``max_chars``, nested deeper than ``max_depth``
    (Python's decoder would recurse until it fails) and numbers with more than ``max_digits`` digits (before
    ``int()`` spends time on them). Raises :class:`JsonRefused`, or ``json.JSONDecodeError``/``ValueError`` as
    ``json.loads`` does; ``loads`` are passed on (``object_pairs_hook``, ``parse_constant``)."""
    if isinstance(text, bytes | bytearray):
        if max_chars is not None and len(text) > max_chars:
            raise JsonTooLarge(f"more than {max_chars} bytes of JSON", max_chars)
        text = text.decode("utf-8")
    if max_chars is not None and len(text) > max_chars:
        raise JsonTooLarge(f"more than {max_chars} characters of JSON", max_chars)
    _check_depth(text, max_depth)

    def number(kind: Callable[[str], Any]) -> Callable[[str], Any]:
        def parse(digits: str) -> Any:
            if sum(c.isdigit() for c in digits) > max_digits:
                raise JsonNumberTooLong(f"a number longer than {max_digits} digits", max_digits)
            return kind(digits)

        return parse

    return json.loads(text, parse_int=number(int), parse_float=number(float), **loads)


class StrictJsonInvalid(ValueError):
    """A text :func:`strict_json` refuses: ``messages`` are the reasons, each starting «bad JSON: »;
    ``refused`` is true when a bound (size, depth, digits) refused it before decoding."""

    def __init__(self, messages: list[str], *, refused: bool = False) -> None:
        super().__init__("; ".join(messages))
        self.messages = messages
        self.refused = refused


def strict_json(text: str | bytes, *, max_chars: int | None = None) -> Any:
    """JSON as the project's files take it: bounded (:func:`bounded_json`), bytes read as UTF-8 (a BOM
    allowed), a key twice in one object and NaN/Infinity refused. Raises :class:`StrictJsonInvalid`."""
    duplicates: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        obj: dict[str, Any] = {}
        for key, value in items:
            if key in obj:
                duplicates.append(key)
            obj[key] = value
        return obj

    def constant(name: str) -> object:
        raise ValueError(f"{name} is not a number in JSON")

    try:
        if isinstance(text, bytes | bytearray):
            if max_chars is not None and len(text) > max_chars:
                raise JsonTooLarge(f"more than {max_chars} bytes of JSON", max_chars)
            text = bytes(text).decode("utf-8-sig")
        data = bounded_json(text, max_chars=max_chars, object_pairs_hook=pairs, parse_constant=constant)
    except JsonRefused as exc:
        raise StrictJsonInvalid([f"bad JSON: {exc.message}"], refused=True) from exc
    except UnicodeDecodeError as exc:
        raise StrictJsonInvalid([f"not UTF-8 text (byte {exc.start})"]) from exc
    except json.JSONDecodeError as exc:
        raise StrictJsonInvalid([f"bad JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"]) from exc
    except ValueError as exc:
        raise StrictJsonInvalid([f"bad JSON: {exc}"]) from exc
    if duplicates:
        raise StrictJsonInvalid(
            [f"bad JSON: the key {key!r} appears twice in one object" for key in dict.fromkeys(duplicates)]
        )
    return data
