"""§4 «Сдачи разыгрываются строго в порядке их номеров»: which rows of a table were written out of the order of
the boards' numbers. Such an entry is not refused (a table may have written its protocol late, or the director
typed a paper protocol); it is flagged for the director to look at.

Pure Python, no Django import.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["OutOfOrder", "out_of_order"]


@dataclass(frozen=True)
class OutOfOrder:
    """Board ``board`` was written while the lower-numbered ``skipped`` boards of the set had no row yet."""

    board: int
    skipped: tuple[int, ...]


def out_of_order(boards: Sequence[int], entered: Mapping[int, int]) -> list[OutOfOrder]:
    """The boards of a table's set (``boards``) written before an earlier board of the set.

    ``entered`` maps a board to the order in which its row was written (a smaller number: written earlier). A
    board is out of order when some lower-numbered board of the set had no row when it was written: that board
    has no row at all or got it later."""
    out: list[OutOfOrder] = []
    ordered = sorted(boards)
    for index, board in enumerate(ordered):
        if board not in entered:
            continue
        at = entered[board]
        skipped = tuple(b for b in ordered[:index] if b not in entered or entered[b] > at)
        if skipped:
            out.append(OutOfOrder(board, skipped))
    return out
