"""Display of exact numbers: scores are kept as fractions and rounded only here, for people to read.

:func:`display_number` is the one place a number becomes text for a person, in both forms — the pages (the
``score``, ``percent``, ``vists`` and ``whole`` filters), the drawn pulka sheet, the printed PDFs and the CSV
files all call it — so a page and a file of the same language show the same decimal sign: a comma in Russian
(``104,5``), a point in English (``104.5``). Machine formats (the bundle JSON, the API) keep their exact values
and never pass through here.

Two notations, one function:

- a duplicate event's matchpoints and vists (``score``): half-up to two places, trailing zeros dropped (``31,5``);
- a pulka figure (``vists``: exact vists, a deal's result, a rating, the compensation column, a total): always
  two places (``28,67``, ``12,00``) and the typographic minus (``−2,67``); a whole figure of the pulka sheet
  (``whole``: whole vists, pool, mountain, whists written) as a whole number (``−15``). Thirds show as ``,33`` and
  ``,67``, halves as ``,50``; where a player checks a figure, the page puts the exact value (:func:`exact`,
  ``16/3``) in a ``title``, never beside the number.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from django import template
from django.utils.translation import get_language

from preferans.numbers import NumberFormatError, format_percent, parse_fraction

__all__ = [
    "MINUS",
    "PLACES",
    "decimal_sign",
    "display_number",
    "exact",
    "percent",
    "score",
    "vists",
    "vists_text",
    "whole",
    "whole_text",
]

register = template.Library()

MINUS = "−"  # U+2212, the minus people read (pages, pictures, PDFs); files a program reads keep "-"
PLACES = 2  # the decimal places of every rounded figure (half-up on the exact value)
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


def display_number(
    value: object, lang: str | None = None, *, trim: bool = True, signed: bool = False, minus: str = "-"
) -> str:
    """An exact number for people: ``"63/2"`` → ``"31,5"`` (ru) / ``"31.5"`` (en); ``"16/3"`` → ``"5,33"``.

    Rounded half-up to :data:`PLACES` places on the exact value (``preferans.numbers.format_percent``); ``trim``
    drops trailing zeros (``31,5``; a whole number without places), without it the number keeps both places
    (``59,30``, ``12,00``). ``signed`` puts a plus before a positive number (a deal's result, ``+5,33``);
    ``minus`` is the sign written before a negative one: ``"-"`` where a program reads the text (CSV),
    :data:`MINUS` where people do. A stored rounded decimal (``"59.38"``) is shown the same way. Empty for a
    missing value; text that is no number is shown as is.
    """
    if value is None or value == "":
        return ""
    try:
        number = _exact(value)
    except NumberFormatError:
        return str(value)
    if number.denominator == 1 and trim:
        text = str(abs(number.numerator))
    else:
        text = format_percent(abs(number))  # half-up to 2 places, decided on the exact value
        if trim:
            text = text.rstrip("0").rstrip(".")
        text = text.replace(".", decimal_sign(lang))
    if number < 0 and text.strip("0,.") != "":  # a value that rounds to zero has no sign
        return minus + text
    return "+" + text if signed and number > 0 else text


def vists_text(value: object, lang: str | None = None, *, signed: bool = False) -> str:
    """A pulka figure that may be fractional, for people: two places, the typographic minus (``−2,67``)."""
    return display_number(value, lang, trim=False, signed=signed, minus=MINUS)


def whole_text(value: object, lang: str | None = None, *, signed: bool = False) -> str:
    """A whole figure of the pulka sheet (whole vists, pool, mountain, whists), for people: ``−15``."""
    return display_number(value, lang, signed=signed, minus=MINUS)


@register.filter(name="score")
def score(value: object) -> str:
    """``{{ value|score }}``: the number in the page's language (see :func:`display_number`)."""
    return display_number(value)


@register.filter(name="percent")
def percent(value: object) -> str:
    """``{{ value|percent }}``: a percentage with both places (``59,30``) in the page's language."""
    return display_number(value, trim=False)


@register.filter(name="vists")
def vists(value: object, signed: object = False) -> str:
    """``{{ value|vists }}``: a pulka figure in the page's language, two places (``28,67``, ``−2,67``);
    ``{{ value|vists:"signed" }}`` with a plus before a positive one (a deal's result)."""
    return vists_text(value, signed=bool(signed))


@register.filter(name="whole")
def whole(value: object) -> str:
    """``{{ value|whole }}``: a whole pulka figure (whole vists) with the typographic minus."""
    return whole_text(value)


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
