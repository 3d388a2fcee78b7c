"""Master points («мастерские баллы»): the organisers' schemes over an event's final standings.

The rulebook names master points and gives no formula (seed 004 §9: the winner «получает соответствующие призы и
мастерские баллы»), so every number here is the organisers' choice, written as a scheme (docs/players/
master-points.md). Two kinds:

* ``place`` — points by place and field size: the places down to a cut are paid from a table (``places``) or, by
  default, linearly from ``first`` for the winner down to ``first / m`` for the last paid place; every amount is
  multiplied by the field factor ``field size / field`` (capped at ``max_factor`` when given).
* ``percent`` — points for each percentage point above a threshold: ``(percent − above) × per_percent``, capped at
  ``max`` when given, nothing at or below the threshold.

Ties share the places' points equally (players tied on places 2-3 each get the mean of the 2nd and 3rd amounts),
exactly. A participant out of the ranking (disqualified, an empty place) gets nothing. Everything is a
:class:`fractions.Fraction`; nothing is rounded.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from preferans.numbers import NumberFormatError, format_fraction, parse_fraction

__all__ = [
    "DEFAULT_SCHEME",
    "MasterPointError",
    "PercentScheme",
    "PlaceScheme",
    "Placed",
    "Scheme",
    "award",
    "field_percent",
    "parse_place",
    "parse_scheme",
]


class MasterPointError(ValueError):
    """A scheme or a place the rules cannot read; ``code`` and ``params`` are stable for translation (``key``:
    the scheme's key at fault, or the unknown keys)."""

    def __init__(self, code: str, message: str, **params: str) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Placed:
    """One participant of the final standings: his key (number), his place (``"1"``, ``"2-3"``, ``""`` when out
    of the ranking) and his exact percentage."""

    key: int
    place: str
    percent: Fraction


@dataclass(frozen=True)
class PlaceScheme:
    first: Fraction = Fraction(10)
    places: tuple[Fraction, ...] = ()  # an explicit table for places 1, 2, …; empty: linear from ``first``
    field: int = 16  # the field size at which the factor is 1
    cut: Fraction = Fraction(1, 4)  # the share of the field that is paid (at least one place)
    max_factor: Fraction | None = None
    kind: str = "place"

    def name(self) -> str:
        """A short label of the scheme, kept with each award (at most 64 characters)."""
        parts = (
            [f"places={'|'.join(format_fraction(p) for p in self.places)}"]
            if self.places
            else [f"first={format_fraction(self.first)}"]
        )
        parts += [f"field={self.field}", f"cut={format_fraction(self.cut)}"]
        if self.max_factor is not None:
            parts.append(f"max_factor={format_fraction(self.max_factor)}")
        return _label("place", parts)

    def paid(self, size: int) -> int:
        """How many places are paid in a field of ``size``: ⌈size × cut⌉, at least 1, at most the table."""
        scaled = self.cut * size
        count = max(1, -(-scaled.numerator // scaled.denominator))
        if self.places:
            count = min(count, len(self.places))
        return min(count, size)

    def factor(self, size: int) -> Fraction:
        factor = Fraction(size, self.field)
        return min(factor, self.max_factor if self.max_factor is not None else FACTOR_MAX)

    def for_place(self, place: int, size: int) -> Fraction:
        """The points of one place (1-based) in a field of ``size``, before sharing ties."""
        paid = self.paid(size)
        if place < 1 or place > paid:
            return Fraction(0)
        base = self.places[place - 1] if self.places else self.first * Fraction(paid - place + 1, paid)
        return base * self.factor(size)


@dataclass(frozen=True)
class PercentScheme:
    per_percent: Fraction = Fraction(1, 5)
    above: Fraction = Fraction(50)
    max: Fraction | None = None
    kind: str = "percent"

    def name(self) -> str:
        """A short label of the scheme, kept with each award (at most 64 characters)."""
        parts = [f"per_percent={format_fraction(self.per_percent)}", f"above={format_fraction(self.above)}"]
        if self.max is not None:
            parts.append(f"max={format_fraction(self.max)}")
        return _label("percent", parts)

    def for_percent(self, percent: Fraction) -> Fraction:
        points = max(Fraction(0), (percent - self.above) * self.per_percent)
        return min(points, self.max) if self.max is not None else points


Scheme = PlaceScheme | PercentScheme

# Bounds of every number of a scheme (issue 29, N12): no award can exceed POINTS_MAX × FACTOR_MAX.
POINTS_MAX = Fraction(1000)  # first, each place of the table, a percentage scheme's max
PER_PERCENT_MAX = Fraction(20)  # points per percent
PERCENT_MAX = Fraction(100)  # above
FACTOR_MAX = Fraction(10)  # the field factor, max_factor included
FIELD_MAX = 1000  # the field size at which the factor is 1
PLACES_MAX = 200  # places in an explicit table


def _label(kind: str, parts: list[str]) -> str:
    text = f"{kind}({', '.join(parts)})"
    return text if len(text) <= 64 else text[:63] + "…"


DEFAULT_SCHEME: Scheme = PlaceScheme()
"""The documented default: 10 points for the winner of a 16-player field, the top quarter paid, linearly."""


def parse_place(place: str) -> tuple[int, int] | None:
    """``"3"`` → (3, 3); ``"2-3"`` → (2, 3); ``""`` → None (out of the ranking)."""
    text = place.strip()
    if not text:
        return None
    low, _, high = text.partition("-")
    try:
        first, last = int(low), int(high or low)
    except ValueError as exc:
        raise MasterPointError("bad_place", f"{place!r} is not a place such as 3 or 2-3") from exc
    if first < 1 or last < first:
        raise MasterPointError("bad_place", f"{place!r} is not a place such as 3 or 2-3")
    return first, last


def field_percent(place: str, size: int) -> Fraction:
    """The percentage of a place in a ranked field of ``size``: the share of the others it beat, a tie with
    another counted half — what a percentage scheme reads where an event has places but no matchpoints (an
    event played in pulkas; the software's reading, docs/players/master-points.md). ``""`` (out of the
    ranking) is 0; a field of one is 100."""
    span = parse_place(place)
    if span is None:
        return Fraction(0)
    if size <= 1:
        return Fraction(100)
    first, last = span
    beaten = size - last
    tied = last - first
    return Fraction(100) * (beaten + Fraction(tied, 2)) / (size - 1)


def _number(raw: object, key: str, *, positive: bool = False, most: Fraction = POINTS_MAX) -> Fraction:
    try:
        value = parse_fraction(raw)
    except NumberFormatError as exc:
        raise MasterPointError("bad_number", f"{key}: {exc}", key=key) from exc
    if value < 0 or (positive and value == 0):
        raise MasterPointError(
            "bad_number", f"{key}: {raw!r} must be {'above' if positive else 'at least'} 0", key=key
        )
    if value > most:
        raise MasterPointError("too_big", f"{key}: {raw!r} is above {most}", key=key, most=str(most))
    return value


def parse_scheme(raw: Mapping[str, object] | None) -> Scheme:
    """Read a scheme as the organisers write it (JSON); empty or missing: :data:`DEFAULT_SCHEME`.

    ``{"scheme": "place", "first": "10", "field": 16, "cut": "1/4", "max_factor": "2"}``,
    ``{"scheme": "place", "places": ["12", "8", "5", "3"], "field": 20}``,
    ``{"scheme": "percent", "per_percent": "1/5", "above": "50", "max": "6"}``.
    """
    if not raw:
        return DEFAULT_SCHEME
    known = {"scheme", "first", "places", "field", "cut", "max_factor", "per_percent", "above", "max"}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise MasterPointError(
            "unknown_key", f"unknown keys in the scheme: {', '.join(unknown)}", key=", ".join(unknown)
        )
    kind = raw.get("scheme", "place")
    if kind == "percent":
        return PercentScheme(
            per_percent=_number(
                raw.get("per_percent", "1/5"), "per_percent", positive=True, most=PER_PERCENT_MAX
            ),
            above=_number(raw.get("above", "50"), "above", most=PERCENT_MAX),
            max=_number(raw["max"], "max") if raw.get("max") is not None else None,
        )
    if kind != "place":
        raise MasterPointError("unknown_scheme", f"{kind!r} is not a scheme (place or percent)")
    places = raw.get("places") or []
    if not isinstance(places, list):
        raise MasterPointError("bad_number", "places: a list of points for places 1, 2, …", key="places")
    if len(places) > PLACES_MAX:
        raise MasterPointError(
            "too_big", f"places: more than {PLACES_MAX} places", key="places", most=str(PLACES_MAX)
        )
    field = raw.get("field", 16)
    if isinstance(field, bool) or not isinstance(field, int) or field < 1:
        raise MasterPointError(
            "bad_number", f"field: {field!r} must be a whole number of players above 0", key="field"
        )
    if field > FIELD_MAX:
        raise MasterPointError(
            "too_big", f"field: {field} is above {FIELD_MAX}", key="field", most=str(FIELD_MAX)
        )
    table = tuple(_number(p, "places") for p in places)
    if any(later > earlier for earlier, later in zip(table, table[1:], strict=False)):
        raise MasterPointError(
            "bad_number", "places: a lower place cannot get more than a higher one", key="places"
        )
    cut = _number(raw.get("cut", "1" if table else "1/4"), "cut", positive=True)
    return PlaceScheme(
        first=_number(raw.get("first", "10"), "first"),
        places=table,
        field=field,
        cut=min(cut, Fraction(1)),
        max_factor=(
            _number(raw["max_factor"], "max_factor", most=FACTOR_MAX)
            if raw.get("max_factor") is not None
            else None
        ),
    )


def award(scheme: Scheme, standings: Sequence[Placed]) -> dict[int, Fraction]:
    """The master points of every participant of the final standings (0 for those not paid).

    The field size is the number of ranked participants (those with a place). Players sharing places ``a-b``
    share the points of those places equally.
    """
    places = {row.key: parse_place(row.place) for row in standings}
    size = sum(1 for span in places.values() if span is not None)
    out: dict[int, Fraction] = {}
    for row in standings:
        span = places[row.key]
        if span is None:
            out[row.key] = Fraction(0)
        elif isinstance(scheme, PercentScheme):
            out[row.key] = scheme.for_percent(row.percent)
        else:
            first, last = span
            total = sum((scheme.for_place(p, size) for p in range(first, last + 1)), Fraction(0))
            out[row.key] = total / (last - first + 1)
    return out


def scheme_from_name(name: str) -> Scheme:
    """The scheme a label of :meth:`PlaceScheme.name` / :meth:`PercentScheme.name` names (what an award keeps and
    a federation file states), bounded as :func:`parse_scheme`; a label that is not one exactly (cut short, another
    spelling) is refused."""
    match = _LABEL.match(name)
    if match is None:
        raise MasterPointError("unknown_scheme", f"{name!r} is not the label of a scheme")
    kind, body = match.groups()
    raw: dict[str, object] = {"scheme": kind}
    for part in body.split(", "):
        key, sep, value = part.partition("=")
        if not sep or key in raw:
            raise MasterPointError("unknown_scheme", f"{name!r} is not the label of a scheme")
        raw[key] = (
            value.split("|")
            if key == "places"
            else int(value)
            if key == "field" and value.isdigit()
            else value
        )
    scheme = parse_scheme(raw)
    if scheme.name() != name:
        raise MasterPointError("unknown_scheme", f"{name!r} is not the label of a scheme")
    return scheme


_LABEL = re.compile(r"^(place|percent)\((.+)\)$")
