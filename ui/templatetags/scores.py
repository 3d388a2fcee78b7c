"""Display of exact numbers: scores are kept as fractions and rounded only here, for people to read.

:func:`display_number` is the one place a number becomes text for a person — the pages (the ``score`` filter),
the printed PDFs and the CSV files all call it — so a page and a file of the same language show the same
decimal sign: a comma in Russian (``104,5``), a point in English (``104.5``). Machine formats (the bundle JSON,
the API) keep their exact values and never pass through here.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from django import template
from django.utils.translation import get_language

from preferans.numbers import NumberFormatError, format_percent, parse_fraction

__all__ = ["decimal_sign", "display_number", "exact", "percent", "score"]

register = template.Library()

_DECIMAL = re.compile(r"^\s*-?\d+([.,]\d+)?\s*$")  # a stored rounded percentage such as "59.38"


def decimal_sign(lang: str | None = None) -> str:
    """The decimal sign of a language: ``","`` for Russian (the default), ``"."`` for English. ``None`` means
    the language of the request being answered."""
    lang = lang if lang is not None else (get_language() or "ru")
    return "." if lang.lower().startswith("en") else ","


def _exact(value: object) -> Fraction:
    if isinstance(value, Fraction):
        return value
    if isinstance(value, Decimal):
        return Fraction(value)
    if isinstance(value, str) and _DECIMAL.match(value) and not value.strip().lstrip("-").isdigit():
        try:
            return Fraction(Decimal(value.strip().replace(",", ".")))
        except InvalidOperation as exc:  # pragma: no cover - the pattern admits only decimals
            raise NumberFormatError(value) from exc
    return parse_fraction(value)


def display_number(value: object, lang: str | None = None, *, trim: bool = True) -> str:
    """An exact number for people: ``"63/2"`` → ``"31,5"`` (ru) / ``"31.5"`` (en); ``"16/3"`` → ``"5,33"``.

    Rounded half-up to two places on the exact value (``preferans.numbers.format_percent``); ``trim`` drops
    trailing zeros (``31,5``), without it a percentage keeps both places (``59,30``). A stored rounded decimal
    (``"59.38"``) is shown the same way. Empty for a missing value; text that is no number is shown as is.
    """
    if value is None or value == "":
        return ""
    try:
        number = _exact(value)
    except NumberFormatError:
        return str(value)
    if number.denominator == 1 and trim:
        return str(number.numerator)
    text = format_percent(number)  # half-up to 2 places, decided on the exact value
    if trim:
        text = text.rstrip("0").rstrip(".")
    return text.replace(".", decimal_sign(lang))


@register.filter(name="score")
def score(value: object) -> str:
    """``{{ value|score }}``: the number in the page's language (see :func:`display_number`)."""
    return display_number(value)


@register.filter(name="percent")
def percent(value: object) -> str:
    """``{{ value|percent }}``: a percentage with both places (``59,30``) in the page's language."""
    return display_number(value, trim=False)


@register.filter(name="exact")
def exact(value: object) -> str:
    """The exact value as a tooltip text when it is not a whole number (``"16/3"``), else empty."""
    try:
        f = parse_fraction(value)
    except NumberFormatError:
        return ""
    return "" if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


@register.filter(name="seat_matchpoints")
def seat_matchpoints(result: Any) -> list[tuple[str, int, object]]:
    """A stored row's seats with each seat's participant number and matchpoints (``None`` until scored):
    ``{% for seat, number, mp in result|seat_matchpoints %}``."""
    points = result.matchpoints or {}
    return [(seat, number, points.get(seat)) for seat, number in result.seats().items()]
