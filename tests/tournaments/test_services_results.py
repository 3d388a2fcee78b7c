from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from appeals.services.fouled_boards import board_clear_fouled, board_mark_fouled
from boards.models import Board
from duplicate.gaps import publication_gaps, round_gaps
from duplicate.rounds import round_end, round_start
from events.publication import publish, tournament_lock, unpublish
from scoring.errors import ResultConflict
from scoring.models import Penalty, Result, Standing
from scoring.penalties import penalty_delete as penalty_remove
from scoring.penalties import penalty_save as penalty_add
from scoring.row_command import (
    ArtificialAdjustment,
    AssignedAdjustment,
    PlayedRow,
    RowAuthor,
    RowCommand,
    RowPlace,
    RowWriting,
)
from scoring.rows import result_delete as director_result_delete
from scoring.rows import result_save as director_result_save
from tournaments.errors import UserError
from tournaments.models import AuditEntry, Publication, Round
from tournaments.refusals import ResultRejected

from .conftest import legal_row

pytestmark = pytest.mark.django_db


def enter(session, director, *, board, round=1, table=1, content=None, writing=None):
    """The director enters (or corrects) a row: a legal played deal unless ``content`` says otherwise."""
    dealer = Board.objects.get(session=session, number=board).dealer
    command = RowCommand(
        RowPlace(session=session, board=board, round=round, table=table),
        content or PlayedRow(row=legal_row(dealer)),
        writing or RowWriting(),
        RowAuthor(user=director),
    )
    return director_result_save(command, now=timezone.now())


def set_of(session, round, table):
    return session.seatings.get(round_number=round, table_number=table).set_number


def boards_of(session, round, table):
    s = set_of(session, round, table)
    return list(Board.objects.filter(session=session, set_number=s).values_list("number", flat=True))


def test_entry_takes_the_seats_from_the_seating_and_rescores(
    session, director, django_capture_on_commit_callbacks
):
    b = boards_of(session, 1, 1)[0]
    with django_capture_on_commit_callbacks(execute=True):
        result = enter(session, director, board=b)
    seating = session.seatings.get(round_number=1, table_number=1)
    assert result.seats() == {k: p.number for k, p in seating.seats().items()}
    assert result.status == Result.Status.DIRECTOR
    result.refresh_from_db()
    assert result.matchpoints is not None  # rescored eagerly on commit
    assert Standing.objects.filter(tournament=session.tournament).count() == 20
    assert AuditEntry.objects.filter(action="result.create").count() == 1


def test_board_must_belong_to_the_tables_set(session, director):
    other = next(n for n in range(1, 21) if n not in boards_of(session, 1, 1))
    with pytest.raises(UserError):
        enter(session, director, board=other)
    with pytest.raises(UserError):
        enter(session, director, board=1, table=9)


def test_core_refusals_reach_the_director(session, director):
    b = boards_of(session, 1, 1)[0]
    with pytest.raises(ResultRejected) as exc:
        enter(
            session,
            director,
            board=b,
            content=PlayedRow(
                row={"contract": "6S", "declarer": ["N", 6], "w1": ["E", 3], "w2": ["S", 3], "play": "closed"}
            ),
        )
    assert exc.value.refusals


def test_correction_needs_a_reason_and_keeps_the_version(session, director):
    b = boards_of(session, 1, 1)[0]
    enter(session, director, board=b)
    with pytest.raises(ResultConflict):
        enter(session, director, board=b)
    with pytest.raises(UserError):
        enter(session, director, board=b, writing=RowWriting(correction=True))
    Result.objects.filter(board_number=b).update(version="B")
    r = enter(
        session,
        director,
        board=b,
        content=ArtificialAdjustment(grades={"N": "A+", "E": "A-", "S": "A", "W": "A"}),
        writing=RowWriting(correction=True, reason="11.7: wrong hand"),
    )
    assert r.version == "B" and r.adjusted["N"] == "A+" and not r.row
    entry = AuditEntry.objects.filter(action="result.update").first()
    assert entry.reason == "11.7: wrong hand" and entry.data["before"]["row"]["contract"] == "6S"
    with pytest.raises(UserError):
        director_result_delete(result=r, user=director, reason=" ", now=timezone.now())
    director_result_delete(result=r, user=director, reason="entered twice", now=timezone.now())
    assert not Result.objects.filter(board_number=b).exists()


def test_assigned_result(session, director):
    b = boards_of(session, 1, 1)[0]
    r = enter(
        session,
        director,
        board=b,
        content=AssignedAdjustment(vists={"N": "12", "E": "-5", "S": "0", "W": "-7"}),
    )
    assert r.vists == {"N": "12", "E": "-5", "S": "0", "W": "-7"}


