"""Rules, general provisions (seed 004, «Общие положения»): «О подаче апелляции необходимо предупредить судью до
начала следующей сдачи» — the director must be warned of an appeal before the start of the next deal.

With the organisers' «notice required» on (the default), the one filing service (player's page, director's
page, API, pulka events) stores an appeal whose director was not warned in time as refused, with the reason in
the player's language; the director admits it with a written note (at once when he files for the player, or
later), recorded and audited. Without a recorded notice, a filing that itself comes before the next deal is the
notice.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from appeals import services as svc
from appeals.models import Appeal, AppealSettings
from scoring.models import Result
from tests.html import english_phrases, lang, visible_text
from tournaments.models import AuditEntry, Participant, Round, Session

from .conftest import ENDED
from .pulka_event import IN_TIME as PULKA_IN_TIME
from .pulka_event import T0, event_with_round_one

pytestmark = pytest.mark.django_db
STARTED = ENDED - dt.timedelta(hours=2)  # board 2 at table 1 in round 1 was entered then: deal 2 had begun
IN_TIME = ENDED + dt.timedelta(minutes=10)  # within the 30 filing minutes
NOTE = "The player was called to another table by the director."


@pytest.fixture
def pinned(demo):
    """The demo with every row entered at STARTED and rounds started later: the deal after board 1 at table 1
    in round 1 is known to have started at STARTED."""
    t, session = demo
    Result.objects.filter(session=session).update(created_at=STARTED)
    Round.objects.filter(session=session, started_at__isnull=False).update(started_at=ENDED)
    assert svc.next_deal_started_at(session=session, board=1, round=1, table=1) == STARTED
    return t, session


def _p(t, number):
    return Participant.objects.get(tournament=t, number=number)


def _file(session, *, now=IN_TIME, **kw):
    return svc.appeal_file(
        session=session,
        appellant=_p(session.tournament, 1),
        round=1,
        board=1,
        claim="The declarer's claim was wrong",
        now=now,
        **kw,
    )


CASES = [
    # (required, notice moment (None: none recorded), notice admitted late with a note, filing, expected, notice code)
    (True, None, False, {}, "refused", "notice_missing"),
    (True, STARTED - dt.timedelta(seconds=1), False, {}, "filed", "notice_in_time"),
    (True, STARTED + dt.timedelta(minutes=5), True, {}, "filed", "notice_admitted"),
    (False, None, False, {}, "filed", "notice_not_required"),
    (True, None, False, {"now": STARTED - dt.timedelta(minutes=1)}, "filed", "filing_is_notice"),
    (True, None, False, {"via": "director", "late_note": NOTE}, "filed", "notice_missing"),
    (True, None, False, {"via": "director"}, "refused", "notice_missing"),
]


@pytest.mark.parametrize(("required", "notice_at", "admitted_late", "filing", "status", "code"), CASES)
def test_rule_notice_before_the_next_deal(
    pinned, director_user, required, notice_at, admitted_late, filing, status, code
):
    """«предупредить судью до начала следующей сдачи»: the notice is checked at the filing."""
    t, session = pinned
    AppealSettings.objects.update_or_create(tournament=t, defaults={"notice_required": required})
    if notice_at is not None:
        svc.appeal_notice(
            session=session,
            appellant=_p(t, 1),
            round=1,
            board=1,
            user=director_user,
            now=notice_at,
            late_note=NOTE if admitted_late else "",
        )
    if filing.get("via") == "director":
        filing = {**filing, "user": director_user}
    appeal = _file(session, **filing)
    assert appeal.status == status
    entry = AuditEntry.objects.get(action="appeal.file" if status == "filed" else "appeal.refuse")
    assert entry.data["notice"] == code
    if status == "refused":
        assert appeal.refusal and "§1" in appeal.refusal and not appeal.late_note
    if filing.get("late_note"):
        assert appeal.late_note == NOTE and entry.data["admitted"] is True and entry.reason == NOTE


def test_rule_notice_a_missing_notice_is_admitted_by_the_director_with_a_note(pinned, director_user):
    """A late or missing notice needs the director's admission with a note (recorded, audited)."""
    _t, session = pinned
    appeal = _file(session)
    assert appeal.status == Appeal.Status.REFUSED
    with pytest.raises(svc.AppealsError):
        svc.appeal_admit(appeal=appeal, note=" ", user=director_user, now=IN_TIME)
    appeal = svc.appeal_admit(appeal=appeal, note=NOTE, user=director_user, now=IN_TIME)
    assert appeal.status == Appeal.Status.FILED and appeal.late_note == NOTE
    assert AuditEntry.objects.get(action="appeal.admit").reason == NOTE


def test_rule_notice_an_appeal_against_a_later_ruling_is_measured_from_the_ruling(pinned, director_user):
    """A ruling given after the next deal had started could not be appealed before it: the filing is the notice."""
    _t, session = pinned
    ruling = svc.irregularity_record(
        session=session,
        kind="other",
        round=1,
        table=1,
        board=1,
        user=director_user,
        now=STARTED + dt.timedelta(minutes=30),
        description="A claim disputed.",
    )
    assert _file(session, ruling=ruling).status == Appeal.Status.FILED


def test_rule_notice_the_player_reads_the_reason_in_russian(client, pinned):
    """The player's page shows why the appeal is refused, in Russian, with the time in the event's zone."""
    t, session = pinned
    Session.objects.filter(pk=session.pk).update(
        ended_at=timezone.now() - dt.timedelta(minutes=1)
    )  # filing open
    client.post(reverse("appeals:player", kwargs={"slug": t.slug}), {"number": 1, "pin": "1001"})
    page = client.post(
        reverse("appeals:player", kwargs={"slug": t.slug}),
        {"action": "appeal", "deal": "1-1-1-1", "claim": "Заявка была неверной"},
        headers={"Accept-Language": "ru"},
        follow=True,
    )
    appeal = Appeal.objects.get()
    assert appeal.status == Appeal.Status.REFUSED
    local = STARTED.astimezone(t.time_zone).strftime("%H:%M")
    assert "судья не был предупреждён" in appeal.refusal.lower() and local in appeal.refusal
    assert appeal.refusal in visible_text(page)
    assert lang(page) == "ru" and english_phrases(visible_text(page), t.name) == []


def test_rule_notice_at_a_pulka_event_too(director):
    """The same rule at an event played in pulkas: the next deal of the sheet had started."""
    e = event_with_round_one(director, notice_required=True)
    east = e.seat(e.table, "E")
    refused = svc.pulka_appeal_file(
        tournament=e.t, table=e.table, deal=2, appellant=east, claim="c", now=PULKA_IN_TIME
    )
    assert refused.status == Appeal.Status.REFUSED
    assert "§1" in refused.refusal
    assert AuditEntry.objects.get(action="appeal.refuse").data["notice"] == "notice_missing"
    west = e.seat(e.table, "W")
    started = svc.pulka_next_deal_started_at(table=e.table, deal=2)
    assert started is not None and started > T0
    svc.pulka_appeal_notice(
        tournament=e.t,
        table=e.table,
        deal=2,
        appellant=west,
        user=director,
        now=started - dt.timedelta(seconds=1),
    )
    filed = svc.pulka_appeal_file(
        tournament=e.t, table=e.table, deal=2, appellant=west, claim="c", now=PULKA_IN_TIME
    )
    assert filed.status == Appeal.Status.FILED and filed.notice_at is not None
