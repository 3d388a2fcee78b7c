"""Results do not become final while an appeal, a ruling or a correction is still open (rules §1, §13)."""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from appeals.models import Correction
from appeals.services import correction_refuse, correction_request
from duplicate.gaps import publication_gaps
from events.publication import publish
from tests.publishing import end_every_round, publish_to
from tournaments.errors import UserError
from tournaments.models import Publication, Tournament

pytestmark = pytest.mark.django_db


def test_final_is_refused_while_a_correction_is_open(director):
    call_command("seed_demo", stdout=StringIO())
    t = Tournament.objects.get(slug="demo")
    now = timezone.now()
    end_every_round(t, director, now)
    publish_to(t, Publication.OFFICIAL, director, now)
    participant = t.participants.get(number=1)
    correction = correction_request(
        session=t.sessions.get(),
        participant=participant,
        description="6 instead of 7",
        now=now + dt.timedelta(minutes=10),  # within the correction period
    )
    assert correction.status == Correction.Status.REQUESTED
    later = now + dt.timedelta(hours=2)  # the correction period is over; the request is still open
    with pytest.raises(UserError, match="open"):
        publish(tournament=t, to=Publication.FINAL, user=director, now=later)
    correction_refuse(correction=correction, reason="The row was right", user=director, now=later)
    done = publish(
        tournament=t,
        to=Publication.FINAL,
        user=director,
        now=later,
        acknowledged=publication_gaps(t).token,
    )  # the demo's rows are not all confirmed
    assert done.publication == Publication.FINAL
