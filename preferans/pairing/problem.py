"""A Swiss seating problem in numbers (pairing §4): the seated players by rank, the table sizes and intervals,
who met whom; a seating is the table (from 0) of every rank."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .measure import shift
from .sizes import intervals

__all__ = ["Problem"]


@dataclass
class Problem:
    sizes: list[int]
    met: list[set[int]]  # met[r]: the ranks r met before (seated players only)
    # the earlier rounds' tables as ranks (seated players, at least two of them): every table a clique of ``met``
    rounds: list[list[list[int]]] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(init=False)
    starts: list[int] = field(init=False)
    ends: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.spans = intervals(self.sizes)
        self.starts = [a for a, _b in self.spans]
        self.ends = [b for _a, b in self.spans]

    @property
    def players(self) -> int:
        return sum(self.sizes)

    def d(self, rank: int, table: int) -> int:
        return shift(rank, self.spans[table])

    def cost(self, seat: Sequence[int]) -> tuple[int, int]:
        """(R, D) of ``seat`` (rank → table)."""
        r = sum(1 for p, others in enumerate(self.met) for q in others if p < q and seat[p] == seat[q])
        return r, sum(self.d(p, k) for p, k in enumerate(seat))

    def valid(self, seat: Sequence[int]) -> bool:
        counts = [0] * len(self.sizes)
        for k in seat:
            counts[k] += 1
        return len(seat) == self.players and counts == self.sizes
