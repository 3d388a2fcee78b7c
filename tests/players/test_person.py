"""A person's history and page (issue 20, «A person's page»: every event played, results and percentages, master
points, rating chart over time, personal statistics — public only for published events)."""

from __future__ import annotations

import copy
import datetime as dt
import json
from fractions import Fraction
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from duplicate.gaps import round_gaps
from duplicate.rounds import round_end, round_start
from events.bundles import import_bundle
from players.models import MasterPointAward, Person, RatingEntry
from players.services.history import Statistics, count_row, person_history
from scoring.models import Standing
from tests.html import english_phrases, parse, visible_text
from tests.publishing import end_every_round, publish_to
from tournaments.models import Participant, Publication, Session, Tournament

SMALL = json.loads((Path(__file__).parents[1] / "data" / "small_bundle.json").read_text(encoding="utf-8"))


def _event(
    slug: str, day: int, director, *, publication: str = Publication.OFFICIAL, bundle: dict | None = None
) -> Tournament:
    """The bundle as an event its director ran to the end (every round ended), published up to ``publication``."""
    now = timezone.now()
    t = import_bundle(
        data=copy.deepcopy(bundle or SMALL),
        slug=slug,
        now=now,
        user=director,
        starts_on=dt.date(2026, 3, day),
    )
    end_every_round(t, director, now)
    return publish_to(t, publication, director, now)


def _link(t: Tournament, number: int, person: Person) -> Participant:
    p = Participant.objects.get(tournament=t, number=number)
    p.person = person
    p.save(update_fields=["person"])
    return p


def _award(person: Person, p: Participant, points: str) -> None:
    MasterPointAward.objects.create(
        person=person,
        tournament=p.tournament,
        participant=p,
        points=points,
        place="1",
        scheme="test",
        computed_at=timezone.now(),
    )


def _rating(person: Person, t: Tournament, before: str, after: str) -> None:
    RatingEntry.objects.create(
        person=person,
        tournament=t,
        before=before,
        after=after,
        played_on=t.starts_on,
        computed_at=timezone.now(),
    )


@pytest.fixture
def season(db, director):
    """Three club events of the same field: the first two published, the third not."""
    ivanov = Person.objects.create(name="Иванов Иван", club="Клуб", city="Москва", federation_id="R-1")
    events = [
        _event("club-1", 1, director),
        _event("club-2", 8, director),
        _event("club-3", 15, director, publication=Publication.DRAFT),
    ]
    linked = [_link(t, number, ivanov) for t, number in zip(events, (1, 2, 3), strict=True)]
    for p, points in zip(linked, ("5/2", "3", "7"), strict=True):
        _award(ivanov, p, points)
    for t, (before, after) in zip(
        events, (("1500", "3031/2"), ("3031/2", "1510"), ("1510", "1600")), strict=True
    ):
        _rating(ivanov, t, before, after)
    return ivanov, events, linked


def test_history_lists_published_events_with_the_standings_numbers(season) -> None:
    ivanov, events, linked = season
    history = person_history(ivanov)
    # Newest first; the unpublished third event is absent.
    assert [e.slug for e in history.events] == ["club-2", "club-1"]
    for line, p in zip(history.events, reversed(linked[:2]), strict=True):
        standing = Standing.objects.get(tournament=p.tournament, participant=p)  # the standings page's row
        assert line.number == p.number and line.place == standing.rank and line.percent == standing.percent
        assert line.matchpoints == Fraction(standing.matchpoints) and line.max == Fraction(standing.max)
        assert line.field == 12 and line.duplicate
    assert [e.master_points for e in history.events] == [Fraction(3), Fraction(5, 2)]
    assert history.master_points == Fraction(11, 2)  # the unpublished event's 7 do not count
    assert [(r.slug, r.after) for r in history.ratings] == [
        ("club-1", Fraction(3031, 2)),
        ("club-2", Fraction(1510)),
    ]
    assert history.rating == Fraction(1510)


def test_public_page_shows_only_published_events(client, season) -> None:
    ivanov, events, _linked = season
    response = client.get(reverse("players:person", kwargs={"pk": ivanov.pk}))
    assert response.status_code == 200
    doc = parse(response.content.decode())
    rows = doc.find("table", id="person-events").find_all("tr", data_event=True)
    assert [r.get("data-event") for r in rows] == ["club-2", "club-1"]
    links = [a.get("href") for a in rows[1].find_all("a")]
    assert reverse("results:player", kwargs={"slug": "club-1", "number": 1}) in links
    assert "club-3" not in response.content.decode()
    assert doc.find(data_total="master-points").text() == "5,5"
    assert doc.find("svg", class_="chart-rating") is not None
    assert len(doc.find("svg", class_="chart-rating").find_all("circle")) == 3  # the start, then each event


