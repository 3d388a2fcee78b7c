"""The players' rating (docs/players/rating.md): Elo-like, exact, from duplicate percentages and pulka tables.

The rulebook seeds compensation events by rating (Part III) and defines none across events, so this one is ours,
published with its formula. Every number is a :class:`fractions.Fraction`.

* The **expected score** of a player against an opponent (or a field) rated ``d`` points below him is linear and
  clipped: ``E(d) = 1/2 + d / SPREAD``, kept within ``[E_MIN, E_MAX]`` — rational, so everything stays exact.
* **Duplicate**: the player's percentage against the field's strength, the mean rating of the *other* players
  of the event: ``change = K_DUPLICATE × (percent/100 − E(R − field))``.
* **Pulka** (several players at a table): every pair at a table is compared by vists (more vists wins 1, equal
  ½, fewer 0) against ``E(R_i − R_j)``; a table gives ``K_TABLE × Σ (score − expected) / (players − 1)``.
* **A day is one batch**: every event of a day is rated from the ratings *before the day*, and a player's
  changes are added up. So the order of a day's events does not matter; the next day starts from the sums.
* An event's change is rounded half-up to hundredths (``GRID``) before it is added, so ratings stay short exact
  fractions (the rounding is monotone: a better result still never gives less).
* A player without a rating starts at ``START``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

__all__ = [
    "E_MAX",
    "E_MIN",
    "GRID",
    "K_DUPLICATE",
    "K_TABLE",
    "SPREAD",
    "START",
    "DayRating",
    "DuplicateEvent",
    "PulkaEvent",
    "duplicate_changes",
    "expected",
    "pulka_changes",
    "rate_day",
    "round_to_grid",
]

K = TypeVar("K", bound=Hashable)

START = Fraction(1500)
SPREAD = Fraction(1000)  # 100 rating points ahead: expect 60 %
E_MIN, E_MAX = Fraction(1, 5), Fraction(4, 5)  # reached 300 points apart
K_DUPLICATE = Fraction(100)  # 60 % against an equal field: +10
K_TABLE = Fraction(20)  # winning every comparison at a table of equals: +10
GRID = Fraction(1, 100)


def expected(difference: Fraction) -> Fraction:
    """The expected score (0…1) of a player rated ``difference`` points above his opponent or field."""
    return min(E_MAX, max(E_MIN, Fraction(1, 2) + Fraction(difference) / SPREAD))


def round_to_grid(value: Fraction) -> Fraction:
    """Half-up (towards +∞ on a half) to a multiple of :data:`GRID`; monotone non-decreasing."""
    steps = value / GRID + Fraction(1, 2)
    return (steps.numerator // steps.denominator) * GRID


@dataclass(frozen=True)
class DuplicateEvent(Generic[K]):
    """A duplicate event's final percentages (0…100, exact) by player."""

    percents: Mapping[K, Fraction]


@dataclass(frozen=True)
class PulkaEvent(Generic[K]):
    """A pulka event: each table (of every round) as its players' final vists."""

    tables: Sequence[Mapping[K, Fraction]]


def _rating(ratings: Mapping[K, Fraction], player: K) -> Fraction:
    return ratings.get(player, START)


def duplicate_changes(event: DuplicateEvent[K], ratings: Mapping[K, Fraction]) -> dict[K, Fraction]:
    """Each player's exact (unrounded) change from one duplicate event."""
    players = list(event.percents)
    if len(players) < 2:
        return {p: Fraction(0) for p in players}
    total = sum((_rating(ratings, p) for p in players), Fraction(0))
    out: dict[K, Fraction] = {}
    for p in players:
        own = _rating(ratings, p)
        field = (total - own) / (len(players) - 1)
        out[p] = K_DUPLICATE * (Fraction(event.percents[p]) / 100 - expected(own - field))
    return out


def pulka_changes(event: PulkaEvent[K], ratings: Mapping[K, Fraction]) -> dict[K, Fraction]:
    """Each player's exact (unrounded) change from the tables of one pulka event, summed over his tables."""
    out: dict[K, Fraction] = {}
    for table in event.tables:
        players = list(table)
        for p in players:
            out.setdefault(p, Fraction(0))
            if len(players) < 2:
                continue
            gap = Fraction(0)
            for q in players:
                if q == p:
                    continue
                mine, theirs = Fraction(table[p]), Fraction(table[q])
                score = Fraction(1) if mine > theirs else Fraction(1, 2) if mine == theirs else Fraction(0)
                gap += score - expected(_rating(ratings, p) - _rating(ratings, q))
            out[p] += K_TABLE * gap / (len(players) - 1)
    return out


@dataclass(frozen=True)
class DayRating(Generic[K]):
    """A day rated as one batch: each event's rounded change per player, and the ratings after the day."""

    changes: tuple[dict[K, Fraction], ...]  # in the order the events were given
    after: dict[K, Fraction]


def rate_day(
    events: Sequence[DuplicateEvent[K] | PulkaEvent[K]], before: Mapping[K, Fraction]
) -> DayRating[K]:
    """Rate all the events of one day from the ratings before the day (their order does not matter)."""
    changes: list[dict[K, Fraction]] = []
    for event in events:
        raw = (
            duplicate_changes(event, before)
            if isinstance(event, DuplicateEvent)
            else pulka_changes(event, before)
        )
        changes.append({p: round_to_grid(c) for p, c in raw.items()})
    after: dict[K, Fraction] = {}
    for change in changes:
        for p, c in change.items():
            after[p] = after.get(p, _rating(before, p)) + c
    return DayRating(tuple(changes), after)
