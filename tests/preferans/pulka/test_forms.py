"""The tournament forms' pure parts: table splits, draws, seating by rating, compression and standings."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from preferans.pairing import pair
from preferans.pulka.forms import (
    Compression,
    RatingBase,
    RatingRule,
    draw_tables,
    split_tables,
)
from preferans.pulka.forms import standings as rank


@pytest.mark.parametrize("n", range(3, 60))
def test_every_field_of_three_or_more_is_seated_at_tables_of_three_and_four(n: int) -> None:
    sizes, byes = split_tables(n, 4)
    assert sum(sizes) + byes == n and all(s in (3, 4) for s in sizes)
    assert byes == (1 if n == 5 else 0)


def test_draw_and_rating_seating() -> None:
    plan = draw_tables(list(range(10)), 4, random.Random(1))
    assert sorted(len(t) for t in plan.tables) == [3, 3, 4] and not plan.byes
    assert sorted(p for t in plan.tables for p in t) == list(range(10))
    ranked = pair("compensation", 4, list(range(8)), [], seed=2)  # 004-III: the book's tables
    assert set(ranked.tables[0]) == {0, 1, 2, 3} and set(ranked.tables[1]) == {4, 5, 6, 7}


def test_compression_is_a_soft_cap() -> None:
    c = Compression(Fraction(100), 2)
    assert [c.apply(Fraction(v)) for v in (50, 100, 300, -300)] == [50, 100, 200, -200]
    assert Compression(Fraction(100)).apply(Fraction(-250)) == -100
    assert RatingRule(RatingBase.PER_DEAL).round_rating(Fraction(30), 4) == Fraction(15, 2)
    assert RatingRule(RatingBase.PER_DEAL).round_rating(Fraction(30), 0) == 0


def test_standings_share_places_and_put_the_cut_below() -> None:
    ratings = {"a": [Fraction(5)], "b": [Fraction(5)], "c": [Fraction(9)], "d": [Fraction(20)]}
    vists = {"a": Fraction(1), "b": Fraction(1), "c": Fraction(0), "d": Fraction(0)}
    out = rank(ratings, vists, cut=["d"])
    assert [(s.player, s.place) for s in out] == [("c", (1, 1)), ("a", (2, 3)), ("b", (2, 3)), ("d", (4, 4))]
    assert out[-1].cut
