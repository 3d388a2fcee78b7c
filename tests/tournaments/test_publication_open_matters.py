"""Results do not become final while an appeal, a ruling or a correction is still open (rules §1, §13)."""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from appeals.models import Correction
from duplicate.gaps import publication_gaps
from events.publication import publish
from tournaments.errors import UserError
from tournaments.models import Publication, Tournament

pytestmark = pytest.mark.django_db


def test_final_is_refused_while_a_correction_is_open(director):
    call_command("seed_demo", stdout=StringIO())
    t = Tournament.objects.get(slug="demo")
    past = timezone.now() - dt.timedelta(hours=2)
    t.publication, t.official_at = Publication.OFFICIAL, past
    t.save(update_fields=["publication", "official_at"])
    participant = t.participants.get(number=1)
    Correction.objects.create(
        tournament=t,
        session=t.sessions.get(),
        requested_by=participant,
        description="6 instead of 7",
        requested_at=timezone.now(),
        status=Correction.Status.REQUESTED,
    )
    with pytest.raises(UserError, match="open"):
        publish(tournament=t, to=Publication.FINAL, user=director, now=timezone.now())
    Correction.objects.update(status=Correction.Status.REFUSED)
    done = publish(
        tournament=t,
        to=Publication.FINAL,
        user=director,
        now=timezone.now(),
        acknowledged=publication_gaps(t).token,
    )  # the demo's rows are not all confirmed
    assert done.publication == Publication.FINAL
