"""The one write path for protocol rows: checked by the core, audited, rescored, never duplicated."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from scoring.errors import ResultConflict
from scoring.models import Result, Standing
from scoring.row_command import (
    ArtificialAdjustment,
    AssignedAdjustment,
    PlayedRow,
    RowAuthor,
    RowCommand,
    RowPlace,
    RowWriting,
)
from scoring.rows import result_save
from tournaments.errors import UserError
from tournaments.models import AuditEntry, Session, Tournament
from tournaments.refusals import ResultRejected

pytestmark = pytest.mark.django_db

ROW = {
    "contract": "6S",
    "declarer": ["E", 6],
    "w1": ["S", 2],
    "w2": ["W", 2],
    "calls": {"S": "whist", "W": "whist"},
    "play": "closed",
}


@pytest.fixture
def demo():
    call_command("seed_demo", stdout=StringIO())
    t = Tournament.objects.get(slug="demo")
    return t, t.sessions.get()


def _free_slot(session: Session):
    """Round 4's first table, first board: seated but not yet played."""
    seating = session.seatings.get(round_number=4, table_number=1)
    board = session.boards.filter(set_number=seating.set_number).order_by("number").first()
    seats = {k: p.number for k, p in seating.seats().items()}
    return board, seating, seats


def test_a_legal_row_is_stored_with_the_cores_vists_audited_and_rescored(
    demo, director, django_capture_on_commit_callbacks
):
    t, session = demo
    board, seating, seats = _free_slot(session)
    row = dict(ROW)
    if board.dealer in ("E", "S", "W"):  # the declarer and defenders must be the three active seats
        active = [s for s in "NESW" if s != board.dealer]
        row = {
            **row,
            "declarer": [active[0], 6],
            "w1": [active[1], 2],
            "w2": [active[2], 2],
            "calls": {active[1]: "whist", active[2]: "whist"},
        }
    before = Standing.objects.filter(tournament=t).count()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        result = result_save(
            RowCommand(
                RowPlace(session=session, board=board.number, round=4, table=1, seats=seats),
                PlayedRow(row=row),
                RowWriting(reason="entered from the paper protocol"),
                RowAuthor(user=director),
            ),
            now=timezone.now(),
        )
    assert len(callbacks) == 1
    result.refresh_from_db()
    assert sum(int(v) for v in result.vists.values()) == 0
    assert result.matchpoints is not None, "rescored after commit"
    assert Standing.objects.filter(tournament=t).count() == before
    entry = AuditEntry.objects.filter(tournament=t, action="result.create").latest("at")
    assert entry.user == director
    assert entry.data["after"]["row"]["contract"] == "6S"
    session.refresh_from_db()
    assert session.standings_current


def test_an_illegal_row_is_refused_with_the_rule_and_nothing_is_stored(demo):
    _t, session = demo
    board, _seating, seats = _free_slot(session)
    active = [s for s in "NESW" if s != board.dealer]
    bad = {
        "contract": "6S",
        "declarer": [active[0], 6],
        "w1": [active[1], 3],
        "w2": [active[2], 2],
        "calls": {active[1]: "whist", active[2]: "whist"},
        "play": "closed",
    }
    count = Result.objects.count()
    with pytest.raises(ResultRejected) as info:
        result_save(
            RowCommand(
                RowPlace(session=session, board=board.number, round=4, table=1, seats=seats),
                PlayedRow(row=bad),
            ),
            now=timezone.now(),
        )
    assert "6 + 3 + 2 = 11 tricks, more than 10" in str(info.value)
    assert info.value.refusals[0].code
    assert Result.objects.count() == count


def test_seats_are_checked(demo):
    _t, session = demo
    board, _seating, seats = _free_slot(session)
    with pytest.raises(ResultRejected) as info:
        result_save(
            RowCommand(
                RowPlace(
                    session=session,
                    board=board.number,
                    round=4,
                    table=1,
                    seats={**seats, "E": seats["N"], "W": 999},
                ),
                ArtificialAdjustment(grades={"N": "A", "E": "A", "S": "A", "W": "A"}),
            ),
            now=timezone.now(),
        )
    codes = {r.code for r in info.value.refusals}
    assert {"seat_twice", "participant_unknown"} <= codes


