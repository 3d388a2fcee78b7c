"""Artificial adjusted results and per-seat adjustments of a row (duplicate rules §11.2 B1, §11.3 C, §11.6 B).

Seed 004 §11.2 Б.1: «судья назначает искусственный присужденный результат: 40% от макса (средний минус) для
безусловно виновной стороны; 50% (среднее) для частично виновной стороны; и по меньшей мере 60% (средний плюс)
для невиновной стороны» — 40 % of the top for the side at fault, 50 % for a side partly at fault, *at least*
60 % for the non-offending side.

* :func:`artificial_bounds` — the one check of a tournament's three percentages (settings page, bundle import,
  API): A− = 40 % and A = 50 % are fixed by the book; only A+ is the organisers' setting, at least 60 % and at
  most 100 %.
* :func:`seat_percent_problems` — the one check of a row's per-seat percentages (``percent`` of formats.md
  §2.1): on an artificial row a non-offender (``A+``) may get more than the tournament's A+ («по меньшей мере»),
  never less; on a played or assigned row a seat taken out of the comparison gets any percentage 0–100 (§11.3 C:
  the offender's least favourable result is 0 %).
* :func:`annulled_problems` — the seats whose result on a row is annulled (§11.6 B: a player's *second* result
  on a board); at least one seat keeps its result, or the whole row would be deleted instead.

Every problem is returned as a :class:`Problem` with a stable ``code``, its ``params`` and an English text; the
Django layer translates by code. Pure Python, exact fractions, no Django import.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

__all__ = [
    "BOOK_AVERAGE",
    "BOOK_MINUS",
    "BOOK_PLUS_AT_LEAST",
    "GRADES",
    "Problem",
    "annulled_problems",
    "artificial_bounds",
    "parse_percent",
    "seat_percent_problems",
]

GRADES: Final = ("A-", "A", "A+")
BOOK_MINUS: Final = Fraction(40)
"""§11.2 Б.1: «40% от макса (средний минус) для безусловно виновной стороны» — what the side at fault gets, fixed."""
BOOK_AVERAGE: Final = Fraction(50)
"""§11.2 Б.1: «50% (среднее) для частично виновной стороны» — what a side partly at fault gets, fixed."""
BOOK_PLUS_AT_LEAST: Final = Fraction(60)
"""§11.2 Б.1: «по меньшей мере 60% (средний плюс) для невиновной стороны» — the least a non-offender gets."""


@dataclass(frozen=True)
class Problem:
    """Why a percentage is refused: a stable ``code``, its ``params`` and the English ``message``."""

    code: str
    message: str
    params: Mapping[str, Any] = field(default_factory=dict)
    field: str = ""


_PERCENT_RE = re.compile(r"^\s*\d+(?:[.,]\d+)?\s*$|^\s*\d+\s*/\s*[1-9]\d*\s*$")


def parse_percent(raw: object) -> Fraction:
    """A percentage of the top as written: ``65``, ``62.5`` (or ``62,5``), ``125/2``; ValueError otherwise."""
    if isinstance(raw, bool):
        raise ValueError(f"{raw!r} is not a percentage")
    if isinstance(raw, int | Fraction):
        return Fraction(raw)
    if isinstance(raw, str) and _PERCENT_RE.match(raw):
        return Fraction(raw.replace(",", ".").replace(" ", ""))
    raise ValueError(f"{raw!r} is not a percentage such as 65 or 62.5")


def _text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def artificial_bounds(values: Mapping[str, Fraction | int]) -> list[Problem]:
    """The tournament's percentages of the top for A−, A, A+ against the book's bounds (empty: accepted)."""
    problems: list[Problem] = []
    for grade in GRADES:
        value = values.get(grade)
        if value is None or not 0 <= value <= 100:
            problems.append(
                Problem(
                    "artificial_range",
                    f"the artificial result {grade} must be a percentage 0–100",
                    {"grade": grade},
                    grade,
                )
            )
    if problems:
        return problems
    minus, average, plus = (Fraction(values[g]) for g in GRADES)
    if minus != BOOK_MINUS:
        problems.append(
            Problem(
                "artificial_minus_fixed",
                f"A- is {_text(BOOK_MINUS)} % for the side at fault, fixed by the book (rules §11.2 B1)",
                {"value": _text(minus), "bound": _text(BOOK_MINUS)},
                "A-",
            )
        )
    if average != BOOK_AVERAGE:
        problems.append(
            Problem(
                "artificial_average_fixed",
                f"A is {_text(BOOK_AVERAGE)} % for a side partly at fault, fixed by the book (rules §11.2 B1)",
                {"value": _text(average), "bound": _text(BOOK_AVERAGE)},
                "A",
            )
        )
    if plus < BOOK_PLUS_AT_LEAST:
        problems.append(
            Problem(
                "artificial_plus_low",
                f"A+ is at least {_text(BOOK_PLUS_AT_LEAST)} % for the non-offending side (rules §11.2 B1)",
                {"value": _text(plus), "bound": _text(BOOK_PLUS_AT_LEAST)},
                "A+",
            )
        )
    return problems


def seat_percent_problems(
    percent: Mapping[str, Fraction],
    *,
    adjusted: Mapping[str, str] | None,
    artificial: Mapping[str, Fraction],
    seats: Iterable[str],
) -> list[Problem]:
    """Per-seat percentages of a row: on an artificial row (``adjusted``) only a non-offender's (``A+``) and at
    least the tournament's A+; on a played or assigned row any seat, 0–100."""
    seated = set(seats)
    problems: list[Problem] = []
    for seat, value in percent.items():
        where = f"percent.{seat}"
        if seat not in seated:
            problems.append(
                Problem("percent_seat", f"percent: {seat} is not a seat at this table", {"seat": seat}, where)
            )
            continue
        if not 0 <= value <= 100:
            problems.append(
                Problem(
                    "percent_range",
                    f"percent {seat}: a percentage of the top is 0–100",
                    {"seat": seat},
                    where,
                )
            )
            continue
        if adjusted is None:
            continue
        grade = adjusted.get(seat)
        floor = Fraction(artificial.get("A+", BOOK_PLUS_AT_LEAST))
        if grade != "A+":
            problems.append(
                Problem(
                    "percent_not_plus",
                    f"percent {seat}: only a non-offender's artificial result (A+) may "
                    "be raised (rules §11.2 B1)",
                    {"seat": seat, "grade": grade or ""},
                    where,
                )
            )
        elif value < floor:
            problems.append(
                Problem(
                    "percent_below_plus",
                    f"percent {seat}: a non-offender gets at least {_text(floor)} % (rules §11.2 B1)",
                    {"seat": seat, "bound": _text(floor)},
                    where,
                )
            )
    return problems


def annulled_problems(
    annulled: Sequence[str], *, seats: Iterable[str], artificial_row: bool
) -> list[Problem]:
    """Seats whose result on the row is annulled (§11.6 B): seated, each once, not all of them, on a row that
    has a result to annul (a played or assigned one)."""
    seated = list(seats)
    problems: list[Problem] = []
    if artificial_row and annulled:
        problems.append(
            Problem(
                "annulled_artificial", "an artificial result has no played result to annul", {}, "annulled"
            )
        )
    unknown = [s for s in annulled if s not in seated]
    if unknown:
        problems.append(
            Problem(
                "annulled_seat",
                f"annulled: {', '.join(unknown)} is not a seat at this table",
                {"seats": ", ".join(unknown)},
                "annulled",
            )
        )
    if len(set(annulled)) != len(annulled):
        problems.append(Problem("annulled_twice", "annulled: a seat is named twice", {}, "annulled"))
    if seated and set(seated) <= set(annulled):
        problems.append(
            Problem(
                "annulled_all",
                "annulled: every seat's result cannot be annulled on the row — delete the row instead",
                {},
                "annulled",
            )
        )
    return problems
