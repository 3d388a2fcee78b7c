"""An appeal through every state, the refused steps, and its score changes reaching the standings exactly."""

from __future__ import annotations

import datetime as dt

import pytest

from appeals import services as svc
from appeals.models import Appeal, ScoreChange
from events.bundles import tournament_to_bundle
from preferans.duplicate.session_scoring import score_document
from scoring.models import Result, Standing
from tournaments.models import AuditEntry, Participant, Publication

from .conftest import ENDED, publish_demo

pytestmark = pytest.mark.django_db
IN_TIME = ENDED + dt.timedelta(minutes=10)


def core_standings(tournament, edit=None):
    """The scoring core's standings for the tournament's bundle, optionally edited first (independent path)."""
    bundle = tournament_to_bundle(tournament)
    if edit:
        edit(bundle)
    return {
        s["participant"]: (s["matchpoints"], s["max"], s["percent"])
        for s in score_document(bundle)["standings"]
    }


def db_standings(tournament):
    return {
        s.participant.number: (s.matchpoints, s.max, s.percent)
        for s in Standing.objects.filter(tournament=tournament).select_related("participant")
    }


def file_one(session, number=1, board=1, now=IN_TIME, **kw):
    appellant = Participant.objects.get(tournament=session.tournament, number=number)
    return svc.appeal_file(
        session=session,
        appellant=appellant,
        round=1,
        board=board,
        claim="The declarer's claim was wrong",
        bidding="6S pass pass",
        play="SA, …",
        now=now,
        **kw,
    )


def walk_to_heard(appeal, director_user, committee, now=IN_TIME):
    appeal = svc.appeal_comment(
        appeal=appeal, comment="I ruled the claim stands.", user=director_user, now=now
    )
    return svc.appeal_hear(
        appeal=appeal, members=committee, notes="heard both sides", user=director_user, now=now
    )


def test_full_appeal_adjusts_the_standings_exactly_and_audits_every_step(
    demo, director_user, committee, django_capture_on_commit_callbacks
):
    t, session = demo
    before = db_standings(t)
    appeal = file_one(session)
    assert appeal.status == Appeal.Status.FILED and appeal.table_number == 1
    assert appeal.seats == {"N": 1, "E": 6, "S": 11, "W": 16}
    assert appeal.deadline == ENDED + dt.timedelta(minutes=30)
    appeal = walk_to_heard(appeal, director_user, committee)
    assert appeal.status == Appeal.Status.HEARD
    grades = {"N": "A+", "E": "A-", "S": "A+", "W": "A"}
    appeal = svc.appeal_decide(
        appeal=appeal,
        outcome="adjusted",
        decision="Artificial result.",
        adjustment={"kind": "artificial", "values": grades},
        user=director_user,
        now=IN_TIME,
    )
    assert appeal.status == Appeal.Status.DECIDED
    with pytest.raises(svc.TransitionRefused, match="Not signed"):
        svc.appeal_apply(appeal=appeal, user=director_user, now=IN_TIME)
    for m in committee:
        svc.appeal_sign(appeal=appeal, member=m, user=director_user, now=IN_TIME)
    with django_capture_on_commit_callbacks(execute=True):
        appeal = svc.appeal_apply(appeal=appeal, user=director_user, now=IN_TIME)
    assert appeal.status == Appeal.Status.APPLIED
    appeal = svc.appeal_close(appeal=appeal, user=director_user, now=IN_TIME)
    assert appeal.status == Appeal.Status.CLOSED

    row = Result.objects.get(session=session, board_number=1, round_number=1, table_number=1)
    assert row.adjusted == grades

    def edit(bundle):
        for r in bundle["sessions"][0]["results"]:
            if (r["board"], r["round"], r["table"]) == (1, 1, 1):
                for k in ("contract", "declarer", "w1", "w2", "calls", "play", "vists"):
                    r.pop(k, None)
                r["adjusted"] = grades

    after = db_standings(t)
    assert after != before
    assert after == core_standings(t)
    # Recomputed by the core from the demo's facts with only this row changed, independently of the services.
    t2 = t
    assert after == core_standings(t2, edit)
    change = appeal.changes.get()
    assert change.status == ScoreChange.Status.APPLIED
    assert change.result == row and change.audit_entry.action == "result.update"
    assert "Appeal No. 1" in change.audit_entry.reason or "Апелляция № 1" in change.audit_entry.reason
    assert change.before["row"]["contract"]
    actions = list(
        AuditEntry.objects.filter(tournament=t, data__appeal=appeal.pk)
        .order_by("id")
        .values_list("action", flat=True)
    )
    assert actions == [
        "appeal.file",
        "appeal.comment",
        "appeal.hear",
        "appeal.decide",
        "appeal.sign",
        "appeal.sign",
        "appeal.sign",
        "appeal.apply",
        "appeal.close",
    ]


