"""The director's pages for an event in several rooms (seed 004 §2, §5 procedure 2)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from duplicate.rounds import round_start
from scoring.row_command import PlayedRow, RowCommand, RowPlace
from scoring.rows import result_save
from tests.scoring.rooms_fixture import played
from tournaments.models import Participant, Session, Table, Tournament


@pytest.fixture
def event(db, director):
    t = Tournament.objects.create(name="Два зала", slug="two-rooms", variant="sochi", deals_per_set=2)
    t.directors.add(director)
    Participant.objects.bulk_create(
        Participant(tournament=t, number=n, name=f"Игрок {n}") for n in range(1, 25)
    )
    Session.objects.create(tournament=t, number=1)
    return t


@pytest.mark.django_db
def test_rule_5_procedure_2_the_director_seats_a_basic_movement_in_two_rooms(client, director, event):
    """Seed §5, procedure 2: «Разбить игроков на несколько комнат с простым числом столов» — the director asks
    for the basic movement on 3 tables (a prime number from 5 is the book's ideal; the skip procedure covers 3) in 2
    rooms; each room's tables are numbered from 1 and play the same sets (seed §2: «чтобы там играли на тех же
    раскладах»)."""
    client.force_login(director)
    url = reverse("director:movement", args=[event.slug, 1])
    page = client.get(url)
    assert "Залы (основное движение)" in page.content.decode()
    answer = client.post(url, {"scheme": "basic", "tables": "3", "rooms": "2"})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    session = event.sessions.get()
    assert session.movement == {"scheme": "basic", "tables": 3, "rooms": 2}
    assert sorted(Table.objects.filter(session=session).values_list("room", "number")) == [
        (1, 1),
        (1, 2),
        (1, 3),
        (2, 1),
        (2, 2),
        (2, 3),
    ]
    sets = {(s.room, s.table_number): s.set_number for s in session.seatings.filter(round_number=1)}
    assert [sets[(1, t)] for t in (1, 2, 3)] == [sets[(2, t)] for t in (1, 2, 3)]
    assert "залов: 2, столов в каждом зале: " in client.get(url).content.decode()


@pytest.mark.django_db
def test_rule_2_the_dashboard_shows_each_room(client, director, event):
    """Seed §2: the dashboard lists each room's tables under «Зал 1», «Зал 2», and names the room of a table whose
    results are missing."""
    client.force_login(director)
    client.post(
        reverse("director:movement", args=[event.slug, 1]), {"scheme": "basic", "tables": "3", "rooms": "2"}
    )
    session = event.sessions.get()
    round_start(rnd=session.rounds.get(number=1), user=director, now=timezone.now())
    result_save(
        RowCommand(RowPlace(session=session, board=1, round=1, table=1, room=2), PlayedRow(row=played(1, 6))),
        now=timezone.now(),
    )
    html = client.get(reverse("director:session_dashboard", args=[event.slug, 1])).content.decode()
    assert "Зал 1" in html and "Зал 2" in html
    assert html.count('class="room-tables"') == 2
    assert 'data-room="2"' in html


@pytest.mark.django_db
def test_formats_2_1_the_director_enters_a_row_for_a_table_of_room_2(client, director, event):
    """The room keys a row on the director's pages too: board 1 at table 1 in round 1 is entered for room 1 and
    for room 2 (``?room=2``), two rows; the room-2 page shows and corrects its own row only."""
    from scoring.models import Result

    client.force_login(director)
    client.post(
        reverse("director:movement", args=[event.slug, 1]), {"scheme": "basic", "tables": "3", "rooms": "2"}
    )
    session = event.sessions.get()
    round_start(rnd=session.rounds.get(number=1), user=director, now=timezone.now())
    url = reverse(
        "director:board_entry", kwargs={"slug": event.slug, "session": 1, "round": 1, "table": 1, "board": 1}
    )
    row = played(1, 6)
    data = {
        "kind": "row",
        "contract": "6S",
        "declarer_seat": row["declarer"][0],
        "declarer_tricks": 6,
        "w1_tricks": 2,
        "w2_tricks": 2,
        "call1": "whist",
        "call2": "whist",
    }
    assert client.post(url, data).status_code == 302
    answer = client.post(
        url + "?room=2", {**data, "room": "2", "declarer_tricks": 7, "w1_tricks": 2, "w2_tricks": 1}
    )
    assert answer.status_code == 302 and answer["Location"].endswith("?room=2")
    rows = {
        r.room: r
        for r in Result.objects.filter(session=session, board_number=1, round_number=1, table_number=1)
    }
    assert set(rows) == {1, 2} and rows[2].row["declarer"][1] == 7
    assert rows[2].seat_n == session.seatings.get(room=2, round_number=1, table_number=1).seat_n
    page = client.get(url + "?room=2").content.decode()
    assert "Зал 2" in page or "зал 2" in page


@pytest.mark.django_db
def test_rule_2_the_seating_page_lists_each_rooms_tables(client, director, event):
    """Seed §2, §5 procedure 2: the seating page names the room of every table in a column of its own and groups the
    table codes under «Зал 1», «Зал 2» — table 1 of room 1 and table 1 of room 2 are two tables."""
    from tests.html import english_phrases, visible_text

    client.force_login(director)
    client.post(
        reverse("director:movement", args=[event.slug, 1]), {"scheme": "basic", "tables": "3", "rooms": "2"}
    )
    page = client.get(reverse("director:seating", args=[event.slug, 1]), headers={"accept-language": "ru"})
    text = visible_text(page)
    assert "Зал 1" in text and "Зал 2" in text and "ЗалСтолКомплект" in text  # the room column's heading
    assert "Тур 1, зал 1: " in text and "Тур 1, зал 2: " in text  # the director's row of sets of each room
    assert english_phrases(text, event.name) == []
    for room in (1, 2):
        code = Table.objects.get(session__tournament=event, room=room, number=1).code
        assert code in text
