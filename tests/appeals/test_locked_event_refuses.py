"""At a locked event nothing new is filed, recorded or changed by the appeals services, whatever channel calls
them (issue 30: «a locked event offers no action that will be refused»; the pages offer none, and the services
refuse the rest): an appeal, a ruling, a correction, the committee and its deadlines — both forms."""

from __future__ import annotations

import datetime as dt

import pytest

from appeals import services as svc
from appeals.models import Appeal, Correction, Irregularity
from events.publication import tournament_lock
from tournaments.models import Participant, Publication

from .conftest import ENDED, OFFICIAL, publish_demo
from .pulka_event import event_with_round_one, publish_event

pytestmark = pytest.mark.django_db

LATER = OFFICIAL + dt.timedelta(days=1)


def _refused(call) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(svc.AppealsError) as refused:
        call()
    assert refused.value.code == "tournament_locked"


def _committee_refused(t, user) -> None:  # type: ignore[no-untyped-def]
    _refused(lambda: svc.committee_add(tournament=t, name="Петров", user=user, now=LATER))
    _refused(
        lambda: svc.settings_update(
            tournament=t,
            filing_minutes=30,
            correction_minutes=30,
            notice_required=False,
            online_filing=False,
            user=user,
            now=LATER,
        )
    )


def test_a_locked_duplicate_event_refuses_appeals_rulings_corrections_and_committee_changes(
    demo, director_user
):
    t, session = demo
    t = publish_demo(t, Publication.FINAL)
    member = svc.committee_add(tournament=t, name="Иванов", user=director_user, now=LATER)
    tournament_lock(tournament=t, user=director_user, now=LATER, reason="итоги утверждены")
    appellant = Participant.objects.get(tournament=t, number=1)
    _refused(
        lambda: svc.appeal_file(
            session=session,
            appellant=appellant,
            round=1,
            board=1,
            claim="claim",
            bidding="",
            play="",
            now=LATER,
        )
    )
    _refused(
        lambda: svc.irregularity_record(
            session=session, kind="wrong_hand", round=1, table=1, board=2, user=director_user, now=ENDED
        )
    )
    _refused(
        lambda: svc.correction_request(
            session=session, kind="arithmetic", description="x", board=1, round=1, table=1, now=LATER
        )
    )
    _committee_refused(t, director_user)
    _refused(lambda: svc.committee_remove(member=member, user=director_user, now=LATER))
    assert not Appeal.objects.filter(tournament=t).exists()
    assert not Irregularity.objects.filter(tournament=t).exists()
    assert not Correction.objects.filter(tournament=t).exists()


def test_a_locked_pulka_event_refuses_them_too(director):
    e = event_with_round_one(director)
    publish_event(e, Publication.FINAL)
    tournament_lock(tournament=e.t, user=director, now=LATER, reason="итоги утверждены")
    _refused(
        lambda: svc.pulka_appeal_file(
            tournament=e.t, table=e.table, deal=2, appellant=e.seat(e.table, "E"), claim="claim", now=LATER
        )
    )
    _committee_refused(e.t, director)
    assert not Appeal.objects.filter(tournament=e.t).exists()