def test_a_late_filing_is_refused_with_the_reason_and_the_director_can_admit_it(demo, director_user):
    _t, session = demo
    deadline = ENDED + dt.timedelta(minutes=30)
    on_time = file_one(session, number=1, now=deadline)
    assert on_time.status == Appeal.Status.FILED, "exactly at the deadline is in time"
    late = file_one(session, number=6, board=2, now=deadline + dt.timedelta(microseconds=1))
    assert late.status == Appeal.Status.REFUSED
    assert "30" in late.refusal and "§1" in late.refusal
    with pytest.raises(svc.AppealsError):
        svc.appeal_admit(appeal=late, note="  ", user=director_user, now=deadline)
    admitted = svc.appeal_admit(
        appeal=late, note="The director was busy at another table.", user=director_user, now=deadline
    )
    assert admitted.status == Appeal.Status.FILED and admitted.late_note
    # Filed by the director for the player, admitted at once with a note.
    by_director = file_one(
        session,
        number=11,
        board=3,
        now=deadline + dt.timedelta(hours=1),
        via="director",
        user=director_user,
        late_note="Player was taken ill.",
    )
    assert by_director.status == Appeal.Status.FILED and by_director.filed_via == "director"
    assert AuditEntry.objects.filter(action="appeal.refuse").count() == 1
    assert AuditEntry.objects.filter(action="appeal.admit").count() == 1


def test_no_appeal_while_results_are_final(demo):
    t, session = demo
    publish_demo(t, Publication.FINAL)
    appeal = file_one(session)
    assert appeal.status == Appeal.Status.REFUSED
    assert "arithmetic" in appeal.refusal or "арифмет" in appeal.refusal


def test_filing_is_open_while_the_session_runs(demo):
    _t, session = demo
    session.ended_at = None
    session.save()
    appeal = file_one(session, now=ENDED + dt.timedelta(days=3))
    assert appeal.status == Appeal.Status.FILED and appeal.deadline is None


def test_the_appellant_must_have_played_the_board(demo):
    _t, session = demo
    with pytest.raises(svc.AppealsError, match="did not play"):
        file_one(session, number=2, board=1)


@pytest.mark.parametrize(
    "state_steps, step",
    [
        ([], "hear"),
        ([], "decide"),
        ([], "apply"),
        ([], "close"),
        (["comment"], "decide"),
        (["comment", "hear"], "comment"),
        (["comment", "hear", "decide"], "hear"),
        (["comment", "hear", "decide"], "withdraw"),
        (["withdraw"], "comment"),
    ],
)
def test_refused_transitions(demo, director_user, committee, state_steps, step):
    _t, session = demo
    appeal = file_one(session)
    steps = {
        "comment": lambda a: svc.appeal_comment(appeal=a, comment="c", user=director_user, now=IN_TIME),
        "hear": lambda a: svc.appeal_hear(appeal=a, members=committee, user=director_user, now=IN_TIME),
        "decide": lambda a: svc.appeal_decide(
            appeal=a, outcome="upheld", decision="stands", user=director_user, now=IN_TIME
        ),
        "apply": lambda a: svc.appeal_apply(appeal=a, user=director_user, now=IN_TIME),
        "close": lambda a: svc.appeal_close(appeal=a, user=director_user, now=IN_TIME),
        "withdraw": lambda a: svc.appeal_withdraw(appeal=a, user=director_user, now=IN_TIME),
    }
    for s in state_steps:
        appeal = steps[s](appeal)
    status = Appeal.objects.get(pk=appeal.pk).status
    with pytest.raises(svc.TransitionRefused):
        steps[step](appeal)
    assert Appeal.objects.get(pk=appeal.pk).status == status


