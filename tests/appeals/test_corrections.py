"""Corrections: the period after the official results, arithmetic only once final (§1)."""

from __future__ import annotations

import datetime as dt

import pytest

from appeals import services as svc
from appeals.models import Correction
from scoring.models import Result
from tournaments.models import AuditEntry, Publication

from .conftest import ENDED, publish_demo
from .test_appeal_flow import core_standings, db_standings

pytestmark = pytest.mark.django_db
OFFICIAL = ENDED + dt.timedelta(hours=1)


def make_official(t, publication=Publication.OFFICIAL):
    publish_demo(t, publication, official_at=OFFICIAL)


def ask(session, now, kind="entry", **kw):
    return svc.correction_request(
        session=session,
        kind=kind,
        description="E took 7 tricks, not 6",
        board=1,
        round=1,
        table=1,
        now=now,
        **kw,
    )


def test_within_the_period_and_exactly_at_its_end(demo):
    t, session = demo
    make_official(t)
    assert ask(session, OFFICIAL + dt.timedelta(minutes=30)).status == Correction.Status.REQUESTED
    late = ask(session, OFFICIAL + dt.timedelta(minutes=30, microseconds=1))
    assert late.status == Correction.Status.REFUSED and "§1" in late.refusal
    assert AuditEntry.objects.filter(action="correction.refuse").count() == 1


def test_late_correction_admitted_by_the_director_with_a_note(demo, director_user):
    t, session = demo
    make_official(t)
    c = ask(
        session,
        OFFICIAL + dt.timedelta(hours=2),
        user=director_user,
        late_note="the protocol was found later",
    )
    assert c.status == Correction.Status.REQUESTED and c.late_note


def test_after_final_only_arithmetic(demo, director_user, django_capture_on_commit_callbacks):
    t, session = demo
    make_official(t, Publication.FINAL)
    refused = ask(session, OFFICIAL, user=director_user, late_note="please")
    assert refused.status == Correction.Status.REFUSED, "no admission once final"
    c = ask(session, OFFICIAL + dt.timedelta(days=3), kind="arithmetic")
    assert c.status == Correction.Status.REQUESTED
    r = Result.objects.get(session=session, board_number=1, round_number=1, table_number=1)
    seats = r.seats()
    with django_capture_on_commit_callbacks(execute=True):
        svc.correction_apply(
            correction=c, seats={**seats, "E": seats["W"], "W": seats["E"]}, user=director_user, now=OFFICIAL
        )
    r.refresh_from_db()
    assert r.seats()["E"] == seats["W"]
    assert db_standings(t) == core_standings(t)


def test_apply_a_corrected_row(demo, director_user, django_capture_on_commit_callbacks):
    t, session = demo
    c = ask(session, ENDED)
    r = Result.objects.get(session=session, board_number=1, round_number=1, table_number=1)
    # 7D by E: 10 tricks as entered; the protocol said the declarer took 10 and whisters passed — now 9 + 1.
    row = dict(r.row)
    with pytest.raises(svc.AppealsError, match="refused"):
        svc.correction_apply(
            correction=c, row={**row, "declarer": [row["declarer"][0], 11]}, user=director_user, now=ENDED
        )
    assert Correction.objects.get(pk=c.pk).status == Correction.Status.REQUESTED
    new = {**row, "contract": "6D", "declarer": [row["declarer"][0], 10]}
    with django_capture_on_commit_callbacks(execute=True):
        svc.correction_apply(correction=c, row=new, user=director_user, now=ENDED)
    r.refresh_from_db()
    assert r.row["contract"] == "6D"
    assert db_standings(t) == core_standings(t)
    with pytest.raises(svc.TransitionRefused):
        svc.correction_refuse(correction=c, reason="x", user=director_user, now=ENDED)


def test_refuse(demo, director_user):
    _t, session = demo
    c = ask(session, ENDED)
    with pytest.raises(svc.AppealsError):
        svc.correction_refuse(correction=c, reason=" ", user=director_user, now=ENDED)
    assert (
        svc.correction_refuse(
            correction=c, reason="the protocol agrees", user=director_user, now=ENDED
        ).status
        == "refused"
    )
