"""Master points (seed 004 §9 names them, gives no formula): the organisers' schemes, exact, ties shared."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from preferans.ratings.master_points import (
    DEFAULT_SCHEME,
    MasterPointError,
    PercentScheme,
    Placed,
    PlaceScheme,
    award,
    parse_place,
    parse_scheme,
)


def field(*rows: tuple[str, str]) -> list[Placed]:
    return [Placed(i, place, F(percent)) for i, (place, percent) in enumerate(rows, start=1)]


def test_default_scheme_is_documented_linear_top_quarter():
    # docs/players/master-points.md: 10 for the winner of 16, a quarter paid, linearly: 10, 15/2, 5, 5/2.
    assert parse_scheme({}) == DEFAULT_SCHEME == PlaceScheme()
    rows = field(*[(str(i), str(70 - i)) for i in range(1, 17)])
    points = award(DEFAULT_SCHEME, rows)
    assert [points[k] for k in range(1, 6)] == [F(10), F(15, 2), F(5), F(5, 2), F(0)]
    assert sum(points.values()) == F(25)


def test_field_factor_scales_by_size_and_is_capped():
    rows = field(*[(str(i), "50") for i in range(1, 9)])  # 8 players: factor 1/2, 2 paid
    assert award(DEFAULT_SCHEME, rows)[1] == F(10) * F(1, 2)
    assert award(DEFAULT_SCHEME, rows)[2] == F(5, 2)
    big = field(*[(str(i), "50") for i in range(1, 65)])  # 64 players: factor 4, capped at 2
    capped = parse_scheme({"first": "10", "max_factor": "2"})
    assert award(capped, big)[1] == F(20)


def test_ties_share_the_places_points_exactly():
    # Places 2-3 of the default over 16: (15/2 + 5) / 2 = 25/4 each; 4-6 share 5/2 + 0 + 0 → 5/6 each.
    rows = field(
        ("1", "70"),
        ("2-3", "60"),
        ("2-3", "60"),
        ("4-6", "55"),
        ("4-6", "55"),
        ("4-6", "55"),
        *[(str(i), "40") for i in range(7, 17)],
    )
    points = award(DEFAULT_SCHEME, rows)
    assert points[2] == points[3] == F(25, 4)
    assert points[4] == points[5] == points[6] == F(5, 6)
    assert sum(points.values()) == F(25)  # sharing neither creates nor loses points


def test_explicit_table_by_place():
    scheme = parse_scheme({"scheme": "place", "places": ["12", "8", "5"], "field": 6})
    points = award(
        scheme, field(("1", "60"), ("2", "55"), ("3", "50"), ("4", "45"), ("5", "45"), ("6", "40"))
    )
    assert [points[k] for k in range(1, 7)] == [F(12), F(8), F(5), 0, 0, 0]


def test_percent_scheme_pays_above_the_threshold_with_a_cap():
    scheme = parse_scheme({"scheme": "percent", "per_percent": "1/5", "above": "50", "max": "3"})
    assert isinstance(scheme, PercentScheme)
    points = award(scheme, field(("1", "500/7"), ("2", "55"), ("3", "50"), ("4", "30")))
    assert points == {1: F(3), 2: F(1), 3: F(0), 4: F(0)}  # 500/7 % → 29/7 capped at 3


def test_out_of_the_ranking_gets_nothing_and_does_not_count_in_the_field():
    rows = field(("1", "70"), ("", "80"), ("2", "50"))  # a disqualified participant (§13.2.4) has no place
    points = award(parse_scheme({"field": 2, "cut": "1"}), rows)
    assert points == {1: F(10), 2: F(0), 3: F(5)}


def test_places_parse():
    assert parse_place("3") == (3, 3)
    assert parse_place("2-3") == (2, 3)
    assert parse_place("") is None
    with pytest.raises(MasterPointError):
        parse_place("3-2")


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ({"scheme": "elo"}, "unknown_scheme"),
        ({"firts": "10"}, "unknown_key"),
        ({"first": 1.5}, "bad_number"),
        ({"places": ["3", "5"]}, "bad_number"),
        ({"field": 0}, "bad_number"),
        ({"scheme": "percent", "per_percent": "0"}, "bad_number"),
    ],
)
def test_bad_schemes_are_refused_with_a_code(raw, code):
    with pytest.raises(MasterPointError) as err:
        parse_scheme(raw)
    assert err.value.code == code
    assert code == "unknown_scheme" or err.value.params["key"] in {
        *raw,
        "places",
    }  # the channels name the key


def test_each_award_keeps_a_short_label_of_its_scheme():
    assert DEFAULT_SCHEME.name() == "place(first=10, field=16, cut=1/4)"
    assert (
        parse_scheme({"scheme": "percent", "max": "6"}).name() == "percent(per_percent=1/5, above=50, max=6)"
    )
    long = parse_scheme({"places": [str(40 - i) for i in range(30)]}).name()
    assert (
        len(long) == 64 and long.startswith("place(places=40|39|") and long.endswith("…")
    )  # the field's limit
