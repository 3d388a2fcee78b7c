"""The rating across events (issue 20; docs/players/rating.md): one entry per person and final event, a day rated
as one batch from the ratings before it, pulka tables compared pair by pair, and the order a compensation event's
first round can be seeded in (Part III seeds by rating)."""

from __future__ import annotations

import datetime as dt
import random
from fractions import Fraction as F

import pytest

from events.publication import publication_gaps, publish
from events.settings import tournament_update
from players.models import Person, RatingEntry
from players.services.ratings import rating_of, rebuild_ratings, refresh_ratings, register_ratings
from preferans.numbers import parse_fraction
from preferans.pulka.forms import order_by_rating
from preferans.ratings.rating import START
from pulkas.models import PulkaTable
from scoring.models import Standing
from tests.publishing import end_every_round, played_event, publish_to
from tests.pulkas.factory import pulka_event
from tournaments.models import Form, Participant, Publication, Tournament

pytestmark = pytest.mark.django_db
NOW = dt.datetime(2026, 5, 2, 12, 0, tzinfo=dt.UTC)
DAY1, DAY2 = dt.date(2026, 5, 1), dt.date(2026, 5, 2)


@pytest.fixture
def people():
    return [Person.objects.create(name=f"Player {i}", federation_id=f"F{i}") for i in range(1, 6)]


def duplicate(director, slug, day, results, *, publication=Publication.FINAL):
    """A duplicate event played out and published up to ``publication`` by its director, whose stored standings
    give each person ``matchpoints`` of 10 (rank from the order); participants 1, 2, … are the persons."""
    t = played_event(director, slug=slug, starts_on=day, now=NOW - dt.timedelta(hours=3))
    publish_to(t, Publication.OFFICIAL, director, NOW - dt.timedelta(hours=2))
    Standing.objects.filter(tournament=t).delete()  # the standings of the results given, in their place
    for number, (person, mps) in enumerate(results, start=1):
        p = t.participants.get(number=number)
        p.name, p.person = f"P{number}", person
        p.save(update_fields=["name", "person"])
        Standing.objects.create(
            tournament=t,
            participant=p,
            position=number,
            rank=str(number),
            matchpoints=str(mps),
            max="10",
            percent="0",
        )
    return publish_to(t, publication, director, NOW)


def ratings(person):
    return [
        (e.tournament.slug, e.before, e.after, e.games) for e in RatingEntry.objects.filter(person=person)
    ]


def test_a_day_is_one_batch_and_the_next_day_starts_from_it(people, director):
    a, b, c, d, _e = people
    # 60 % against an equal field: +10 (docs: K 100 × (3/5 − 1/2))
    duplicate(director, "one", DAY1, [(a, 6), (b, 4)])
    # 50 %: no change — rated from 1500, not from after "one"
    duplicate(director, "two", DAY1, [(a, 5), (c, 5)])
    # a at 1510 meets d at 1500: E = 1/2 + 10/1000, 100 × −1/100 = −1
    duplicate(director, "three", DAY2, [(a, 5), (d, 5)])
    assert rebuild_ratings(since=None, now=NOW) == 6
    assert ratings(a) == [
        ("one", "1500", "1510", 1),
        ("two", "1510", "1510", 2),
        ("three", "1510", "1509", 3),
    ]
    assert ratings(b) == [("one", "1500", "1490", 1)]
    assert ratings(d) == [("three", "1500", "1501", 1)]
    assert rating_of(a) == F(1509) and rating_of(_e) == START


def test_the_order_of_a_days_events_does_not_matter(people, director):
    a, b, c, *_ = people
    # The same day, made in the other order: the rating after the day is the same.
    duplicate(director, "x2", DAY1, [(a, 7), (c, 3)])
    duplicate(director, "x1", DAY1, [(a, 6), (b, 4)])
    rebuild_ratings(since=None, now=NOW)
    first = rating_of(a)
    RatingEntry.objects.all().delete()
    Tournament.objects.filter(slug="x2").update(slug="x3")  # ids unchanged: re-create in the other order
    for slug in ("x1", "x3"):
        t = Tournament.objects.get(slug=slug)
        rows = list(Standing.objects.filter(tournament=t).select_related("participant"))
        t.delete()
        duplicate(director, slug, DAY1, [(r.participant.person, r.matchpoints) for r in rows])
    rebuild_ratings(since=None, now=NOW)
    assert rating_of(a) == first == F(1530)  # +10 and +20 from 1500, in either order


def test_only_final_events_are_rated_and_a_change_reaches_later_days(people, director):
    a, b, *_ = people
    first = duplicate(director, "first", DAY1, [(a, 7), (b, 3)])
    duplicate(director, "official", DAY1, [(a, 10), (b, 0)], publication=Publication.OFFICIAL)
    duplicate(director, "later", DAY2, [(a, 5), (b, 5)])
    rebuild_ratings(since=None, now=NOW)
    assert [e[0] for e in ratings(a)] == ["first", "later"]
    assert ratings(a)[1][1:3] == ("1520", "1516")  # 1520 vs 1480: E = 1/2 + 40/1000 → 100 × −1/25 = −4
    # A correction of day 1 after final: the winner only 6 of 10. Day 1 and day 2 are rated again.
    Standing.objects.filter(tournament=first, participant__person=a).update(matchpoints="6")
    Standing.objects.filter(tournament=first, participant__person=b).update(matchpoints="4")
    refresh_ratings(first, now=NOW)
    assert ratings(a) == [("first", "1500", "1510", 1), ("later", "1510", "1508", 2)]