def test_upheld_appeal_changes_no_score(demo, director_user, committee, django_capture_on_commit_callbacks):
    t, session = demo
    before = db_standings(t)
    results_before = AuditEntry.objects.filter(action__startswith="result.").count()
    appeal = walk_to_heard(file_one(session), director_user, committee)
    appeal = svc.appeal_decide(
        appeal=appeal, outcome="upheld", decision="The ruling stands.", user=director_user, now=IN_TIME
    )
    for m in committee:
        svc.appeal_sign(appeal=appeal, member=m, user=director_user, now=IN_TIME)
    with django_capture_on_commit_callbacks(execute=True):
        svc.appeal_apply(appeal=appeal, user=director_user, now=IN_TIME)
    assert db_standings(t) == before
    assert AuditEntry.objects.filter(action__startswith="result.").count() == results_before


def test_a_member_who_played_the_deal_may_not_sit(demo, director_user):
    t, session = demo
    from appeals.models import CommitteeMember

    conflicted = CommitteeMember.objects.create(
        tournament=t, name="Player 6", participant=Participant.objects.get(tournament=t, number=6)
    )
    appeal = svc.appeal_comment(appeal=file_one(session), comment="c", user=director_user, now=IN_TIME)
    with pytest.raises(svc.AppealsError, match="played in the deal"):
        svc.appeal_hear(appeal=appeal, members=[conflicted], user=director_user, now=IN_TIME)


def test_a_second_signature_and_a_stranger_are_refused(demo, director_user, committee):
    from appeals.models import CommitteeMember

    t, session = demo
    appeal = walk_to_heard(file_one(session), director_user, committee)
    appeal = svc.appeal_decide(
        appeal=appeal, outcome="upheld", decision="stands", user=director_user, now=IN_TIME
    )
    svc.appeal_sign(appeal=appeal, member=committee[0], user=director_user, now=IN_TIME)
    with pytest.raises(svc.TransitionRefused):
        svc.appeal_sign(appeal=appeal, member=committee[0], user=director_user, now=IN_TIME)
    stranger = CommitteeMember.objects.create(tournament=t, name="Stranger")
    with pytest.raises(svc.AppealsError, match="not on the panel"):
        svc.appeal_sign(appeal=appeal, member=stranger, user=director_user, now=IN_TIME)


def test_deciding_again_clears_the_signatures(demo, director_user, committee):
    _t, session = demo
    appeal = walk_to_heard(file_one(session), director_user, committee)
    appeal = svc.appeal_decide(
        appeal=appeal, outcome="upheld", decision="stands", user=director_user, now=IN_TIME
    )
    svc.appeal_sign(appeal=appeal, member=committee[0], user=director_user, now=IN_TIME)
    appeal = svc.appeal_decide(
        appeal=appeal,
        outcome="adjusted",
        decision="A for all",
        adjustment={"kind": "artificial", "values": dict.fromkeys("NESW", "A")},
        user=director_user,
        now=IN_TIME,
    )
    assert not appeal.panel.filter(signed_at__isnull=False).exists()
    assert appeal.changes.filter(status="planned").count() == 1


