"""Exact numbers as the interchange formats write them (formats.md §1).

Vists, matchpoints and maxima are exact rationals written as strings: an integer (``"12"``) or a
reduced fraction (``"16/3"``). Percentages are decimal strings rounded half-up to two places.
Pure Python: no Django import.
"""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

from preferans.bundle.bounds import DIGITS_MAX

__all__ = ["NumberFormatError", "format_fraction", "format_percent", "parse_fraction", "percent_of"]

_FRACTION_RE = re.compile(r"^\s*-?\d+(\s*/\s*\d+)?\s*$")


class NumberFormatError(ValueError):
    """A number in the input is not an integer or a fraction written as the formats require."""


def format_fraction(value: Fraction | int) -> str:
    """``Fraction(16, 3)`` → ``"16/3"``; ``Fraction(4)`` → ``"4"``; always reduced, sign in front."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


def parse_fraction(raw: object) -> Fraction:
    """Read a number written as a JSON integer or a string ``"12"``, ``"-7/2"``.

    Floats and booleans are refused: scores are exact, and ``true`` is not a number.
    """
    if isinstance(raw, bool):
        raise NumberFormatError(f"{raw!r} is not a number")
    if isinstance(raw, int):
        return Fraction(raw)
    if isinstance(raw, Fraction):
        return raw
    if isinstance(raw, str) and _FRACTION_RE.match(raw):
        if max(len(digits) for digits in re.findall(r"\d+", raw)) > DIGITS_MAX:  # formats.md §2, before int()
            raise NumberFormatError(f"{raw[:12]!r}… has more than {DIGITS_MAX} digits")
        try:
            result = Fraction(raw.replace(" ", ""))
        except ZeroDivisionError as exc:
            raise NumberFormatError(f"{raw!r} divides by zero") from exc
        return result
    raise NumberFormatError(f'{raw!r} is not an integer or a fraction such as "16/3"')


def percent_of(part: Fraction, whole: Fraction) -> Fraction:
    """100 · part / whole, exact; 0 when there is no maximum to speak of."""
    if whole == 0:
        return Fraction(0)
    return Fraction(100) * Fraction(part) / Fraction(whole)


def format_percent(value: Fraction) -> str:
    """A percentage as a decimal string rounded half-up (away from zero on .5) to two places."""
    value = Fraction(value)
    # The half-up step is decided on the exact value, never on a rounded intermediate.
    scaled = value * 100
    floor = scaled.numerator // scaled.denominator
    remainder = scaled - floor
    if value >= 0:
        cents = floor + (1 if remainder >= Fraction(1, 2) else 0)
    else:
        cents = floor + (1 if remainder > Fraction(1, 2) else 0)
    return str(Decimal(cents).scaleb(-2))
