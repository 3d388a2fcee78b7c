"""The rating of a bye in a compensation or Swiss round: the software's choice, since the book has no byes.

004-III: «Результат пули по специальным схемам переводится в рейтинг» — the book rates only a pulka played. A bye
(5 players: no split into tables of 3 and 4, pairing §1) gets **the round's average rating** of those who played
(``preferans.pulka.byes.bye_rating``): 0 when the round's ratings sum to zero, and what the field actually scored
when the x/y column (004-III proposal 2) or compression makes the ratings no longer sum to zero. It used to be
0, justified as «a table's average», which is false with the x/y column.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from django.utils import timezone

from preferans.numbers import parse_fraction
from preferans.pulka.byes import bye_rating
from pulkas.models import PulkaTableResult
from pulkas.services import rounds
from pulkas.services.standings import event_table
from tests.pulkas.factory import play_to_the_end, pulka_event

pytestmark = pytest.mark.django_db


def test_choice_a_bye_is_the_exact_average_of_those_who_played() -> None:
    assert bye_rating([Fraction(3), Fraction(-1), Fraction(-2)]) == 0
    assert bye_rating([Fraction(7, 3), Fraction(1), Fraction(-1, 3), Fraction(0)]) == Fraction(3, 4)
    assert bye_rating([]) == 0


def test_choice_a_bye_with_the_x_y_column_counts_what_the_field_scored(director) -> None:
    """004-III proposal 2: «Висты этой графы суммируются с остальными» — so the table's total is not zero and a
    bye of 0 would not be the table's average. The standings give the bye the round's exact average."""
    t = pulka_event(director, "compensation", 5, 4, pool=4, rounds=2, compensation_x=3, compensation_y=-1)
    r = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=1)
    assert r.byes.count() == 1
    play_to_the_end(t, director, r, random.Random(3), deals=6)
    played = [parse_fraction(x.rating) for x in PulkaTableResult.objects.filter(table__round=r)]
    assert len(played) == 4 and sum(played) != 0  # the column breaks the zero sum
    bye = r.byes.get().participant
    (line,) = [line for line in event_table(t).lines if line.participant == bye]
    assert line.ratings[0] == sum(played, Fraction(0)) / 4 != 0
    assert line.byes == [1]