def test_assigned_result_per_side_reaches_the_standings(
    demo, director_user, committee, django_capture_on_commit_callbacks
):
    t, session = demo
    appeal = walk_to_heard(file_one(session), director_user, committee)
    vists = {"N": "12", "E": "-20", "S": "4", "W": "-10"}  # not zero-sum: each side's own assigned score
    appeal = svc.appeal_decide(
        appeal=appeal,
        outcome="adjusted",
        decision="assigned",
        adjustment={"kind": "assigned", "values": vists},
        user=director_user,
        now=IN_TIME,
    )
    for m in committee:
        svc.appeal_sign(appeal=appeal, member=m, user=director_user, now=IN_TIME)
    with django_capture_on_commit_callbacks(execute=True):
        svc.appeal_apply(appeal=appeal, user=director_user, now=IN_TIME)
    row = Result.objects.get(session=session, board_number=1, round_number=1, table_number=1)
    assert row.assigned == vists and row.vists == vists
    assert db_standings(t) == core_standings(t)


def test_bad_adjustments_are_refused(demo, director_user, committee):
    _t, session = demo
    appeal = walk_to_heard(file_one(session), director_user, committee)
    with pytest.raises(svc.AppealsError):
        svc.appeal_decide(
            appeal=appeal,
            outcome="adjusted",
            decision="x",
            adjustment={"kind": "artificial", "values": {"N": "A+"}},
            user=director_user,
            now=IN_TIME,
        )
    with pytest.raises(svc.AppealsError):
        svc.appeal_decide(
            appeal=appeal,
            outcome="adjusted",
            decision="x",
            adjustment={"kind": "assigned", "values": dict.fromkeys("NESW", "x")},
            user=director_user,
            now=IN_TIME,
        )
    with pytest.raises(svc.AppealsError):
        svc.appeal_decide(appeal=appeal, outcome="cancelled", decision="x", user=director_user, now=IN_TIME)
    assert Appeal.objects.get(pk=appeal.pk).status == Appeal.Status.HEARD


def test_notice_before_the_next_deal(demo, director_user):
    t, session = demo
    p = Participant.objects.get(tournament=t, number=1)
    # Board 1 at table 1 in round 1; board 2 there was entered at some moment: a notice after that is late.
    later = Result.objects.get(session=session, board_number=2, round_number=1, table_number=1)
    started = svc.next_deal_started_at(session=session, board=1, round=1, table=1)
    assert started is not None and started <= later.created_at
    notice = svc.appeal_notice(
        session=session,
        appellant=p,
        round=1,
        board=1,
        user=director_user,
        now=started - dt.timedelta(seconds=1),
    )
    assert notice.status == Appeal.Status.NOTICE
    p6 = Participant.objects.get(tournament=t, number=6)
    with pytest.raises(svc.DeadlineMissed):
        svc.appeal_notice(session=session, appellant=p6, round=1, board=1, user=director_user, now=started)
    admitted = svc.appeal_notice(
        session=session,
        appellant=p6,
        round=1,
        board=1,
        user=director_user,
        now=started,
        late_note="the table was slow",
    )
    assert admitted.late_note
    with pytest.raises(svc.AppealsError, match="already"):
        svc.appeal_notice(
            session=session,
            appellant=p,
            round=1,
            board=1,
            user=director_user,
            now=started - dt.timedelta(seconds=1),
        )
    # Filing completes the noticed appeal instead of creating another.
    filed = file_one(session)
    assert filed.pk == notice.pk and filed.status == Appeal.Status.FILED and filed.notice_at is not None