def test_director_of_an_unpublished_event_sees_it(client, director, season) -> None:
    ivanov, events, _linked = season
    events[2].directors.add(director)
    client.force_login(director)
    doc = parse(client.get(reverse("players:person", kwargs={"pk": ivanov.pk})).content.decode())
    rows = doc.find("table", id="person-events").find_all("tr", data_event=True)
    assert [r.get("data-event") for r in rows] == ["club-3", "club-2", "club-1"]


def test_merged_person_redirects_and_his_events_are_listed_under_the_kept_one(
    client, season, director
) -> None:
    ivanov, events, linked = season
    twin = Person.objects.create(name="Иванов И.", city="Москва")
    fourth = _event("club-4", 22, director)
    _link(fourth, 4, twin)
    twin.merged_into = ivanov
    twin.save(update_fields=["merged_into"])
    response = client.get(reverse("players:person", kwargs={"pk": twin.pk}))
    assert response.status_code == 302
    assert response["Location"] == reverse("players:person", kwargs={"pk": ivanov.pk})
    history = person_history(twin)
    assert history.person == ivanov
    assert [(e.slug, e.number) for e in history.events] == [("club-4", 4), ("club-2", 2), ("club-1", 1)]


def test_unknown_person_is_404(client, db) -> None:
    assert client.get(reverse("players:person", kwargs={"pk": 999})).status_code == 404


def _with_a_failed_seven() -> dict:
    """small_bundle with board 1, table 1 changed: E declares 7♠ and takes 6 tricks (S whists 3, W whists 1)."""
    bundle = copy.deepcopy(SMALL)
    row = bundle["sessions"][0]["results"][0]
    assert (row["board"], row["table"], row["contract"]) == (1, 1, "7S")
    row.update({"declarer": ["E", 6], "w1": ["S", 3], "w2": ["W", 1]})
    del row["vists"]
    return bundle


def test_statistics_count_the_rows_of_a_constructed_event(director) -> None:
    """The event's rows for each seat (board dealer N, 4 players, so N sits every deal out):
    round 1, table 1 (N1 E2 S3 W4): b1 7♠ by E, 6 tricks, S and W whist; b2 8♣ by E, 8 tricks, S and W pass,
    the dealer N whists. Round 2, table 2 (N5 E2 S7 W12): b3 misère by E, 1 trick; b4 an assigned result.
    Round 2, table 3 (N9 E6 S11 W4): b3 raspasy; b4 7♠ by E, 7 tricks, S and W whist."""
    t = _event("stats", 1, director, bundle=_with_a_failed_seven())
    people = {n: Person.objects.create(name=f"P{n}") for n in (1, 2, 3, 4)}
    for n, person in people.items():
        _link(t, n, person)
    two = person_history(people[2]).statistics
    assert two.made == {6: 0, 7: 0, 8: 1, 9: 0, 10: 0} and two.failed == {6: 0, 7: 1, 8: 0, 9: 0, 10: 0}
    assert (two.misere_made, two.misere_failed, two.defended, two.raspasy, two.deals) == (0, 1, 0, 0, 3)
    # S at table 1 in round 1 (b1 failed, b2 made), at table 1 in round 2 (b3 9♠ whisted and made, b4 misère)
    three = person_history(people[3]).statistics
    assert three.declared == 0 and three.defended == 3 and three.whisted == 2 and three.defended_failed == 1
    four = person_history(people[4]).statistics
    assert (four.defended, four.whisted, four.defended_failed, four.raspasy, four.deals) == (3, 2, 1, 1, 4)
    one = person_history(people[1]).statistics  # the dealer: only his whist of board 2 is his deal
    assert (one.deals, one.defended, one.whisted, one.defended_failed) == (0, 1, 1, 0)


def test_statistics_of_an_unfinished_session_are_not_counted(director) -> None:
    """A published event still running never shows a deal before every table played it: finished sessions only."""
    now = timezone.now()
    t = import_bundle(data=copy.deepcopy(SMALL), slug="live", now=now, user=director)
    first, second = t.sessions.get().rounds.order_by("number")
    round_start(rnd=first, user=director, now=now)
    round_end(rnd=first, user=director, now=now, acknowledged=round_gaps(first).token)
    round_start(rnd=second, user=director, now=now)  # round 2 is being played
    publish_to(t, Publication.PROVISIONAL, director, now)
    person = Person.objects.create(name="P2")
    _link(t, 2, person)
    history = person_history(person)
    assert [e.slug for e in history.events] == ["live"] and history.statistics.empty


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        (
            {"contract": "6S", "declarer": ["N", 7], "w1": ["E", 2], "w2": ["S", 1], "penalty_tricks": 2},
            "failed",
        ),
        (
            {"contract": "6S", "declarer": ["N", 8], "w1": ["E", 1], "w2": ["S", 1], "penalty_tricks": 1},
            "made",
        ),
        (
            {"contract": "6S", "declarer": ["N", 8], "w1": ["E", 1], "w2": ["S", 1], "wrong_cards": ["N"]},
            "failed",
        ),
        ({"contract": "MIS", "declarer": ["N", 0], "w1": ["E", 5], "w2": ["S", 5]}, "misere_made"),
    ],
)
def test_made_or_failed_as_the_ledger_scores_it(row: dict, expected: str) -> None:
    """Penalty tricks (D-X1) and a wrong number of cards (Code 3.9.18) decide the pool as in preferans.game.ledger."""
    stats = Statistics()
    count_row(stats, "N", row)
    seen = {"made": stats.made[6], "failed": stats.failed[6], "misere_made": stats.misere_made}
    assert seen[expected] == 1 and sum(seen.values()) == 1


