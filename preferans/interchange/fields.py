"""A federation file's problems and the checks of one field that every part of the file uses.

Each check adds a :class:`DocumentProblem` (a JSON path such as ``$.persons[2].federation_id`` and what is
wrong) to a :class:`Found` and returns the value in canonical form, so that a reader lists every problem of a
file at once. Pure Python, no Django import.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from preferans.bundle.bounds import PARTICIPANTS_MAX, TEXT_MAX, control_characters
from preferans.bundle.shape import describe
from preferans.numbers import NumberFormatError, format_fraction, parse_fraction

__all__ = [
    "DocumentInvalid",
    "DocumentProblem",
    "Found",
    "check_fraction",
    "check_keys",
    "check_list",
    "check_text",
]


@dataclass(frozen=True)
class DocumentProblem:
    """One problem of a file: where it is (a JSON path such as ``$.persons[2].federation_id``) and what."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {' '.join(self.message.split())}"


class DocumentInvalid(ValueError):
    """The file breaks the format; ``problems`` lists every problem found."""

    def __init__(self, problems: list[DocumentProblem] | tuple[DocumentProblem, ...]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class Found:
    """The problems found so far in one file."""

    def __init__(self) -> None:
        self.items: list[DocumentProblem] = []

    def add(self, path: str, message: str) -> None:
        self.items.append(DocumentProblem(path, message))

    def __len__(self) -> int:
        return len(self.items)


def check_keys(
    found: Found,
    path: str,
    obj: Mapping[str, Any],
    allowed: tuple[str, ...],
    required: tuple[str, ...],
    what: str,
) -> None:
    """Unknown fields are errors, never ignored; a missing required field is one too."""
    for key in obj:
        if key not in allowed:
            found.add(f"{path}.{key}" if isinstance(key, str) else path, f"unknown field {key!r} in a {what}")
    for key in required:
        if key not in obj:
            found.add(path, f"missing field {key!r} — a {what} needs it")


def check_text(
    found: Found, path: str, value: object, *, bound: int = TEXT_MAX, required: bool = False
) -> str:
    """A text on one line, at most ``bound`` characters (not empty when ``required``)."""
    if not isinstance(value, str):
        found.add(path, f"must be a string, not {describe(value)}")
        return ""
    if len(value) > bound:
        found.add(path, f"longer than {bound} characters ({len(value)})")
    if control_characters(value):
        found.add(path, "holds a control character (a line break, tab or similar) — write it on one line")
    if required and not value.strip():
        found.add(path, "must not be empty")
    return value


def check_fraction(
    found: Found, path: str, value: object, *, low: Fraction | None = None, high: Fraction | None = None
) -> str:
    """An exact number (``"12"``, ``"7/2"``) within ``low``…``high``, written back as the formats write it."""
    try:
        number = parse_fraction(value)
    except NumberFormatError as exc:
        found.add(path, f'{exc} — write an exact number such as "12" or "7/2"')
        return ""
    if low is not None and number < low:
        found.add(path, f"{format_fraction(number)} is below {format_fraction(low)}")
    if high is not None and number > high:
        found.add(path, f"{format_fraction(number)} is above {format_fraction(high)}")
    return format_fraction(number)


def check_list(raw: object, found: Found, path: str, what: str) -> list[Any]:
    """A list of at most as many items as an event has participants (an empty list when it is not one)."""
    if not isinstance(raw, list):
        found.add(path, f"must be a list, not {describe(raw)}")
        return []
    if len(raw) > PARTICIPANTS_MAX:
        found.add(path, f"at most {PARTICIPANTS_MAX} {what}, not {len(raw)}")
        return []
    return raw