def test_cancelling_a_ruling_restores_the_row_exactly(
    demo, director_user, committee, django_capture_on_commit_callbacks
):
    t, session = demo
    original = Result.objects.get(session=session, board_number=1, round_number=1, table_number=1)
    facts = (original.row, original.vists)
    before = db_standings(t)
    with django_capture_on_commit_callbacks(execute=True):
        ruling = svc.irregularity_record(
            session=session,
            kind="wrong_hand",
            round=1,
            table=1,
            board=1,
            fault={"E": "offending"},
            user=director_user,
            now=ENDED,
        )
        svc.irregularity_apply(irregularity=ruling, user=director_user, now=ENDED)
    assert Result.objects.get(pk=original.pk).adjusted == {"N": "A+", "E": "A-", "S": "A+", "W": "A+"}
    assert db_standings(t) != before
    appeal = walk_to_heard(file_one(session, number=6, ruling=ruling), director_user, committee)
    appeal = svc.appeal_decide(
        appeal=appeal,
        outcome="cancelled",
        decision="No wrong hand was played.",
        user=director_user,
        now=IN_TIME,
    )
    for m in committee:
        svc.appeal_sign(appeal=appeal, member=m, user=director_user, now=IN_TIME)
    with django_capture_on_commit_callbacks(execute=True):
        svc.appeal_apply(appeal=appeal, user=director_user, now=IN_TIME)
    restored = Result.objects.get(pk=original.pk)
    assert (restored.row, restored.vists) == facts and restored.adjusted is None
    assert db_standings(t) == before


@pytest.mark.parametrize(
    ("percent", "refused"),
    [
        ({"N": "71"}, None),
        ({"E": "71"}, "percent_not_plus"),
        ({"N": "55"}, "percent_below_plus"),
        ({"N": "lots"}, "percent"),
    ],
)
def test_rule_11_2_B1_the_committee_gives_a_non_offender_more_than_A_plus(
    demo, director_user, committee, django_capture_on_commit_callbacks, percent, refused
):
    """§11.2 Б.1 «по меньшей мере 60 % … для невиновной стороны»: the appeals committee, like the director's ruling,
    may give a non-offender (A+) more than the tournament's A+ — never an offender, never less than A+; the write
    path stores it when the decision is applied and the board is scored with it."""
    _t, session = demo
    appeal = walk_to_heard(file_one(session), director_user, committee)
    grades = {"N": "A+", "E": "A-", "S": "A+", "W": "A"}
    adjustment = {"kind": "artificial", "values": grades, "percent": percent}
    if refused:
        with pytest.raises(svc.AppealsError) as info:
            svc.appeal_decide(
                appeal=appeal,
                outcome="adjusted",
                decision="N's session is 71 %",
                adjustment=adjustment,
                user=director_user,
                now=IN_TIME,
            )
        assert info.value.code == refused
        assert not appeal.changes.exists()
        return
    appeal = svc.appeal_decide(
        appeal=appeal,
        outcome="adjusted",
        decision="N's session is 71 %",
        adjustment=adjustment,
        user=director_user,
        now=IN_TIME,
    )
    for m in committee:
        svc.appeal_sign(appeal=appeal, member=m, user=director_user, now=IN_TIME)
    with django_capture_on_commit_callbacks(execute=True):
        svc.appeal_apply(appeal=appeal, user=director_user, now=IN_TIME)
    row = Result.objects.get(session=session, board_number=1, round_number=1, table_number=1)
    assert row.adjusted == grades and row.percent == {"N": "71"}
    assert row.matchpoints["N"] > row.matchpoints["S"]  # 71 % against the plain A+ of S


def test_rule_11_2_B1_the_committees_form_carries_the_percentage_above_A_plus():
    from appeals.forms import DecideForm

    data = {
        "outcome": "adjusted",
        "decision": "d",
        "kind": "artificial",
        "grade_N": "A+",
        "grade_E": "A-",
        "grade_S": "A",
        "grade_W": "A",
        "percent_N": "70.50",
        "percent_S": "",
    }
    form = DecideForm(data, seats=["N", "E", "S", "W"])
    assert form.is_valid(), form.errors
    assert form.adjustment()["percent"] == {"N": "70.5"}
    form = DecideForm({**data, "percent_N": "70"}, seats=["N", "E", "S", "W"])
    assert form.is_valid() and form.adjustment()["percent"] == {"N": "70"}
    form = DecideForm({**data, "percent_N": "100.5"}, seats=["N", "E", "S", "W"])
    assert not form.is_valid() and "percent_N" in form.errors
