"""The director seats a compensation or Swiss event's first round by rating from the rounds page (issue 20; rulebook
004 Part III seeds by rating; the rating is the players' register rating, docs/players/rating.md)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from players.models import Person, RatingEntry
from pulkas.models import PulkaRound
from pulkas.services import rounds
from tests.html import english_phrases, parse, visible_text
from tests.publishing import played_event, publish_to
from tests.pulkas.factory import pulka_event
from tournaments.models import Publication, Tournament

pytestmark = pytest.mark.django_db
NOW = dt.datetime(2026, 5, 1, 12, tzinfo=dt.UTC)
BOX = "by_rating"


@pytest.fixture
def dclient(client, director):
    client.force_login(director)
    return client


def rated_event(director, form: str = "compensation") -> Tournament:
    """Six players rated 1500, 1510, …, 1550 (R0 … R5) by a final event of the day before."""
    persons = [Person.objects.create(name=f"R{i}", federation_id=f"R{i}-{form}") for i in range(6)]
    old = played_event(
        director, slug=f"old-{form}", name=f"old {form}", starts_on=dt.date(2026, 4, 1), now=NOW
    )
    publish_to(old, Publication.FINAL, director, NOW + dt.timedelta(hours=2))
    for i, person in enumerate(persons):
        old.participants.filter(number=i + 1).update(person=person)
        RatingEntry.objects.create(
            person=person,
            tournament=old,
            before="1500",
            after=str(1500 + 10 * i),
            played_on=dt.date(2026, 4, 1),
            computed_at=NOW,
        )
    return pulka_event(director, form, 6, 3, persons=persons, now=NOW)


def rounds_url(t: Tournament) -> str:
    return reverse("director:pulka_rounds", kwargs={"slug": t.slug})


def draw_url(t: Tournament) -> str:
    return reverse("director:pulka_draw", kwargs={"slug": t.slug})


def table_names(pulka_round: PulkaRound) -> list[list[str]]:
    return [
        sorted(p.name for p in (tb.seat_n, tb.seat_e, tb.seat_s))
        for tb in pulka_round.tables.order_by("number")
    ]


@pytest.mark.parametrize("form", ["compensation", "swiss"])
def test_the_box_seats_the_first_round_by_rating(dclient, director, form):
    t = rated_event(director, form)
    page = dclient.get(rounds_url(t))
    form_node = parse(page).one("form", id="draw-form")
    box = form_node.one("input", name=BOX)
    assert box.get("type") == "checkbox" and "checked" not in box.attrs
    text = visible_text(page.content)
    assert "Рассадить первый тур по рейтингу" in text and "1500" in text
    response = dclient.post(draw_url(t), {"number": 1, "seed": 5, BOX: "on"}, follow=True)
    drawn = PulkaRound.objects.get(tournament=t, number=1)
    assert drawn.drawn_by == "rating"
    assert table_names(drawn) == [["R3", "R4", "R5"], ["R0", "R1", "R2"]]  # table 1: the top-rated (004-III)
    assert "по рейтингу" in visible_text(response.content)


def test_without_the_box_the_first_round_is_drawn_by_lot(dclient, director):
    t = rated_event(director)
    dclient.post(draw_url(t), {"number": 1, "seed": 5})
    assert PulkaRound.objects.get(tournament=t, number=1).drawn_by == "lot"


def test_the_box_is_offered_for_the_first_round_only(dclient, director):
    t = rated_event(director)
    r = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=5)
    rounds.start_round(pulka_round=r, user=director, now=timezone.now())
    PulkaRound.objects.filter(pk=r.pk).update(status=PulkaRound.Status.ENDED)
    page = dclient.get(rounds_url(t))
    assert parse(page).by_id("draw-form") is not None
    assert parse(page).find("input", name=BOX) is None
    # A forged box on round 2 changes nothing: later rounds follow the tournament rating as before.
    dclient.post(draw_url(t), {"number": 2, "seed": 5, BOX: "on"})
    assert PulkaRound.objects.filter(tournament=t, number=2).exists()


def test_an_olympic_event_is_not_offered_the_box(dclient, director):
    t = pulka_event(director, "olympic", 6, 3, name="Олимп", now=NOW)
    page = dclient.get(rounds_url(t))
    assert parse(page).by_id("draw-form") is not None
    assert parse(page).find("input", name=BOX) is None


def test_the_english_page_names_the_box_in_english(dclient, director):
    t = rated_event(director)
    page = dclient.get(rounds_url(t), headers={"accept-language": "en"})
    assert "Seat the first round by rating" in visible_text(page.content)
    assert not english_phrases(visible_text(dclient.get(rounds_url(t)).content))
