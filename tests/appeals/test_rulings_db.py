"""Irregularities recorded at a table: the remedy the rules prescribe, applied on confirmation, audited."""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

import pytest
from django.utils import timezone

from appeals import services as svc
from appeals.models import Irregularity, ScoreChange
from preferans.cards.deck import format_hand, parse_hand
from scoring.models import Penalty, Result, Standing
from scoring.row_command import PlayedRow, RowCommand, RowPlace, RowWriting
from scoring.rows import result_save
from tournaments.models import AuditEntry, Participant, Publication
from tournaments.refusals import ResultRejected

from .conftest import ENDED, publish_demo
from .test_appeal_flow import core_standings, db_standings

pytestmark = pytest.mark.django_db


def record(session, user, **kw):
    return svc.irregularity_record(session=session, user=user, now=ENDED, **kw)


def test_wrong_hand_artificial_by_fault(demo, director_user, django_capture_on_commit_callbacks):
    t, session = demo
    irr = record(
        session,
        director_user,
        kind="wrong_hand",
        round=1,
        table=1,
        board=2,
        fault={"S": "offending", "W": "partly"},
    )
    assert irr.proposal["rule"] == "§11.7"
    change = irr.changes.get()
    assert (change.kind, change.values) == ("artificial", {"N": "A+", "E": "A+", "S": "A-", "W": "A"})
    assert (
        Result.objects.get(session=session, board_number=2, round_number=1, table_number=1).adjusted is None
    ), "not applied before confirmation"
    with django_capture_on_commit_callbacks(execute=True):
        svc.irregularity_apply(
            irregularity=irr, ruling="Player S took the hand of pocket N.", user=director_user, now=ENDED
        )
    row = Result.objects.get(session=session, board_number=2, round_number=1, table_number=1)
    assert row.adjusted == change.values
    assert db_standings(t) == core_standings(t)
    change.refresh_from_db()
    assert change.audit_entry.reason.startswith(("Director's ruling", "Решение судьи"))
    # 40 / 50 / 60 % of the board-line top, exactly.
    mp = {s: Fraction(v) for s, v in row.matchpoints.items()}
    top = Fraction(row.top["N"])
    assert mp == {"N": top * 60 / 100, "E": top * 60 / 100, "S": top * 40 / 100, "W": top * 50 / 100}
    with pytest.raises(svc.TransitionRefused):
        svc.irregularity_apply(irregularity=irr, user=director_user, now=ENDED)


def test_wrong_board_played_before_annuls_the_second_result(
    demo, director_user, django_capture_on_commit_callbacks
):
    t, session = demo
    seating = session.seatings.get(round_number=4, table_number=1)
    seats = {k: p.number for k, p in seating.seats().items()}
    first = Result.objects.get(session=session, board_number=1, round_number=1, table_number=1)
    assert seats["N"] == 1  # N stays: participant 1 played board 1 in round 1
    # The table wrote the wrong board's row on paper; the software refuses such a row (board played twice), so
    # it is put in as it stands on the protocol to test the ruling that annuls it.
    Result.objects.create(
        session=session,
        board_number=1,
        round_number=4,
        table_number=1,
        dealer=first.dealer,
        row=first.row,
        position=999,
        **{f"seat_{k.lower()}": p for k, p in seating.seats().items()},
    )
    with pytest.raises(ResultRejected, match="already played board 1"):
        result_save(
            RowCommand(
                RowPlace(session=session, board=1, round=4, table=1, seats=seats),
                PlayedRow(row=first.row),
                RowWriting(correction=True, reason="as written on the protocol"),
            ),
            now=timezone.now(),
        )
    intended = session.boards.filter(set_number=seating.set_number).order_by("number").first().number
    irr = record(
        session,
        director_user,
        kind="wrong_board",
        round=4,
        table=1,
        board=1,
        fault={"N": "offending"},
        facts={"intended_board": intended},
    )
    assert "N" in irr.facts["played_before"]
    # §11.6 B: only the repeaters' second results are annulled (N, S and W had all played board 1 before); E keeps.
    assert [c.kind for c in irr.changes.order_by("id")] == ["row", "artificial"]
    with django_capture_on_commit_callbacks(execute=True):
        svc.irregularity_apply(irregularity=irr, user=director_user, now=ENDED)
    second = Result.objects.get(session=session, board_number=1, round_number=4)
    assert second.annulled == irr.facts["played_before"] and "E" not in second.annulled
    art = Result.objects.get(session=session, board_number=intended, round_number=4, table_number=1)
    assert art.adjusted == {"N": "A-", "E": "A+", "S": "A+", "W": "A+"}
    assert db_standings(t) == core_standings(t)
    entry = AuditEntry.objects.filter(action="result.update").latest("id")
    assert entry.data["after"]["annulled"] == second.annulled  # the annulment is audited with the ruling