def test_russian_and_english_pages(client, season) -> None:
    ivanov, _events, _linked = season
    url = reverse("players:person", kwargs={"pk": ivanov.pk})
    text = visible_text(client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode())
    assert english_phrases(text, "Иванов Иван") == []
    assert "Мастерские баллы" in text
    client.cookies.load({"django_language": "en"})
    english = visible_text(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "Master points" in english


def test_personal_card_links_to_the_person_page(client, season) -> None:
    """The public personal card of a linked participant links to his person page; an unlinked one does not."""
    ivanov, _events, _linked = season
    card = parse(
        client.get(reverse("results:player", kwargs={"slug": "club-1", "number": 1})).content.decode()
    )
    link = card.find("a", data_person=str(ivanov.pk))
    assert link is not None and link.get("href") == reverse("players:person", kwargs={"pk": ivanov.pk})
    other = parse(
        client.get(reverse("results:player", kwargs={"slug": "club-1", "number": 5})).content.decode()
    )
    assert other.find("a", data_person=True) is None


def test_a_pulka_event_shows_the_public_standings_place_vists_and_rating(client, director) -> None:
    """A pulka event's line is its public standings' (pulkas.services.standings.event_table), linked to the
    pulka player's page; its deals are not duplicate statistics."""
    import random

    from pulkas.services import rounds
    from pulkas.services.standings import event_table
    from tests.pulkas.factory import SURNAMES, play_to_the_end, pulka_event
    from tests.pulkas.test_public_and_exports import publish

    t = pulka_event(director, "swiss", 8, 4, slug="swiss-night", names=SURNAMES, pool=4, rounds=1)
    play_to_the_end(
        t,
        director,
        rounds.draw_round(tournament=t, user=director, now=timezone.now()),
        random.Random(3),
        deals=3,
    )
    publish(t)
    person = Person.objects.create(name="Алексеев")
    _link(t, 1, person)
    (line,) = person_history(person, pulka_table=lambda x: event_table(x).lines).events
    expected = next(x for x in event_table(t).lines if x.participant.number == 1)
    assert (line.form, line.place, line.vists, line.rating) == (
        "swiss",
        expected.place,
        expected.vists,
        expected.total,
    )
    assert line.matchpoints is None and person_history(person).statistics.empty
    doc = parse(client.get(reverse("players:person", kwargs={"pk": person.pk})).content.decode())
    row = doc.find("tr", data_event="swiss-night")
    assert row.get("data-form") == "swiss"
    assert row.find("a").get("href") == reverse(
        "results:pulka-player", kwargs={"slug": "swiss-night", "number": 1}
    )
    assert row.find("td", class_="place").text().startswith(expected.place)


def _played_elsewhere() -> dict:
    """small_bundle whose rows came in a second session without a movement (played elsewhere, imported whole: it
    has no rounds here and stays «planned»); the first session, with the movement, was run here with no rows."""
    bundle = copy.deepcopy(SMALL)
    run_here = bundle["sessions"][0]
    elsewhere = copy.deepcopy(run_here) | {"number": 2}
    elsewhere.pop("movement")
    run_here["results"], run_here["penalties"] = [], []
    bundle["sessions"].append(elsewhere)
    return bundle


def test_statistics_of_an_event_imported_whole_with_final_results_are_counted(director) -> None:
    """A session imported whole from a bundle without a movement stays «planned» (it was never run here); once the
    event's results are official or final, play is over and its rows count — not while they are provisional."""
    now = timezone.now()
    t = import_bundle(data=_played_elsewhere(), slug="imported", now=now, user=director)
    person = Person.objects.create(name="P2")
    _link(t, 2, person)
    publish_to(t, Publication.PROVISIONAL, director, now)
    assert person_history(person).statistics.empty
    end_every_round(t, director, now)  # the rounds of the session run here
    assert t.sessions.get(number=2).status == Session.Status.PLANNED
    publish_to(t, Publication.FINAL, director, now)
    assert not person_history(person).statistics.empty