def test_second_entry_conflicts_and_director_replace_is_audited(demo, director):
    _t, session = demo
    board, _seating, seats = _free_slot(session)
    adjusted = {"N": "A", "E": "A", "S": "A", "W": "A"}
    place = RowPlace(session=session, board=board.number, round=4, table=1, seats=seats)
    first = result_save(RowCommand(place, ArtificialAdjustment(grades=adjusted)), now=timezone.now())
    with pytest.raises(ResultConflict):
        result_save(RowCommand(place, ArtificialAdjustment(grades=adjusted)), now=timezone.now())
    changed = result_save(
        RowCommand(
            place,
            AssignedAdjustment(vists={"N": "10", "E": "-5", "S": "-5", "W": "0"}),
            RowWriting(correction=True, reason="§11.2 assigned score"),
            RowAuthor(user=director),
        ),
        now=timezone.now(),
    )
    assert changed.pk == first.pk
    entry = AuditEntry.objects.filter(action="result.update").latest("at")
    assert entry.reason == "§11.2 assigned score"
    assert entry.data["before"]["adjusted"] == adjusted
    assert entry.data["after"]["assigned"] == {"N": "10", "E": "-5", "S": "-5", "W": "0"}


def test_a_retried_submission_returns_the_first_row(demo):
    _t, session = demo
    board, _seating, seats = _free_slot(session)
    command = RowCommand(
        RowPlace(session=session, board=board.number, round=4, table=1, seats=seats),
        ArtificialAdjustment(grades={"N": "A", "E": "A", "S": "A", "W": "A"}),
        RowWriting(idempotency_key="device-1:42"),
    )
    a = result_save(command, now=timezone.now())
    b = result_save(command, now=timezone.now())
    assert a.pk == b.pk
    assert Result.objects.filter(idempotency_key="device-1:42").count() == 1


def test_nobody_plays_a_board_twice(demo):
    _t, session = demo
    played = session.results.filter(round_number=1, table_number=1).first()
    seats = played.seats()
    # The same four players on the same board at another table in round 4: refused, naming the rule.
    with pytest.raises(ResultRejected) as info:
        result_save(
            RowCommand(
                RowPlace(session=session, board=played.board_number, round=4, table=3, seats=seats),
                ArtificialAdjustment(grades={"N": "A", "E": "A", "S": "A", "W": "A"}),
            ),
            now=timezone.now(),
        )
    assert info.value.refusals[0].code == "board_played_twice"
    assert "§11.6" in str(info.value)


def test_final_results_change_only_for_arithmetic_errors_and_locked_never(demo):
    from events.publication import tournament_lock
    from tests.publishing import end_every_round, publish_to
    from tournaments.models import Publication

    t, session = demo
    played = session.results.filter(adjusted__isnull=True).first()
    from django.utils import timezone

    director = t.directors.get()
    end_every_round(t, director, timezone.now())
    publish_to(t, Publication.FINAL, director, timezone.now())
    place = RowPlace(
        session=session,
        board=played.board_number,
        round=played.round_number,
        table=played.table_number,
        seats=played.seats(),
    )
    correction = RowWriting(correction=True, reason="an arithmetic error")
    arithmetic = RowWriting(correction=True, reason="an arithmetic error", arithmetic=True)
    with pytest.raises(UserError) as info:
        result_save(RowCommand(place, PlayedRow(row=played.row), correction), now=timezone.now())
    assert info.value.code == "results_final"
    assert (
        result_save(RowCommand(place, PlayedRow(row=played.row), arithmetic), now=timezone.now()).pk
        == played.pk
    )
    tournament_lock(tournament=t, user=director, now=timezone.now())
    with pytest.raises(UserError) as info:
        result_save(RowCommand(place, PlayedRow(row=played.row), arithmetic), now=timezone.now())
    assert info.value.code == "tournament_locked"


def test_rescore_requests_coalesce_while_one_is_queued(demo, settings, monkeypatch):
    from scoring import tasks
    from scoring.rescore import request_rescore

    t, _session = demo
    queued: list[int] = []
    countdowns: list[float] = []

    def apply_async(args, countdown):
        queued.append(args[0])
        countdowns.append(countdown)

    monkeypatch.setattr(tasks.rescore_tournament_task, "apply_async", apply_async)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.RESCORE_DELAY = 3
    assert request_rescore(t.pk) == "queued"
    assert [request_rescore(t.pk) for _ in range(5)] == ["coalesced"] * 5
    assert queued == [t.pk]
    # The task clears the mark as it starts: the next change queues a fresh rescore.
    tasks.rescore_tournament_task.run(t.pk)
    assert request_rescore(t.pk) == "queued"
    assert queued == [t.pk, t.pk]
    # Each rescore waits a moment, so a burst of rows shares it.
    assert countdowns == [3, 3]