def test_wrong_board_nobody_played_before_stands(demo, director_user):
    _t, session = demo
    irr = record(
        session, director_user, kind="wrong_board", round=1, table=1, board=1, facts={"play_later": True}
    )
    assert irr.facts["played_before"] == [] and not irr.changes.exists()
    assert "later" in irr.proposal["text"]


def _swap_one_card(board):
    """A played layout of a board with one card moved between two hands (and one back)."""
    seats = list(board.hands)
    a, b = parse_hand(board.hands[seats[0]]), parse_hand(board.hands[seats[1]])
    hands = dict(board.hands)
    hands[seats[0]] = format_hand([*a[1:], b[0]])
    hands[seats[1]] = format_hand([*b[1:], a[0]])
    return {"hands": hands, "prikup": board.prikup}


def test_fouled_board_is_split_into_versions(demo, director_user, django_capture_on_commit_callbacks):
    t, session = demo
    board = session.boards.get(number=3)
    irr = record(
        session,
        director_user,
        kind="fouled",
        round=1,
        table=1,
        board=3,
        facts={"played": _swap_one_card(board)},
    )
    assert irr.facts["version"] == "B"
    assert irr.changes.get().values == {"version": "B"}
    with django_capture_on_commit_callbacks(execute=True):
        svc.irregularity_apply(irregularity=irr, user=director_user, now=ENDED)
    row = Result.objects.get(session=session, board_number=3, round_number=1, table_number=1)
    assert row.version == "B" and row.row
    assert db_standings(t) == core_standings(t)
    # A second table with the same altered layout joins version B.
    other = Result.objects.filter(session=session, board_number=3).exclude(pk=row.pk).first()
    irr2 = record(
        session,
        director_user,
        kind="fouled",
        round=other.round_number,
        table=other.table_number,
        board=3,
        facts={"played": _swap_one_card(board)},
    )
    assert irr2.facts["version"] == "B"


def test_procedural_penalty_reaches_the_standings_exactly(
    demo, director_user, django_capture_on_commit_callbacks
):
    t, session = demo
    before = {
        s.participant.number: Fraction(s.matchpoints)
        for s in Standing.objects.filter(tournament=t).select_related("participant")
    }
    irr = record(
        session,
        director_user,
        kind="procedural",
        round=1,
        table=1,
        facts={"offence": "12.2.3", "penalty_participant": 11, "penalty_matchpoints": "-3/2"},
    )
    with django_capture_on_commit_callbacks(execute=True):
        svc.irregularity_apply(irregularity=irr, user=director_user, now=ENDED)
    after = {
        s.participant.number: Fraction(s.matchpoints)
        for s in Standing.objects.filter(tournament=t).select_related("participant")
    }
    assert after[11] == before[11] - Fraction(3, 2)
    assert {n: v for n, v in after.items() if n != 11} == {n: v for n, v in before.items() if n != 11}
    penalty = Penalty.objects.get(participant__number=11, session=session)
    assert penalty.matchpoints == "-3/2"
    change = irr.changes.get()
    assert change.penalty == penalty and change.audit_entry.action == "penalty.create"


def test_director_error_treats_everyone_as_non_offending(demo, director_user):
    _t, session = demo
    irr = record(
        session, director_user, kind="director_error", round=1, table=2, board=5, fault={"N": "offending"}
    )
    assert irr.changes.get().values == dict.fromkeys("NESW", "A+")


