"""What a bye is worth in the rating of a compensation or Swiss round (the software's choice: the book has no byes).

A bye happens only where no split into tables of 3 and 4 seats everybody (5 players, pairing §1), or at an Olympic
event whose regulation chose the refill option. The book is silent on it. The software gives a player with a bye
**the average round rating of the players who played that round**: neither a reward nor a punishment for a seat the
draw did not give him. Without the compensation column and without compression that average is 0 (each table's
vists sum to zero, so do its ratings); with the x/y column (004-III proposal 2) a table's ratings no longer sum to
zero, and with compression the compressed ratings need not, so the average is then what the field actually scored.
Exact: a :class:`~fractions.Fraction`, never rounded. Pure Python: no Django import.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

__all__ = ["bye_rating"]


def bye_rating(played: Iterable[Fraction]) -> Fraction:
    """The round rating of a bye: the exact mean of the round ratings of those who played (0 if nobody did)."""
    ratings = list(played)
    return sum(ratings, Fraction(0)) / len(ratings) if ratings else Fraction(0)
