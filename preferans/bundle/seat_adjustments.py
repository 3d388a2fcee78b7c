"""A result row's optional per-seat adjustments (formats.md §2.1): ``annulled`` and ``percent``.

* ``"annulled": ["N"]`` — seats whose result on this row is annulled (rules §11.6 B: a player's second result on
  a board); the other seats keep theirs and are compared normally.
* ``"percent": {"N": "65"}`` — per-seat percentages of the board-line top: on an artificial row a non-offender's
  result above A+ (§11.2 B1 «по меньшей мере 60 %»); on a played or assigned row a seat taken out of the
  comparison (§11.3 C: the offender's least favourable result, 0 %).

The rules of both are :mod:`preferans.duplicate.artificial`'s; this module only reads them from a row.
Pure Python, no Django import.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from preferans.bundle.shape import Loc, Problems, describe
from preferans.duplicate.artificial import annulled_problems, parse_percent, seat_percent_problems

__all__ = ["parse_seat_adjustments"]


def parse_seat_adjustments(
    row: Mapping[str, Any],
    problems: Problems,
    loc: Loc,
    seats: tuple[str, ...] | None,
    adjusted: Mapping[str, str] | None,
    artificial: Mapping[str, Fraction],
) -> tuple[tuple[str, ...], dict[str, Fraction] | None]:
    """``annulled`` and ``percent`` of a row, checked (problems added to ``problems``)."""
    annulled: tuple[str, ...] = ()
    percent: dict[str, Fraction] | None = None
    if "annulled" in row:
        raw = row["annulled"]
        if not isinstance(raw, list) or not all(isinstance(s, str) for s in raw):
            problems.add(loc, f'annulled must be a list of seats such as ["N"], not {describe(raw)}')
        else:
            annulled = tuple(raw)
            if seats is not None:
                artificial_row = "adjusted" in row
                for p in annulled_problems(annulled, seats=seats, artificial_row=artificial_row):
                    problems.add(loc, p.message)
    if "percent" in row:
        raw = row["percent"]
        if not isinstance(raw, dict) or not raw:
            problems.add(loc, f'percent must be an object such as {{"N": "65"}}, not {describe(raw)}')
        else:
            percent = {}
            for seat, value in raw.items():
                try:
                    percent[str(seat)] = parse_percent(value)
                except ValueError as exc:
                    problems.add(loc, f"percent {seat}: {exc}")
            if seats is not None and len(percent) == len(raw):
                for p in seat_percent_problems(
                    percent, adjusted=adjusted, artificial=artificial, seats=seats
                ):
                    problems.add(loc, p.message)
            twice = sorted(set(percent) & set(annulled))
            if twice:
                problems.add(loc, f"seat {', '.join(twice)} is both annulled and given a percentage")
    return annulled, percent
