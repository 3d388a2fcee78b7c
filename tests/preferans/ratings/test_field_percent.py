"""The percentage a percentage scheme reads for a place in a ranked field (events played in pulkas have places,
no matchpoints): the share of the others the place beat, a tie counted half."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from preferans.ratings.master_points import PercentScheme, Placed, award, field_percent


@pytest.mark.parametrize(
    ("place", "size", "percent"),
    [
        ("1", 9, F(100)),
        ("9", 9, F(0)),
        ("5", 9, F(50)),
        ("2-3", 9, F(325, 4)),  # beat 6 of 8, tied with 1: (6 + 1/2) / 8
        ("1-9", 9, F(50)),  # everybody tied
        ("1", 1, F(100)),
        ("", 9, F(0)),  # out of the ranking
    ],
)
def test_field_percent(place: str, size: int, percent: F) -> None:
    assert field_percent(place, size) == percent


def test_a_percentage_scheme_pays_pulka_places_by_the_share_of_the_field_beaten() -> None:
    scheme = PercentScheme()
    places = ["1", "2-3", "2-3", "4"]
    standings = [Placed(n, p, field_percent(p, len(places))) for n, p in enumerate(places, start=1)]
    points = award(scheme, standings)
    assert points[1] >= points[2] == points[3] >= points[4]
    assert points[1] == scheme.for_percent(F(100)) and points[4] == scheme.for_percent(F(0))
