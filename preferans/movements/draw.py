"""The random draw of the initial seating (seed 004, general provisions: «Первоначальная рассадка определяется
судьей случайным образом или методом, изложенным ОТ» — "the initial seating is set by the director at random or by
the method the tournament regulations state").

A movement seats participants by their starting numbers, so drawing the seating is drawing the numbers: the
participants' current numbers are shuffled with ``random.Random(seed)`` (as the pulka draw does, Code fn9) and the
participant drawn k-th takes the k-th lowest number. The same seed and the same numbers always give the same draw,
so a recorded seed lets anyone repeat it and check it. Pure Python: no Django import.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

__all__ = ["SEED_LIMIT", "draw_starting_numbers"]

SEED_LIMIT = 2**63  # seeds are 0 … 2⁶³−1 (they are stored as a signed 64-bit integer)


def draw_starting_numbers(numbers: Iterable[int], seed: int) -> dict[int, int]:
    """Old number → drawn starting number, a permutation of ``numbers``; the same seed gives the same draw."""
    current = sorted(set(numbers))
    if not 0 <= seed < SEED_LIMIT:
        raise ValueError(f"a draw seed is a whole number 0 to {SEED_LIMIT - 1}, not {seed}")
    order = list(current)
    random.Random(seed).shuffle(order)
    return {old: new for old, new in zip(order, current, strict=True)}
