"""Issue 30's English two-room run: what it found, fixed and checked here without a browser.

An event created in English prints in English; a basic movement on 2 tables a room, in which nobody ever changes
table, is said so when the director chooses it; the hand-over of a two-room event names each table's room.
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from duplicate.gaps import round_gaps
from duplicate.rounds import movement_choose, round_end, round_start
from preferans.movements import nobody_moves
from preferans.movements.basic import basic_movement
from tests.html import parse, visible_text
from tournaments.models import Participant, Tournament

pytestmark = pytest.mark.django_db
EN = {"accept-language": "en"}
RU = {"accept-language": "ru"}


def test_the_basic_movement_on_two_tables_a_room_moves_nobody():
    assert nobody_moves(basic_movement(2, rooms=2))
    assert nobody_moves(basic_movement(2))
    assert not nobody_moves(basic_movement(3, rooms=2))
    assert not nobody_moves(basic_movement(5))


NEW_EVENT = {
    "name": "Autumn Cup",
    "variant": "sochi",
    "players_per_table": 4,
    "deals_per_set": 4,
    "minutes_per_deal": 5,
    "correction_minutes": 30,
    "unequal_results": "neuberg",
    "confirmation": "all",
    "artificial_minus": 40,
    "artificial_average": 50,
    "artificial_plus": 60,
}


@pytest.mark.parametrize(
    ("headers", "form", "language"),
    [(EN, "duplicate", "en"), (EN, "compensation", "en"), (RU, "duplicate", "ru"), ({}, "olympic", "ru")],
)
def test_an_event_prints_in_the_language_it_was_created_in(dclient, headers, form, language):
    response = dclient.post(reverse("director:create"), {**NEW_EVENT, "form": form}, headers=headers)
    assert response.status_code == 302
    assert Tournament.objects.get(name="Autumn Cup").language == language


def sixteen(event) -> None:  # type: ignore[no-untyped-def]
    event.participants.all().delete()
    Participant.objects.bulk_create(
        Participant(tournament=event, number=n, name=f"Player {n}", pin=f"{1000 + n}") for n in range(1, 17)
    )


def test_two_rooms_of_two_tables_warn_that_nobody_moves(event, dclient):
    sixteen(event)
    url = reverse("director:movement", kwargs={"slug": event.slug, "session": 1})
    spec = {"scheme": "basic", "tables": 2, "rooms": 2}
    response = dclient.post(url, spec, headers=EN, follow=True)
    text = visible_text(response)
    assert "nobody meets a new opponent" in text
    response = dclient.post(url, {**spec, "tables": 4, "rooms": 1}, headers=RU, follow=True)
    assert "nobody meets a new opponent" not in visible_text(response)
    assert "никто не встречает новых соперников" not in visible_text(response)


def test_the_warning_in_russian(event, dclient):
    sixteen(event)
    url = reverse("director:movement", kwargs={"slug": event.slug, "session": 1})
    response = dclient.post(url, {"scheme": "basic", "tables": 2, "rooms": 2}, headers=RU, follow=True)
    assert "никто не встречает новых соперников" in visible_text(response)


def test_the_hand_over_of_two_rooms_names_the_room(event, dclient, director):
    sixteen(event)
    session = event.sessions.get(number=1)
    movement_choose(session=session, user=director, spec={"scheme": "basic", "tables": 4}, now=timezone.now())
    one_room = reverse("director:handover", kwargs={"slug": event.slug, "session": 1, "number": 1})
    rnd = session.rounds.get(number=1)
    round_start(rnd=rnd, user=director, now=timezone.now())
    round_end(rnd=rnd, user=director, now=timezone.now(), acknowledged=round_gaps(rnd).token)
    doc = parse(dclient.get(one_room, headers=EN))
    assert [th.text() for th in doc.one("table", class_="handover").find_all("th")][:1] == ["Table"]
    assert "“end of round”" in visible_text(dclient.get(one_room, headers=EN))
    assert "«конец тура»" in visible_text(dclient.get(one_room, headers=RU))


def test_the_hand_over_of_two_rooms_has_a_room_column(event, dclient, director):
    sixteen(event)
    session = event.sessions.get(number=1)
    spec = {"scheme": "basic", "tables": 2, "rooms": 2}
    movement_choose(session=session, user=director, spec=spec, now=timezone.now())
    rnd = session.rounds.get(number=1)
    round_start(rnd=rnd, user=director, now=timezone.now())
    round_end(rnd=rnd, user=director, now=timezone.now(), acknowledged=round_gaps(rnd).token)
    url = reverse("director:handover", kwargs={"slug": event.slug, "session": 1, "number": 1})
    table = parse(dclient.get(url, headers=EN)).one("table", class_="handover")
    assert [th.text() for th in table.find_all("th")][:2] == ["Room", "Table"]
    rows = [[td.text() for td in tr.find_all("td")][:2] for tr in table.one("tbody").find_all("tr")]
    assert rows == [["1", "1"], ["1", "2"], ["2", "1"], ["2", "2"]]