def test_override_to_assigned_and_revise(demo, director_user, django_capture_on_commit_callbacks):
    t, session = demo
    irr = record(session, director_user, kind="other", round=1, table=1, board=4)
    assert not irr.changes.exists()
    irr = svc.irregularity_revise(
        irregularity=irr,
        facts={"remedy": "assigned", "assigned": {"N": "10", "E": "-10", "S": "0", "W": "-3"}},
        user=director_user,
        now=ENDED,
    )
    assert irr.changes.get().kind == "assigned"
    with django_capture_on_commit_callbacks(execute=True):
        svc.irregularity_apply(irregularity=irr, user=director_user, now=ENDED)
    assert db_standings(t) == core_standings(t)
    with pytest.raises(svc.TransitionRefused):
        svc.irregularity_revise(irregularity=irr, fault={}, user=director_user, now=ENDED)


def test_dismiss_drops_the_planned_changes(demo, director_user):
    _t, session = demo
    irr = record(session, director_user, kind="wrong_hand", round=1, table=1, board=2)
    irr = svc.irregularity_dismiss(
        irregularity=irr, ruling="no wrong hand after all", user=director_user, now=ENDED
    )
    assert irr.status == Irregularity.Status.DISMISSED
    assert irr.changes.get().status == ScoreChange.Status.DROPPED


def test_no_ruling_changes_scores_once_results_are_final(demo, director_user):
    t, session = demo
    publish_demo(t, Publication.FINAL)  # first: an open ruling would keep the results from becoming final
    irr = record(session, director_user, kind="wrong_hand", round=1, table=1, board=2)
    with pytest.raises(svc.AppealsError, match="final"):
        svc.irregularity_apply(irregularity=irr, user=director_user, now=ENDED)
    assert Irregularity.objects.get(pk=irr.pk).status == Irregularity.Status.RECORDED


def test_unknown_table_is_refused(demo, director_user):
    _t, session = demo
    with pytest.raises(svc.AppealsError):
        record(session, director_user, kind="wrong_hand", round=1, table=99, board=2)


def test_no_score_change_without_an_audit_entry(
    demo, director_user, committee, django_capture_on_commit_callbacks
):
    """Snapshot every row and penalty, run rulings, an appeal and a correction, and account for each change."""
    t, session = demo
    snap = {
        r.pk: (r.row, r.adjusted, r.assigned, r.version, r.seats())
        for r in Result.objects.filter(session=session)
    }
    penalties = set(Penalty.objects.values_list("pk", flat=True))
    mark = AuditEntry.objects.order_by("-id").first().pk
    with django_capture_on_commit_callbacks(execute=True):
        irr = record(
            session, director_user, kind="wrong_hand", round=1, table=2, board=5, fault={"N": "offending"}
        )
        svc.irregularity_apply(irregularity=irr, user=director_user, now=ENDED)
        pen = record(
            session,
            director_user,
            kind="procedural",
            round=1,
            table=3,
            facts={"penalty_participant": 3, "penalty_matchpoints": "-1"},
        )
        svc.irregularity_apply(irregularity=pen, user=director_user, now=ENDED)
        corr = svc.correction_request(
            session=session, description="tricks", board=1, round=1, table=1, user=director_user, now=ENDED
        )
        first = Result.objects.get(session=session, board_number=1, round_number=1, table_number=1)
        svc.correction_apply(
            correction=corr, seats={**first.seats(), "E": 16, "W": 6}, user=director_user, now=ENDED
        )
    entries = AuditEntry.objects.filter(pk__gt=mark)
    changed = {
        pk
        for pk, facts in snap.items()
        if not Result.objects.filter(pk=pk).exists()
        or (lambda r: (r.row, r.adjusted, r.assigned, r.version, r.seats()))(Result.objects.get(pk=pk))
        != facts
    }
    assert changed
    for pk in changed:
        r = Result.objects.filter(pk=pk).first()
        assert entries.filter(action__startswith="result.", object_repr=str(r)).exists(), pk
    new_penalties = set(Penalty.objects.values_list("pk", flat=True)) - penalties
    assert len(new_penalties) == 1
    assert entries.filter(action="penalty.create").count() == 1
    # Every applied change links its reason and its audit entry.
    for change in ScoreChange.objects.filter(status="applied"):
        assert change.audit_entry is not None and change.reason_object is not None
        assert change.audit_entry.reason
    assert db_standings(t) == core_standings(t)
    assert Participant.objects.get(tournament=t, number=3)  # still there
    assert dt.timedelta(0) == dt.timedelta(0)
