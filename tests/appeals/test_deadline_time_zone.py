"""Every time shown to people is in the event's time zone (issue: «Filed at 18:30 … closed at 21:30» for a filing
one second late — the filing time was printed in UTC, the deadline in Moscow time).

Rules §1 (general provisions): «Апелляция на решение судьи может быть подана не позднее чем через 30 минут по
окончании турнира или его самостоятельной части (сессии)… Любое исправление результата допускается в
установленное время коррекции» — an appeal is filed no later than 30 minutes after the end of the session; a
correction within the correction period. A person reading the refusal must see both times on one clock.

The tests run in a zone far from UTC (Asia/Yekaterinburg, UTC+5) and from the default (Moscow, UTC+3).
"""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
from django.test import override_settings
from django.utils import translation

from appeals import services as svc
from appeals.models import Appeal
from preferans.duplicate import deadlines
from scoring.models import Result
from tournaments.models import Participant, Publication, Round

from .conftest import ENDED, publish_demo

pytestmark = pytest.mark.django_db
ZONE = "Asia/Yekaterinburg"
LOCAL = zoneinfo.ZoneInfo(ZONE)


def _hm(moment: dt.datetime) -> str:
    return moment.astimezone(LOCAL).strftime("%H:%M")


UTC_WRONG = ENDED.strftime("%H:%M")  # 18:00 UTC: must never appear beside a local time


@pytest.mark.parametrize(
    ("check", "expected"),
    [
        (
            lambda: deadlines.check_filing(
                now=ENDED + dt.timedelta(minutes=30, seconds=1),
                session_ended_at=ENDED,
                minutes=30,
                zone=LOCAL,
            ),
            {"now": "23:30", "deadline": "23:30"},
        ),
        (
            lambda: deadlines.check_notice(
                notice_at=ENDED, next_deal_started_at=ENDED - dt.timedelta(minutes=5), zone=LOCAL
            ),
            {"notice": "23:00", "started": "22:55"},
        ),
        (
            lambda: deadlines.check_correction(
                now=ENDED + dt.timedelta(hours=1),
                publication=deadlines.OFFICIAL,
                official_at=ENDED,
                minutes=30,
                arithmetic=False,
                zone=LOCAL,
            ),
            {"deadline": "23:30"},
        ),
        (
            lambda: deadlines.check_notice_given(
                required=True,
                notice_at=None,
                notice_admitted=False,
                next_deal_started_at=ENDED,
                filed_at=ENDED + dt.timedelta(hours=1),
                zone=LOCAL,
            ),
            {"started": "23:00"},
        ),
    ],
)
def test_rule_1_deadline_texts_of_the_core_are_in_the_events_zone(check, expected):
    """The core writes every time of a deadline's text in the zone it is given."""
    result = check()
    assert not result
    assert {k: result.params[k] for k in expected} == expected
    for text in expected.values():
        assert text in result.message
    assert UTC_WRONG not in result.message


@override_settings(TIME_ZONE=ZONE)
def test_rule_1_a_filing_one_second_late_shows_both_times_in_local_time(demo):
    """«не позднее чем через 30 минут по окончании … сессии»: the refusal reads 23:30 and 23:30, not 18:30 / 23:30."""
    t, session = demo
    assert t.time_zone == LOCAL
    appellant = Participant.objects.get(tournament=t, number=1)
    with translation.override("en"):
        late = svc.appeal_file(
            session=session,
            appellant=appellant,
            round=1,
            board=1,
            claim="x",
            now=ENDED + dt.timedelta(minutes=30, seconds=1),
        )
    assert late.status == Appeal.Status.REFUSED
    assert late.refusal.startswith("Filed at 23:30:") and "at 23:30 (§1)" in late.refusal
    assert "18:30" not in late.refusal


@override_settings(TIME_ZONE=ZONE)
def test_rule_1_notice_and_correction_messages_are_in_local_time(demo, director_user):
    """The late notice (§1 «до начала следующей сдачи») and the closed correction period read local times."""
    t, session = demo
    started = ENDED - dt.timedelta(hours=2)
    Result.objects.filter(session=session).update(created_at=started)
    Round.objects.filter(session=session, started_at__isnull=False).update(started_at=ENDED)
    p6 = Participant.objects.get(tournament=t, number=6)
    with translation.override("en"), pytest.raises(svc.DeadlineMissed) as late_notice:
        svc.appeal_notice(session=session, appellant=p6, round=1, board=1, user=director_user, now=ENDED)
    assert (
        _hm(started) in late_notice.value.message
        and started.strftime("%H:%M") not in late_notice.value.message
    )

    # The director's comment records a notice given too late: the reason is in words and local times.
    filed = svc.appeal_file(
        session=session,
        appellant=p6,
        round=1,
        board=1,
        claim="x",
        via="director",
        user=director_user,
        late_note="admitted",
        now=ENDED,
    )
    with translation.override("en"), pytest.raises(svc.DeadlineMissed) as comment:
        svc.appeal_comment(
            appeal=filed,
            comment="c",
            notice_at=ENDED - dt.timedelta(minutes=1),
            user=director_user,
            now=ENDED,
        )
    text = comment.value.message
    assert _hm(ENDED - dt.timedelta(minutes=1)) in text and _hm(started) in text
    assert (ENDED - dt.timedelta(minutes=1)).strftime("%H:%M") not in text

    publish_demo(t, Publication.OFFICIAL, official_at=ENDED)
    session.refresh_from_db()
    with translation.override("en"):
        correction = svc.correction_request(
            session=session, board=1, round=1, table=1, description="wrong", now=ENDED + dt.timedelta(hours=2)
        )
    assert correction.refusal == "The correction period ended at 23:30 (§1)."
