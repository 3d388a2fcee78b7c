"""The published rating (docs/players/rating.md): its formula by hand-computed values, and its properties
(issue 20: a better result never lowers a rating, an unchanged field with equal results leaves ratings unchanged,
the order of a day's events does not matter — a day is rated as one batch from the ratings before it)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from preferans.ratings.rating import (
    START,
    DuplicateEvent,
    PulkaEvent,
    duplicate_changes,
    expected,
    pulka_changes,
    rate_day,
    round_to_grid,
)


@pytest.mark.parametrize(
    ("difference", "score"),
    [
        (0, F(1, 2)),
        (100, F(3, 5)),
        (-100, F(2, 5)),
        (150, F(13, 20)),
        (300, F(4, 5)),
        (500, F(4, 5)),
        (-250, F(1, 4)),
        (-1000, F(1, 5)),
    ],
)
def test_expected_score_is_linear_and_clipped(difference, score):
    assert expected(F(difference)) == score


def test_duplicate_by_hand():
    # A 1600, B 1500, C 1400 score 60, 50, 40 %. A's field is (1500+1400)/2 = 1450: E = 1/2 + 150/1000 = 13/20,
    # change 100 × (3/5 − 13/20) = −5. B meets an even field: 0. C: E = 7/20, 100 × (2/5 − 7/20) = +5.
    ratings = {"A": F(1600), "B": F(1500), "C": F(1400)}
    event = DuplicateEvent({"A": F(60), "B": F(50), "C": F(40)})
    assert duplicate_changes(event, ratings) == {"A": F(-5), "B": F(0), "C": F(5)}


def test_new_players_start_at_1500_and_changes_are_rounded_to_hundredths():
    event = DuplicateEvent({1: F(1000, 17), 2: F(50), 3: F(700, 17)})  # 58.82…, 50, 41.17… %
    day = rate_day([event], {})
    # 100 × (10/17 − 1/2) = 150/17 = 8.8235… → 8.82; the third −150/17 → −8.82.
    assert day.changes[0] == {1: F(882, 100), 2: F(0), 3: F(-882, 100)}
    assert day.after == {1: START + F(882, 100), 2: START, 3: START - F(882, 100)}


def test_pulka_table_by_hand():
    # Ratings 1500, 1500, 1600, 1400; vists 30, 10, 10, −50. Player 1: (1−1/2) + (1−2/5) + (1−3/5) = 3/2,
    # × 20 / 3 = 10. Player 2: −1/2 + 1/10 + 2/5 = 0. Player 3: −3/5 − 1/10 + 3/10 = −2/5 → −8/3 → −2.67.
    # Player 4: −2/5 − 2/5 − 3/10 = −11/10 → −22/3 → −7.33.
    ratings = {1: F(1500), 2: F(1500), 3: F(1600), 4: F(1400)}
    event = PulkaEvent([{1: F(30), 2: F(10), 3: F(10), 4: F(-50)}])
    assert pulka_changes(event, ratings) == {1: F(10), 2: F(0), 3: F(-8, 3), 4: F(-22, 3)}
    assert rate_day([event], ratings).changes[0] == {1: F(10), 2: F(0), 3: F(-267, 100), 4: F(-733, 100)}


def test_rounding_is_half_up():
    assert round_to_grid(F(1, 200)) == F(1, 100)
    assert round_to_grid(F(-1, 200)) == F(0)
    assert round_to_grid(F(-3, 200)) == F(-1, 100)


ratings_st = st.integers(1000, 2200).map(F)
percent_st = st.fractions(min_value=0, max_value=100, max_denominator=50)
vists_st = st.integers(-200, 200).map(F)


@st.composite
def duplicate_day(draw):
    n = draw(st.integers(2, 8))
    ratings = {p: draw(ratings_st) for p in range(n)}
    percents = {p: draw(percent_st) for p in range(n)}
    return ratings, DuplicateEvent(percents)


@st.composite
def pulka_event(draw):
    n = draw(st.integers(3, 9))
    ratings = {p: draw(ratings_st) for p in range(n)}
    rounds = draw(st.integers(1, 3))
    tables = []
    for _ in range(rounds):
        order = draw(st.permutations(range(n)))
        while len(order) >= 3:  # tables of four, or three when four would leave fewer than three
            size = 4 if len(order) in (4, 7, 8) or len(order) >= 10 else 3
            seats, order = order[:size], order[size:]
            tables.append({p: draw(vists_st) for p in seats})
    return ratings, PulkaEvent(tables)


@settings(max_examples=80, deadline=None)
@given(duplicate_day(), st.data())
def test_a_better_duplicate_result_never_lowers_a_rating(day, data):
    ratings, event = day
    player = data.draw(st.sampled_from(sorted(event.percents)))
    better = data.draw(st.fractions(min_value=event.percents[player], max_value=100, max_denominator=50))
    improved = DuplicateEvent({**event.percents, player: better})
    assert rate_day([improved], ratings).after[player] >= rate_day([event], ratings).after[player]


@settings(max_examples=80, deadline=None)
@given(pulka_event(), st.data())
def test_better_vists_at_a_pulka_never_lower_a_rating(day, data):
    ratings, event = day
    index = data.draw(st.integers(0, len(event.tables) - 1))
    table = event.tables[index]
    player = data.draw(st.sampled_from(sorted(table)))
    gain = data.draw(st.integers(0, 300))
    tables = list(event.tables)
    tables[index] = {**table, player: table[player] + gain}
    assert rate_day([PulkaEvent(tables)], ratings).after[player] >= rate_day([event], ratings).after[player]


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 10), ratings_st, st.integers(-100, 100))
def test_an_unchanged_field_with_equal_results_leaves_ratings_unchanged(n, rating, vists):
    ratings = {p: rating for p in range(n)}
    duplicate = DuplicateEvent({p: F(50) for p in range(n)})
    pulka = PulkaEvent([{p: F(vists) for p in range(n)}])
    assert rate_day([duplicate, pulka], ratings).after == ratings


@settings(max_examples=50, deadline=None)
@given(st.lists(st.one_of(duplicate_day(), pulka_event()), min_size=2, max_size=4), st.randoms())
def test_the_order_of_a_days_events_does_not_matter(days, rnd):
    ratings = {}
    for before, _ in days:
        ratings.update(before)
    events = [event for _, event in days]
    shuffled = list(events)
    rnd.shuffle(shuffled)
    assert rate_day(shuffled, ratings).after == rate_day(events, ratings).after
