from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from boards.models import BoardSet
from duplicate.gaps import round_gaps
from duplicate.rounds import (
    handover,
    movement_choose,
    movement_offer,
    round_end,
    round_start,
    round_timer,
)
from tournaments.errors import UserError
from tournaments.models import Room, Round, Session, Table, TournamentStatus

pytestmark = pytest.mark.django_db


def test_planner_suggests_the_basic_movement_for_20(event):
    offer = movement_offer(event)
    assert offer.participants == 20
    assert offer.spec == {"scheme": "basic", "tables": 5}
    assert any("basic movement" in line for line in offer.plan.explanation)


def test_offer_explains_gaps(event):
    event.participants.filter(number=7).delete()
    offer = movement_offer(event)
    assert offer.plan is None and "7" in offer.problem


def test_choosing_the_movement_seats_everyone(session):
    assert session.rounds.count() == 5
    assert session.seatings.count() == 25
    assert Table.objects.filter(session=session).count() == 5
    assert session.boards.count() == 20
    assert BoardSet.objects.filter(session=session).count() == 5
    assert Room.objects.filter(session=session).count() == 1


def test_movement_must_seat_the_registered_number(event, director):
    session = event.sessions.get(number=1)
    with pytest.raises(UserError):
        movement_choose(
            session=session, user=director, spec={"scheme": "basic", "tables": 7}, now=timezone.now()
        )


def test_rounds_start_in_order_one_at_a_time(session, director):
    r1, r2 = session.rounds.order_by("number")[:2]
    with pytest.raises(UserError):
        round_start(rnd=r2, user=director, now=timezone.now())
    t0 = timezone.now()
    round_start(rnd=r1, user=director, now=t0)
    with pytest.raises(UserError):
        round_start(rnd=r2, user=director, now=timezone.now())
    with pytest.raises(UserError):
        round_start(rnd=r1, user=director, now=timezone.now())
    session.refresh_from_db()
    assert session.status == Session.Status.RUNNING
    assert (
        session.tournament.__class__.objects.get(pk=session.tournament_id).status == TournamentStatus.RUNNING
    )
    with pytest.raises(UserError):
        movement_choose(
            session=session, user=director, spec={"scheme": "basic", "tables": 5}, now=timezone.now()
        )
    timer = round_timer(Round.objects.get(pk=r1.pk), session.tournament)
    assert timer.ends_at == t0 + dt.timedelta(minutes=20)  # 5 minutes × 4 deals
    round_end(rnd=r1, user=director, now=t0 + dt.timedelta(minutes=21), acknowledged=round_gaps(r1).token)
    with pytest.raises(UserError):
        round_end(rnd=r1, user=director, now=timezone.now())
    round_start(rnd=r2, user=director, now=timezone.now())


def test_last_round_ends_the_session_and_the_play(session, director):
    for rnd in session.rounds.order_by("number"):
        round_start(rnd=rnd, user=director, now=timezone.now())
        round_end(rnd=rnd, user=director, now=timezone.now(), acknowledged=round_gaps(rnd).token)
    session.refresh_from_db()
    assert session.status == Session.Status.FINISHED and session.ended_at
    assert (
        session.tournament.__class__.objects.get(pk=session.tournament_id).status == TournamentStatus.FINISHED
    )


def test_handover_follows_the_basic_movement(session):
    items = handover(session, 1)
    assert [h.table for h in items] == [1, 2, 3, 4, 5]
    by_table = {h.table: h for h in items}
    # Rules §4: sets go to the table one lower; table 1 passes to the last table.
    assert by_table[2].set_to == (1,)
    assert by_table[1].set_to == (5,)
    assert "1N stays" in by_table[1].moves
    assert any(m.startswith("1E–2E") for m in by_table[1].moves)
    assert handover(session, 5)[0].set_to == ()
