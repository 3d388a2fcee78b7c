"""The result of a pulka: ranks by exact vists, the organisers' tie-breaks, the final order and the Olympic
advance (pulka §9, §10.1; Code 4.1.3, 004-II). Pure Python: no Django import.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from preferans.game import DealKind

from .setup import PulkaSetup

if TYPE_CHECKING:
    from .engine import DealScore

__all__ = ["Advance", "Ranking", "Stats", "format_rank", "rank_players"]

_LOWER_IS_BETTER = {"raspasy_won": False, "raspasy_tricks": True, "remizes": True, "misere_tricks": True}


@dataclass(frozen=True)
class Stats:
    """The counts behind the tie-breaks of pulka §9."""

    raspasy_won: int = 0
    raspasy_tricks: int = 0
    remizes: int = 0
    misere_tricks: int = 0

    def as_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in _LOWER_IS_BETTER}


@dataclass(frozen=True)
class Advance:
    """Olympic: the seats that go on, and those tied across the cut (P-21), each in the final order."""

    seats: tuple[str, ...]
    tied: tuple[str, ...]


@dataclass(frozen=True)
class Ranking:
    ranks: Mapping[str, tuple[int, int]]  # seat → (first, last) place; equal when not shared
    order: tuple[str, ...]  # the final order: by rank, then seat N, E, S, W
    stats: Mapping[str, Stats]
    advance: Advance | None

    def rank_text(self, seat: str) -> str:
        return format_rank(*self.ranks[seat])


def format_rank(first: int, last: int) -> str:
    """``"2"`` or a shared ``"2-3"`` (formats §3)."""
    return str(first) if first == last else f"{first}-{last}"


def collect_stats(seats: Sequence[str], deals: Sequence[DealScore]) -> dict[str, Stats]:
    counts = {s: dict.fromkeys(_LOWER_IS_BETTER, 0) for s in seats}
    for scored in deals:
        deal = scored.deal
        if deal.kind is DealKind.RASPASY:
            least = min(deal.tricks.values())
            for seat, tricks in deal.tricks.items():
                counts[seat]["raspasy_tricks"] += tricks
                counts[seat]["raspasy_won"] += tricks == least
            continue
        for seat, amount in scored.ledger.mountain.items():
            if amount > 0:
                counts[seat]["remizes"] += 1
        if deal.kind is DealKind.MISERE and deal.declarer is not None:
            counts[deal.declarer]["misere_tricks"] += deal.tricks[deal.declarer]
    return {s: Stats(**c) for s, c in counts.items()}


def rank_players(setup: PulkaSetup, deals: Sequence[DealScore], vists: Mapping[str, Fraction]) -> Ranking:
    """Rank by exact final vists, highest first; the tie-breaks only between equal vists (P-18)."""
    stats = collect_stats(setup.seats, deals)

    def key(seat: str) -> tuple[object, ...]:
        parts: list[object] = [-vists[seat]]
        for name in setup.tiebreaks:
            value = getattr(stats[seat], name)
            parts.append(value if _LOWER_IS_BETTER[name] else -value)
        return tuple(parts)

    order = tuple(sorted(setup.seats, key=lambda s: (key(s), setup.seats.index(s))))
    ranks: dict[str, tuple[int, int]] = {}
    place = 1
    for i, seat in enumerate(order):
        if seat in ranks:
            continue
        group = [s for s in order[i:] if key(s) == key(seat)]
        for member in group:
            ranks[member] = (place, place + len(group) - 1)
        place += len(group)
    advance = None
    if setup.advance is not None:
        k = setup.advance
        advance = Advance(
            tuple(s for s in order if ranks[s][1] <= k),
            tuple(s for s in order if ranks[s][0] <= k < ranks[s][1]),
        )
    return Ranking(ranks, order, stats, advance)
