"""Appeals, rulings and corrections about a deal of a pulka (Olympic, compensation, Swiss events): the «where» is
a round's table and a deal on its sheet, the deadlines are the duplicate ones (counted from the end of the round),
and a change to a deal goes through the sheet's one write path (pulkas.services.sheet.correct_deal)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import IntegrityError, transaction

from appeals import services as svc
from appeals.models import Appeal, Correction, Irregularity, ScoreChange
from pulkas.models import PulkaCorrection, PulkaDeal, PulkaTableResult
from pulkas.services import rounds
from tournaments.models import AuditEntry, Publication, Session

from .pulka_event import ENDED, IN_TIME, T0, committee, event_with_round_one, publish_event, six

pytestmark = pytest.mark.django_db


@pytest.fixture
def e(director):
    return event_with_round_one(director)


def file(e, *, deal=2, seat="E", now=IN_TIME, table=None, **kw):
    table = table or e.table
    return svc.pulka_appeal_file(
        tournament=e.t,
        table=table,
        deal=deal,
        appellant=e.seat(table, seat),
        claim="N claimed all the tricks",
        now=now,
        **kw,
    )


def totals(table):
    return dict(PulkaTableResult.objects.filter(table=table).values_list("seat", "vists"))


def heard(e, appeal):
    appeal = svc.appeal_comment(appeal=appeal, comment="I let the claim stand.", user=e.director, now=IN_TIME)
    return svc.appeal_hear(appeal=appeal, members=committee(e), user=e.director, now=IN_TIME)


def signed(e, appeal):
    for seat in appeal.panel.all():
        svc.appeal_sign(appeal=appeal, member=seat.member, user=e.director, now=IN_TIME)
    return appeal


def test_an_appeal_names_the_table_and_the_deal(e):
    appeal = file(e)
    assert appeal.status == Appeal.Status.FILED and appeal.is_pulka
    assert (appeal.pulka_table, appeal.deal_number, appeal.round_number, appeal.table_number) == (
        e.table,
        2,
        1,
        1,
    )
    assert appeal.session is None and appeal.board_number is None
    assert appeal.seats == {s: p.number for s, p in e.table.seats().items()}
    assert appeal.deadline == ENDED + dt.timedelta(minutes=30)
    entry = AuditEntry.objects.get(action="appeal.file")
    assert (entry.data["deal"], entry.data["round"], entry.data["table"]) == (2, 1, 1)


def test_one_where_is_kept_by_the_database(e, tournament):
    appeal = file(e)
    session = Session.objects.create(tournament=tournament, number=1)
    for change in (
        {"session": session},
        {"pulka_table": None},
        {"deal_number": None},
        {"board_number": 3},
        {"deal_number": 0},
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            Appeal.objects.filter(pk=appeal.pk).update(**change)


def test_refused_wheres_keep_nothing(e, director, tournament):
    other_event = event_with_round_one(director, name="Другой кубок")
    cases = [
        ({"table": other_event.table, "seat": "E"}, "table"),  # a table of another event
        ({"deal": 99}, "no_deal"),  # no such deal on the sheet
    ]
    for kw, code in cases:
        with pytest.raises(svc.AppealsError) as caught:
            if "table" in kw:
                svc.pulka_appeal_file(
                    tournament=e.t,
                    table=kw["table"],
                    deal=1,
                    appellant=e.seat(e.table, "E"),
                    claim="c",
                    now=IN_TIME,
                )
            else:
                file(e, **kw)
        assert caught.value.code == code
    with pytest.raises(svc.AppealsError, match="did not play at table 1") as caught:  # he sat at table 2
        svc.pulka_appeal_file(
            tournament=e.t, table=e.table, deal=1, appellant=e.outsider(), claim="c", now=IN_TIME
        )
    assert caught.value.code == "not_played"
    with pytest.raises(svc.AppealsError) as caught:  # a participant of the other event sitting «there»
        svc.pulka_appeal_file(
            tournament=e.t,
            table=e.table,
            deal=1,
            appellant=other_event.seat(other_event.table, "E"),
            claim="c",
            now=IN_TIME,
        )
    assert caught.value.code == "not_played"
    # A duplicate «where» on a pulka event, and a pulka «where» on a duplicate event.
    session = Session.objects.create(tournament=e.t, number=1)
    p = e.seat(e.table, "E")
    for call in (
        lambda: svc.appeal_file(session=session, appellant=p, round=1, board=1, claim="c", now=IN_TIME),
        lambda: svc.appeal_notice(session=session, appellant=p, round=1, board=1, user=director, now=IN_TIME),
        lambda: svc.irregularity_record(
            session=session, kind="other", round=1, table=1, user=director, now=IN_TIME
        ),
        lambda: svc.correction_request(
            session=session, description="d", board=1, round=1, table=1, now=IN_TIME
        ),
        lambda: svc.pulka_appeal_file(
            tournament=tournament, table=e.table, deal=1, appellant=p, claim="c", now=IN_TIME
        ),
    ):
        with pytest.raises(svc.AppealsError) as caught:
            call()
        assert caught.value.code == "where_form"
    assert (
        not Appeal.objects.exists() and not Irregularity.objects.exists() and not Correction.objects.exists()
    )


def test_a_table_of_a_round_not_started_is_refused(e):
    rounds.draw_round(tournament=e.t, user=e.director, now=ENDED, seed=5)
    table = svc.pulka_table_of(e.t, round=2, table=1)
    with pytest.raises(svc.AppealsError) as caught:
        svc.pulka_correction_request(tournament=e.t, table=table, deal=1, description="d", now=IN_TIME)
    assert caught.value.code == "round_pending"
    with pytest.raises(svc.AppealsError, match="Round 1 has no table 7"):
        svc.pulka_table_of(e.t, round=1, table=7)
    assert svc.pulka_table_of(e.t, round=1, table=None, participant=e.outsider()) == e.other


def test_filing_deadline_runs_from_the_end_of_the_round(e):
    deadline = ENDED + dt.timedelta(minutes=30)
    assert file(e, now=deadline).status == Appeal.Status.FILED  # «no later than»: inclusive
    late = file(e, deal=3, now=deadline + dt.timedelta(microseconds=1))
    assert late.status == Appeal.Status.REFUSED and "end of the round" in late.refusal
    assert late.deadline == deadline
    admitted = svc.appeal_admit(
        appeal=late, note="the player was at the prize-giving", user=e.director, now=deadline
    )
    assert admitted.status == Appeal.Status.FILED
    # Filed by the director with a note at once; never once the results are final.
    for_him = file(
        e,
        deal=1,
        now=deadline + dt.timedelta(hours=1),
        via=Appeal.Via.DIRECTOR,
        user=e.director,
        late_note="ill",
    )
    assert for_him.status == Appeal.Status.FILED and for_him.late_note == "ill"
    for appeal in Appeal.objects.filter(tournament=e.t, status=Appeal.Status.FILED):  # none open at final
        svc.appeal_withdraw(appeal=appeal, user=e.director, now=deadline + dt.timedelta(hours=1))
    publish_event(e, Publication.FINAL)
    final = file(e, deal=1, seat="S", now=IN_TIME, via=Appeal.Via.DIRECTOR, user=e.director, late_note="x")
    assert final.status == Appeal.Status.REFUSED and "final" in final.refusal


def test_filing_while_the_round_is_played_is_in_time(director):
    e = event_with_round_one(director, ended=None)
    appeal = file(e, now=T0 + dt.timedelta(hours=5))
    assert appeal.status == Appeal.Status.FILED and appeal.deadline is None


def test_the_notice_comes_before_the_next_deal(e):
    # Deal 2 was written at T0+20min, deal 3 at T0+30min (tests/appeals/pulka_event.py).
    p = e.seat(e.table, "E")
    notice = svc.pulka_appeal_notice(
        tournament=e.t, table=e.table, deal=1, appellant=p, user=e.director, now=T0 + dt.timedelta(minutes=15)
    )
    assert notice.status == Appeal.Status.NOTICE and notice.notice_at == T0 + dt.timedelta(minutes=15)
    with pytest.raises(svc.AppealsError, match="already recorded"):
        svc.pulka_appeal_notice(
            tournament=e.t,
            table=e.table,
            deal=1,
            appellant=p,
            user=e.director,
            now=T0 + dt.timedelta(minutes=16),
        )
    with pytest.raises(svc.DeadlineMissed) as caught:
        svc.pulka_appeal_notice(
            tournament=e.t,
            table=e.table,
            deal=2,
            appellant=p,
            user=e.director,
            now=T0 + dt.timedelta(minutes=31),
        )
    assert caught.value.code == "notice_late"
    late = svc.pulka_appeal_notice(
        tournament=e.t,
        table=e.table,
        deal=2,
        appellant=p,
        user=e.director,
        now=T0 + dt.timedelta(minutes=31),
        late_note="the dealer had not shuffled",
    )
    assert late.late_note and late.status == Appeal.Status.NOTICE
    # The filing turns the notice into the appeal (same number).
    filed = file(e, deal=1)
    assert filed.pk == notice.pk and filed.status == Appeal.Status.FILED
    # The last deal of round 1: the next deal there is the next round's start.
    rounds.draw_round(tournament=e.t, user=e.director, now=ENDED, seed=5)
    r2 = rounds.start_round(pulka_round=e.t.pulka_rounds.get(number=2), user=e.director, now=ENDED)
    assert svc.pulka_next_deal_started_at(table=e.table, deal=3) == r2.started_at
    # The director's comment may give the notice time: it is checked the same way.
    with pytest.raises(svc.DeadlineMissed):
        svc.appeal_comment(
            appeal=file(e, deal=3, seat="S"),
            comment="c",
            notice_at=ENDED + dt.timedelta(minutes=1),
            user=e.director,
            now=IN_TIME,
        )


def test_the_committee_corrects_the_deal_through_the_sheets_write_path(e):
    before = totals(e.table)
    row_before = PulkaDeal.objects.get(table=e.table, number=2).row
    appeal = heard(e, file(e))
    with pytest.raises(svc.AppealsError, match="artificial"):  # a pulka has no artificial results
        svc.appeal_decide(
            appeal=appeal,
            outcome="adjusted",
            decision="A+",
            adjustment={"kind": "artificial", "values": {"N": "A+"}},
            user=e.director,
            now=IN_TIME,
        )
    bad = {**six(e.table, 2, 7), "w1": ["E", 9]}  # more tricks than there are
    with pytest.raises(svc.AppealsError) as caught:
        svc.appeal_decide(
            appeal=appeal,
            outcome="adjusted",
            decision="d",
            adjustment={"kind": "row", "row": bad},
            user=e.director,
            now=IN_TIME,
        )
    assert caught.value.code == "rejected"
    assert (
        not ScoreChange.objects.exists() and PulkaDeal.objects.get(table=e.table, number=2).row == row_before
    )
    assert not AuditEntry.objects.filter(action="pulka_deal_corrected").exists()  # the check wrote nothing
    with pytest.raises(svc.AppealsError) as caught:  # the sheet changed since the row was read
        svc.appeal_decide(
            appeal=appeal,
            outcome="adjusted",
            decision="d",
            user=e.director,
            now=IN_TIME,
            adjustment={"kind": "row", "row": six(e.table, 2, 5), "version": e.table.version - 1},
        )
    assert caught.value.code == "sheet_changed"
    appeal = svc.appeal_decide(
        appeal=appeal,
        outcome="adjusted",
        decision="N went down one.",
        user=e.director,
        now=IN_TIME,
        adjustment={"kind": "row", "row": six(e.table, 2, 5)},
    )
    change = appeal.changes.get()
    assert (change.kind, change.deal_number, change.pulka_table, change.status) == (
        "row",
        2,
        e.table,
        "planned",
    )
    assert totals(e.table) == before  # nothing changes before the decision is applied
    appeal = svc.appeal_apply(appeal=signed(e, appeal), user=e.director, now=IN_TIME)
    assert appeal.status == Appeal.Status.APPLIED
    deal = PulkaDeal.objects.get(table=e.table, number=2)
    assert deal.row["declarer"][1] == 5 and deal.status == PulkaDeal.Status.DIRECTOR
    after = totals(e.table)
    assert after != before and sum(map(float, after.values())) == pytest.approx(0)
    change.refresh_from_db()
    assert change.status == "applied" and change.before == {"row": row_before}
    assert change.audit_entry.action == "pulka_deal_corrected" and change.audit_entry.data["deal"] == 2
    assert change.audit_entry.reason.startswith("Апелляция № 1")
    correction = PulkaCorrection.objects.get(table=e.table, deal_number=2)
    assert correction.user == e.director and correction.reason.startswith("Апелляция № 1")
    # The players of the table see what changed on their deals and why.
    changes = svc.changes_for_participant(e.seat(e.table, "W"))
    assert [(c["deal"], c["change"]) for c in changes] == [(2, change)]
    assert svc.changes_for_participant(e.outsider()) == []


def test_a_pulka_ruling_applied_then_cancelled_by_the_committee(e):
    original, before = PulkaDeal.objects.get(table=e.table, number=3).row, totals(e.table)
    irr = svc.pulka_irregularity_record(
        tournament=e.t,
        table=e.table,
        kind="procedural",
        deal=3,
        description="N looked at the prikup",
        user=e.director,
        now=IN_TIME,
    )
    assert irr.proposal["code"] == "pulka_none" and not irr.changes.exists()
    irr = svc.irregularity_revise(
        irregularity=irr, facts={"row": six(e.table, 3, 5)}, user=e.director, now=IN_TIME
    )
    assert irr.proposal["code"] == "pulka_row" and irr.changes.get().kind == "row"
    with pytest.raises(svc.AppealsError, match="Unknown kind"):  # no fouled boards in a pulka
        svc.pulka_irregularity_record(
            tournament=e.t, table=e.table, kind="fouled", deal=3, user=e.director, now=IN_TIME
        )
    svc.irregularity_apply(irregularity=irr, user=e.director, now=IN_TIME)
    assert PulkaDeal.objects.get(table=e.table, number=3).row["declarer"][1] == 5
    ruled = totals(e.table)
    assert ruled != before
    appeal = heard(e, file(e, deal=3, ruling=irr))
    appeal = svc.appeal_decide(
        appeal=appeal, outcome="cancelled", decision="No irregularity.", user=e.director, now=IN_TIME
    )
    restore = appeal.changes.get()
    assert (restore.kind, restore.deal_number, restore.values) == ("restore", 3, {"row": original})
    svc.appeal_apply(appeal=signed(e, appeal), user=e.director, now=IN_TIME)
    restored = PulkaDeal.objects.get(table=e.table, number=3).row
    assert restored == original and totals(e.table) == before
    assert [c.reason.split(".")[0] for c in PulkaCorrection.objects.filter(table=e.table, deal_number=3)] == [
        "Решение судьи: §12 Процедурное нарушение",
        "Апелляция № 1",
    ]


def test_a_correction_request_about_a_pulka_deal(e):
    player = e.seat(e.table, "S")
    c = svc.pulka_correction_request(
        tournament=e.t,
        table=e.table,
        deal=1,
        participant=player,
        description="I took 2 tricks, not 3",
        now=IN_TIME,
    )
    assert c.status == Correction.Status.REQUESTED and (c.pulka_table, c.deal_number) == (e.table, 1)
    with pytest.raises(svc.AppealsError, match="not played|did not play"):
        svc.pulka_correction_request(
            tournament=e.t, table=e.table, deal=1, participant=e.outsider(), description="d", now=IN_TIME
        )
    with pytest.raises(svc.AppealsError) as caught:
        svc.correction_apply(correction=c, seats={"N": 1}, user=e.director, now=IN_TIME)
    assert caught.value.code == "seats"
    before = totals(e.table)
    svc.correction_apply(correction=c, row=six(e.table, 1, 8), user=e.director, now=IN_TIME)
    c.refresh_from_db()
    assert c.status == Correction.Status.APPLIED and totals(e.table) != before
    assert PulkaDeal.objects.get(table=e.table, number=1).row["declarer"][1] == 8
    assert c.changes.get().audit_entry.action == "pulka_deal_corrected"
    # The correction period of §1, as at a duplicate event.
    publish_event(e, Publication.OFFICIAL, official_at=ENDED)
    late = svc.pulka_correction_request(
        tournament=e.t,
        table=e.table,
        deal=2,
        participant=player,
        description="d",
        now=ENDED + dt.timedelta(minutes=31),
    )
    assert late.status == Correction.Status.REFUSED and "correction period ended" in late.refusal


def test_a_refused_row_rolls_the_whole_step_back(e):
    row, before = PulkaDeal.objects.get(table=e.table, number=1).row, totals(e.table)
    c = svc.pulka_correction_request(tournament=e.t, table=e.table, deal=1, description="d", now=IN_TIME)
    with pytest.raises(svc.AppealsError) as caught:
        svc.correction_apply(
            correction=c, row={"contract": "6S", "declarer": ["N", 11]}, user=e.director, now=IN_TIME
        )
    assert caught.value.code == "rejected"
    c.refresh_from_db()
    assert c.status == Correction.Status.REQUESTED and not c.changes.exists()
    assert PulkaDeal.objects.get(table=e.table, number=1).row == row and totals(e.table) == before
