"""The pages issue 28 (appeals by the book) changed, in the browser at a phone's and a laptop's width: the
committee's election (settings), an appeal decided by the elected committee (item 11 with the votes), the
player's own appeal, the ruling page's §11.3 В proposal and the event's settings (A−/A fixed, A+ the organisers').
Nothing is wider than the screen and no interface word is left in English; screenshots go to test-artifacts/."""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone, translation

from appeals import services as svc
from appeals.models import CommitteeMember
from tests.html import english_phrases
from tournaments.models import Participant, Session, Tournament

from .conftest import overflowing, screenshot
from .test_appeal_walkthrough import director_login

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
WIDTHS = (390, 1366)


def _event():
    call_command("seed_demo", stdout=StringIO())
    t = Tournament.objects.get(slug="demo")
    session = t.sessions.get()
    now = timezone.now()
    Session.objects.filter(pk=session.pk).update(status="finished", ended_at=now - dt.timedelta(minutes=5))
    session.refresh_from_db()
    director = t.directors.get()
    svc.committee_elect(
        tournament=t,
        held_at=now - dt.timedelta(hours=3),
        voters=20,
        elected=[
            svc.Elected(name="Петров Пётр Петрович", participant=2, votes=15, is_chair=True),
            svc.Elected(name="Сидоров Сидор", participant=3, votes=12),
        ],
        note="Поднятием рук на открытии",
        user=director,
        now=now - dt.timedelta(hours=2),
    )
    appointed = CommitteeMember.objects.create(tournament=t, name="Назначенный Н.")
    appeal = svc.appeal_file(
        session=session,
        appellant=Participant.objects.get(tournament=t, number=1),
        round=1,
        board=1,
        claim="Заявка была неверной",
        now=now,
        via="director",
        user=director,
        late_note="Судья был у стола",
    )
    appeal = svc.appeal_comment(appeal=appeal, comment="Решение судьи", user=director, now=now)
    members = [*CommitteeMember.objects.filter(tournament=t, election__isnull=False), appointed]
    appeal = svc.appeal_hear(appeal=appeal, members=members, user=director, now=now)
    appeal = svc.appeal_decide(
        appeal=appeal, outcome="upheld", decision="Решение судьи остаётся.", user=director, now=now
    )
    ruling = svc.irregularity_record(
        session=session,
        kind="wrong_cards",
        round=1,
        table=1,
        board=2,
        fault={"E": "offending"},
        facts={"play_completed": True, "keep_non_offenders": True},
        user=director,
        now=now,
    )
    return t, appeal, ruling


def test_the_changed_appeals_pages_fit_a_phone_and_a_laptop_in_russian(page):
    with translation.override(
        "ru"
    ):  # as a director on the Russian pages records them (the audit keeps words)
        t, appeal, ruling = _event()
    director_login(page, "demo", "demo-director")
    pages = {
        "committee-election": f"/appeals/{t.slug}/settings/",
        "appeal-decided": f"/appeals/{t.slug}/a/{appeal.number}/",
        "appeal-form-print": f"/appeals/{t.slug}/a/{appeal.number}/form/",
        "ruling-11-3-C": f"/appeals/{t.slug}/rulings/{ruling.pk}/",
        "event-settings": f"/director/{t.slug}/settings/",
    }
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        for name, path in pages.items():
            response = page.goto(path)
            assert response is not None and response.status == 200, (name, response and response.status)
            screenshot(page, f"appeals-book-{name}-{width}")
            assert overflowing(page) == [], (name, width, overflowing(page))
            text = page.inner_text("main")
            assert english_phrases(text, t.name) == [], (name, english_phrases(text, t.name))
    # The appellant's own page of the appeal, after his number and PIN: the members with their votes.
    page.goto(f"/appeals/{t.slug}/player/")
    page.fill("input[name=number]", "1")
    page.fill("input[name=pin]", "1001")
    page.click("main form button[type=submit]")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"/appeals/{t.slug}/player/appeals/{appeal.number}/")
        screenshot(page, f"appeals-book-player-appeal-{width}")
        assert overflowing(page) == [] and "15 из 20 голосов" in page.inner_text("main")
        assert english_phrases(page.inner_text("main"), t.name) == []
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(pages["appeal-decided"])
    assert "15 из 20 голосов" in page.inner_text("main")
    page.goto(pages["committee-election"])
    assert "Выборы апелляционного комитета" in page.inner_text("main")
