"""Display of exact numbers: scores are kept as fractions and rounded only here, for people to read."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django import template
from django.utils.formats import number_format

from preferans.numbers import NumberFormatError, format_percent, parse_fraction

register = template.Library()


def display_number(value: object, places: int = 2) -> str:
    """``"63/2"`` → ``"31,5"`` (ru) / ``"31.5"`` (en); ``"16/3"`` → ``"5,33"``; empty for missing values."""
    if value is None or value == "":
        return ""
    try:
        exact = parse_fraction(value) if not isinstance(value, Fraction) else value
    except NumberFormatError:
        return str(value)
    if exact.denominator == 1:
        return number_format(exact.numerator)
    rounded = Decimal(format_percent(exact))  # half-up to 2 places, decided on the exact value
    text = number_format(rounded, decimal_pos=places)
    return text.rstrip("0").rstrip(",.") if "," in text or "." in text else text


@register.filter(name="score")
def score(value: object) -> str:
    return display_number(value)


@register.filter(name="exact")
def exact(value: object) -> str:
    """The exact value as a tooltip text when it is not a whole number (``"16/3"``), else empty."""
    try:
        f = parse_fraction(value)
    except NumberFormatError:
        return ""
    return "" if f.denominator == 1 else f"{f.numerator}/{f.denominator}"