def test_participants_without_a_person_count_in_the_field_unrated(people, director):
    a, *_ = people
    t = duplicate(director, "mixed", DAY1, [(a, 5), (None, 5)])
    rebuild_ratings(since=None, now=NOW)
    assert RatingEntry.objects.filter(tournament=t).count() == 1
    assert ratings(a) == [("mixed", "1500", "1500", 1)]


def pulka(director, slug, day, tables):
    """A compensation event of one round at tables of three on ``day``, played out and made final by its director;
    the persons of ``tables`` then sit at its drawn tables, each with the vists given (the rating reads only
    those)."""
    made = NOW - dt.timedelta(hours=3)
    t = pulka_event(director, "compensation", 3 * len(tables), 3, name=slug, slug=slug, now=made, rounds=1)
    tournament_update(now=made, tournament=t, user=director, changes={"starts_on": day})
    end_every_round(t, director, made)
    publish_to(t, Publication.FINAL, director, NOW)
    drawn = PulkaTable.objects.filter(round__tournament=t).order_by("number")
    for table, given in zip(drawn, tables, strict=True):
        for result, (person, vists) in zip(table.results.order_by("seat"), given, strict=True):
            Participant.objects.filter(pk=result.participant_id).update(person=person)
            result.vists, result.integer_vists = vists, int(vists)
            result.save(update_fields=["vists", "integer_vists"])
    return t


def test_a_pulka_table_compares_its_players_pair_by_pair(people, director):
    a, b, c, *_ = people
    pulka(director, "comp", DAY1, [[(a, "30"), (b, "10"), (c, "10")]])
    rebuild_ratings(since=None, now=NOW)
    # Equal ratings: a beats both (2 × 1/2 over 2 opponents × K 20 = +10); b and c: −1/2 + 0 → −5 each.
    assert [ratings(p)[0][2] for p in (a, b, c)] == ["1510", "1495", "1495"]


def test_seeding_order_is_by_rating_and_follows_merged_persons(people, director):
    a, b, c, d, e = people
    duplicate(director, "old", DAY1, [(a, 3), (b, 7), (c, 5)])
    rebuild_ratings(since=None, now=NOW)
    assert (rating_of(b), rating_of(c), rating_of(a)) == (F(1520), F(1500), F(1480))
    Person.objects.filter(pk=b.pk).update(merged_into=e)  # b turned out to be e's duplicate
    rebuild_ratings(since=None, now=NOW)
    event = Tournament.objects.create(name="next", slug="next", form=Form.COMPENSATION, starts_on=DAY2)
    entrants = [
        Participant.objects.create(tournament=event, number=n, person=p)
        for n, p in enumerate([a, c, d, e, None], start=1)
    ]
    ratings = register_ratings(entrants)
    assert ratings[entrants[3].pk] == F(1520) and ratings[entrants[4].pk] == F(1500)
    order = sorted(
        (p.pk for p in entrants), key=lambda pk: -ratings[pk]
    )  # stable: equal ones in number order
    assert set(order_by_rating(order, ratings, random.Random(1))[:1]) == {entrants[3].pk}
    # e carries b's rating (1520); c, d and the unlinked player at 1500 in number order; a last.
    assert [Participant.objects.get(pk=pk).number for pk in order] == [4, 2, 3, 5, 1]
    assert rating_of(b) == rating_of(e) == F(1520)


def test_final_publication_rates_the_event(people, director):
    t = duplicate(director, "pub", DAY1, [(people[0], 6), (people[1], 4)], publication=Publication.OFFICIAL)
    assert not RatingEntry.objects.filter(tournament=t).exists()
    publish(  # two hours after the official results; nothing was entered at its tables (acknowledged)
        tournament=t, to=Publication.FINAL, user=director, now=NOW, acknowledged=publication_gaps(t).token
    )
    assert [parse_fraction(e.after) for e in RatingEntry.objects.filter(tournament=t).order_by("after")] == [
        F(1490),
        F(1510),
    ]


def test_a_compensation_event_can_seed_its_first_round_by_rating(director):
    """Part III seeds by rating: with ``by_rating`` the first round puts the top-rated at table 1 (004-III)."""
    from pulkas.services import rounds
    from tests.pulkas.factory import pulka_event

    persons = [Person.objects.create(name=f"R{i}", federation_id=f"R{i}") for i in range(6)]
    # Ratings 1500 + 10·i from a final event of the day before (a stored history is all seeding reads).
    old = publish_to(
        played_event(director, slug="old", starts_on=DAY1, now=NOW - dt.timedelta(hours=3)),
        Publication.FINAL,
        director,
        NOW,
    )
    for i, person in enumerate(persons):
        old.participants.filter(number=i + 1).update(person=person)
        RatingEntry.objects.create(
            person=person,
            tournament=old,
            before="1500",
            after=str(1500 + 10 * i),
            played_on=DAY1,
            computed_at=NOW,
        )
    t = pulka_event(director, "compensation", 6, 3, name="comp", persons=persons, now=NOW)
    ratings = register_ratings(t.participants.all())
    drawn = rounds.draw_round(tournament=t, user=director, now=NOW, seed=5, ratings=ratings)
    tables = [sorted(x.person.name for x in (tb.seat_n, tb.seat_e, tb.seat_s)) for tb in drawn.tables.all()]
    assert drawn.drawn_by == "rating"
    assert tables == [["R3", "R4", "R5"], ["R0", "R1", "R2"]]
    t2 = pulka_event(director, "compensation", 6, 3, name="comp2", persons=persons, now=NOW)
    # Without the flag the first round stays by lot (the book's default).
    assert rounds.draw_round(tournament=t2, user=director, now=NOW, seed=5).drawn_by == "lot"
