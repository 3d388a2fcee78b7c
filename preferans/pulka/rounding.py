"""Code 4.2.12 on a pulka's final sums: one player's mountain moves by one point so that the division is exact,
and the others compensate with whists (pulka §8.2, P-12). Pure Python: no Django import.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .sheet import Sheet

__all__ = ["Rounding", "round_whole"]


@dataclass(frozen=True)
class Rounding:
    """The 4.2.12 entry: ``seat`` gets ``mountain`` (−1 or +1) and ``vists_each`` whists (pulka §8.2)."""

    seat: str
    mountain: int
    vists_each: int


def round_whole(
    sheet: Sheet, closing: Mapping[str, Fraction], exact: Mapping[str, Fraction], order: Sequence[str]
) -> tuple[Rounding | None, dict[str, Fraction]]:
    """Code 4.2.12 on the final sums (pulka §8.2, P-12)."""
    seats = sheet.seats
    n = len(seats)
    value = exact[seats[0]]
    q = value - (value.numerator // value.denominator)
    if q == 0:
        return None, dict(exact)
    each = 10 // n
    adjusted = sheet.copy()
    if n == 3 and q == Fraction(2, 3):
        seat, point = order[-1], 1
        adjusted.mountain[seat] += 1
        for other in seats:
            if other != seat:
                adjusted.add_whist(seat, other, Fraction(each))
    else:
        seat, point = order[0], -1
        adjusted.mountain[seat] -= 1
        for other in seats:
            if other != seat:
                adjusted.add_whist(other, seat, Fraction(each))
    whole = adjusted.settle(closing)
    assert all(v.denominator == 1 for v in whole.values()), whole
    return Rounding(seat, point, each), whole