def test_fouled_board_versions_are_scored_separately(session, director, django_capture_on_commit_callbacks):
    b = boards_of(session, 1, 1)[0]
    tables = [
        s.table_number
        for s in session.seatings.filter(round_number__in=[1, 2, 3])
        if b in boards_of(session, s.round_number, s.table_number)
    ]
    played = []
    for s in session.seatings.all():
        if b in boards_of(session, s.round_number, s.table_number):
            played.append(enter(session, director, board=b, round=s.round_number, table=s.table_number))
    assert len(played) == 5 and tables
    board = Board.objects.get(session=session, number=b)
    with pytest.raises(UserError):
        board_mark_fouled(board=board, user=director, note="", now=timezone.now())
    with django_capture_on_commit_callbacks(execute=True):
        board_mark_fouled(
            board=board,
            user=director,
            note="♠A in E's pocket from round 3",
            versions={played[-1].pk: "B", played[-2].pk: "B"},
            now=timezone.now(),
        )
    board.refresh_from_db()
    assert board.fouled
    versions = dict(Result.objects.filter(board_number=b).values_list("pk", "version"))
    assert sorted(versions.values()) == ["A", "A", "A", "B", "B"]
    top = Result.objects.get(pk=played[0].pk).top["N"]
    assert top == "8"  # Neuberg: each version scaled to the session's five results
    board_clear_fouled(board=board, user=director, reason="a mistake", now=timezone.now())
    assert set(Result.objects.filter(board_number=b).values_list("version", flat=True)) == {"A"}


def test_penalties(session, director):
    p = session.tournament.participants.get(number=7)
    with pytest.raises(UserError):
        penalty_add(
            session=session,
            participant=p,
            matchpoints="2",
            reason="12.2.2",
            user=director,
            now=timezone.now(),
        )
    pen = penalty_add(
        session=session,
        participant=p,
        matchpoints="-1/2",
        reason="12.2.2 slow play",
        user=director,
        now=timezone.now(),
    )
    assert pen.matchpoints == "-1/2"
    assert AuditEntry.objects.filter(action="penalty.create").exists()
    penalty_remove(penalty=pen, user=director, reason="appeal upheld", now=timezone.now())
    assert not Penalty.objects.exists()
    assert AuditEntry.objects.filter(action="penalty.delete", reason="appeal upheld").exists()


def play_everything(session, director):
    for rnd in session.rounds.order_by("number"):
        round_start(rnd=rnd, user=director, now=timezone.now())
        round_end(rnd=rnd, user=director, now=timezone.now(), acknowledged=round_gaps(rnd).token)


def test_publication_steps_and_lock(session, director):
    t = session.tournament
    with pytest.raises(UserError):
        publish(tournament=t, to=Publication.OFFICIAL, user=director, now=timezone.now())
    t0 = timezone.now()
    publish(tournament=t, to=Publication.PROVISIONAL, user=director, now=t0)
    assert t.__class__.objects.get(pk=t.pk).published_at == t0
    with pytest.raises(UserError):  # play is not over
        publish(tournament=t, to=Publication.OFFICIAL, user=director, now=timezone.now())
    play_everything(session, director)
    t.refresh_from_db()
    publish(
        tournament=t, to=Publication.OFFICIAL, user=director, now=t0, acknowledged=publication_gaps(t).token
    )
    t.refresh_from_db()
    with pytest.raises(UserError):  # the correction period runs 30 minutes
        publish(tournament=t, to=Publication.FINAL, user=director, now=t0 + dt.timedelta(minutes=29))
    b = boards_of(session, 1, 1)[0]
    enter(session, director, board=b)  # corrections are still accepted
    publish(
        tournament=t,
        to=Publication.FINAL,
        user=director,
        now=t0 + dt.timedelta(minutes=30),
        acknowledged=publication_gaps(t).token,
    )
    t.refresh_from_db()
    with pytest.raises(UserError):
        enter(session, director, board=boards_of(session, 1, 1)[1])
    tournament_lock(tournament=t, user=director, now=timezone.now())
    t.refresh_from_db()
    assert t.is_locked
    with pytest.raises(UserError):
        unpublish(tournament=t, user=director, reason="x", now=timezone.now())


def test_unpublish_provisional(session, director):
    t = session.tournament
    publish(tournament=t, to=Publication.PROVISIONAL, user=director, now=timezone.now())
    unpublish(tournament=t, user=director, reason="wrong names", now=timezone.now())
    t.refresh_from_db()
    assert t.publication == Publication.DRAFT and t.published_at is None
    assert Round.objects.filter(session=session).count() == 5
