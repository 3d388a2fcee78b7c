"""The tournament forms built from pulkas (pulka §10; seed 004 parts II and III): tables of a round, byes,
seating by lot and the rating order (the seating by rating itself is :mod:`preferans.pairing`), round ratings,
compression, cuts and standings.

Players are opaque hashable ids (the database's participant ids, or names in tests). Randomness is a
``random.Random`` passed in, seeded by the caller, so every draw can be recorded and repeated.
Pure Python: no Django import.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from itertools import groupby
from typing import TypeVar

from preferans.pairing.sizes import split_tables  # pairing §1: the one rule of table sizes

__all__ = [
    "Compression",
    "RatingBase",
    "RatingRule",
    "Standing",
    "TablePlan",
    "draw_tables",
    "split_tables",
    "standings",
]

P = TypeVar("P", bound=Hashable)


class RatingBase(StrEnum):
    """What a pulka gives a player for the round (004-III)."""

    PER_DEAL = "per_deal"  # proposal 1: final vists ÷ deals (P-20)
    VISTS = "vists"  # the pulka's final vists as they are (online Swiss)


@dataclass(frozen=True)
class Compression:
    """A soft cap on large round results, exact: up to ``threshold`` a result counts in full; beyond it, the
    excess counts 1/``divisor`` (``divisor`` None: not at all — a hard cap at ±threshold)."""

    threshold: Fraction
    divisor: int | None = None

    def apply(self, value: Fraction) -> Fraction:
        size = abs(value)
        if size <= self.threshold:
            return value
        excess = size - self.threshold
        kept = self.threshold + (excess / self.divisor if self.divisor else 0)
        return kept if value > 0 else -kept


@dataclass(frozen=True)
class RatingRule:
    base: RatingBase = RatingBase.PER_DEAL
    compression: Compression | None = None

    def round_rating(self, vists: Fraction, deals: int) -> Fraction:
        """A player's rating for one round from his pulka's exact final vists and its number of deals."""
        value = vists
        if self.base is RatingBase.PER_DEAL:
            value = vists / deals if deals else Fraction(0)
        return self.compression.apply(value) if self.compression else value


@dataclass(frozen=True)
class TablePlan:
    """The tables of a round, each a list of players in seat order N, E, S(, W), and the players with a bye."""

    tables: tuple[tuple[Hashable, ...], ...]
    byes: tuple[Hashable, ...]


def draw_tables(players: Sequence[P], per_table: int, rng: random.Random) -> TablePlan:
    """Seating by lot (Code fn9): shuffle, byes to the last drawn, tables filled in order."""
    order = list(players)
    rng.shuffle(order)
    sizes, byes = split_tables(len(order), per_table)
    seated, bye = order[: len(order) - byes], order[len(order) - byes :]
    tables: list[tuple[Hashable, ...]] = []
    start = 0
    for size in sizes:
        tables.append(tuple(seated[start : start + size]))
        start += size
    return TablePlan(tuple(tables), tuple(bye))


def order_by_rating(players: Sequence[P], ratings: Mapping[P, Fraction], rng: random.Random) -> list[P]:
    """``players`` highest rating first, equal ratings by lot (P-26): drawn by ``rng``, then sorted stably."""
    order = list(players)
    rng.shuffle(order)
    order.sort(key=lambda p: -ratings[p])
    return order


@dataclass(frozen=True)
class Standing:
    player: Hashable
    total: Fraction  # Σ round ratings
    vists: Fraction  # Σ exact final vists (the first tie-break)
    rounds: int  # rounds played
    place: tuple[int, int]  # (first, last): shared when equal
    cut: bool  # out at a cut (ranked below all who went on)


def standings(
    ratings: Mapping[P, Sequence[Fraction]],
    vists: Mapping[P, Fraction],
    *,
    cut: Sequence[P] = (),
) -> list[Standing]:
    """Final or running standings: players who went on before those cut; then by total rating, then by total
    vists, highest first; players still equal share the place."""
    cut_set = set(cut)
    totals = {p: sum(ratings[p], Fraction(0)) for p in ratings}
    keys = {p: (p in cut_set, -totals[p], -vists.get(p, Fraction(0))) for p in ratings}  # each once
    out: list[Standing] = []
    place = 1
    for _key, members in groupby(sorted(ratings, key=keys.__getitem__), key=keys.__getitem__):
        group = list(members)
        for p in group:
            out.append(
                Standing(
                    p,
                    totals[p],
                    vists.get(p, Fraction(0)),
                    len(ratings[p]),
                    (place, place + len(group) - 1),
                    p in cut_set,
                )
            )
        place += len(group)
    return out
