"""Appeals in an event of several rooms (seed §2): the appeal is about the appellant's own table, in his room."""

from __future__ import annotations

import pytest
from django.utils import timezone

from appeals import services as svc
from events.bundles import import_bundle
from tests.scoring.rooms_fixture import two_rooms
from tournaments.models import Participant, Seating


@pytest.mark.django_db
@pytest.mark.parametrize("room", [1, 2])
def test_rule_2_an_appeal_names_the_room_of_the_appellants_table(room: int) -> None:
    """Seed §2: the rooms play the same boards, so «table 1, round 1, board 1» exists once in each room; an appeal
    of a player of room 2 is about his row, not room 1's."""
    t = import_bundle(now=timezone.now(), data=two_rooms())
    session = t.sessions.get()
    seating = Seating.objects.get(session=session, room=room, round_number=1, table_number=1)
    appellant = Participant.objects.get(pk=seating.seat_n_id)
    appeal = svc.appeal_file(
        session=session,
        appellant=appellant,
        round=1,
        board=1,
        table=1,
        claim="Неверно записано",
        now=timezone.now(),
    )
    assert (appeal.room, appeal.table_number) == (room, 1)
    assert appellant.number in appeal.seats.values()


@pytest.mark.django_db
@pytest.mark.parametrize("room", [1, 2])
def test_rule_2_a_ruling_and_a_correction_name_the_room_of_the_table(client, director, room: int) -> None:
    """Seed §2: the director's ruling (§11) and correction pages name the room of the table, so that a matter of
    table 1 of room 2 is about room 2's players and row."""
    from django.urls import reverse

    from appeals.models import Correction, Irregularity

    t = import_bundle(now=timezone.now(), data=two_rooms())
    t.directors.add(director)
    session = t.sessions.get()
    seating = Seating.objects.get(session=session, room=room, round_number=1, table_number=1)
    client.force_login(director)
    page = client.get(reverse("appeals:ruling-new", kwargs={"slug": t.slug})).content.decode()
    assert 'name="room"' in page and "Зал" in page
    answer = client.post(
        reverse("appeals:ruling-new", kwargs={"slug": t.slug}),
        {
            "session": 1,
            "kind": "wrong_hand",
            "round": 1,
            "room": room,
            "table": 1,
            "board": 1,
            "fault_E": "offending",
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:3000]
    irr = Irregularity.objects.get()
    assert irr.room == room and irr.seats["N"] == seating.seat_n.number
    answer = client.post(
        reverse("appeals:correction-new", kwargs={"slug": t.slug}),
        {
            "session": 1,
            "kind": Correction.Kind.ENTRY,
            "round": 1,
            "room": room,
            "table": 1,
            "board": 1,
            "description": "Взятки записаны не тем",
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:3000]
    assert Correction.objects.get().room == room
