"""Acceptance: a full appeal in the browser — filed by a player on his phone, commented by the director, heard,
decided and signed by the committee, applied; the standings change and the audit trail shows every step."""

from __future__ import annotations

import datetime as dt
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from appeals import services as svc
from appeals.models import Appeal, CommitteeMember
from scoring.models import Result, Standing
from tournaments.models import AuditEntry, Participant, Session, Tournament

from .conftest import screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def director_login(pg, username, password):
    """Like conftest.login, but clicks the form's own button (the header's language switch is a submit too)."""
    pg.goto("/accounts/login/")
    pg.fill("input[name=username]", username)
    pg.fill("input[name=password]", password)
    pg.click("main form button[type=submit]")
    pg.wait_for_url(lambda url: "/accounts/login/" not in url)


def standings(t):
    return {
        s.participant.number: (s.matchpoints, s.percent)
        for s in Standing.objects.filter(tournament=t).select_related("participant")
    }


def test_full_appeal_walkthrough(page, phone):
    call_command("seed_demo", stdout=StringIO())
    t = Tournament.objects.get(slug="demo")
    session = t.sessions.get()
    Session.objects.filter(pk=session.pk).update(
        status="finished", ended_at=timezone.now() - dt.timedelta(minutes=5)
    )
    for n, chair in ((2, True), (3, False), (4, False)):
        CommitteeMember.objects.create(
            tournament=t,
            name=Participant.objects.get(tournament=t, number=n).name,
            participant=Participant.objects.get(tournament=t, number=n),
            is_chair=chair,
        )
    before = standings(t)
    # 0. The player warned the director before the next deal, who recorded the notice (rules §1).
    started = svc.next_deal_started_at(session=session, board=1, round=1, table=1)
    svc.appeal_notice(
        session=session,
        appellant=Participant.objects.get(tournament=t, number=6),
        round=1,
        board=1,
        user=t.directors.get(),
        now=started - dt.timedelta(seconds=1),
    )

    # 1. The player (E at table 1, round 1) files on his phone.
    phone.goto("/appeals/demo/player/")
    phone.fill("input[name=number]", "6")
    phone.fill("input[name=pin]", "1006")
    phone.click("main form button[type=submit]")
    phone.select_option("select[name=deal]", "1-1-1-1")
    phone.fill("textarea[name=claim]", "Декларант заявил остаток взяток, но у вистующего был козырь.")
    phone.fill("textarea[name=bidding]", "6♦ — вист — пас")
    screenshot(phone, "appeal-player-filing-phone")
    phone.click("#file button[type=submit]")
    phone.wait_for_selector("[data-testid=appeal-status]")
    appeal = Appeal.objects.get(tournament=t)
    assert appeal.status == "filed" and appeal.appellant.number == 6 and appeal.filed_via == "player"
    screenshot(phone, "appeal-player-filed-phone")

    # 2. The director comments; the committee hears, decides and signs; the director applies.
    director_login(page, "demo", "demo-director")
    page.goto(f"/appeals/demo/a/{appeal.number}/")
    page.fill("[data-step=comment] textarea[name=comment]", "Признал заявку верной: результат оставлен.")
    page.click("[data-step=comment] button[type=submit]")
    page.click("[data-step=hear] button[type=submit]")  # all members are pre-selected
    page.check("input[name=outcome][value=adjusted]")
    page.fill(
        "textarea[name=decision]", "Заявка неверна: вистующий брал взятку козырем. Искусственный результат."
    )
    page.select_option("select[name=kind]", "artificial")
    page.select_option("select[name=grade_N]", "A")
    page.select_option("select[name=grade_E]", "A+")
    page.select_option("select[name=grade_S]", "A")
    page.select_option("select[name=grade_W]", "A-")
    page.click("[data-step=decide] button[type=submit]")
    for _ in range(3):
        page.click("[data-step=sign] button[type=submit]")
    screenshot(page, "appeal-director-decided")
    page.click("[data-step=apply] button[type=submit]")
    page.wait_for_selector("[data-step=close]")
    assert Appeal.objects.get(pk=appeal.pk).status == "applied"
    screenshot(page, "appeal-director-applied")
    page.click("[data-step=close] button[type=submit]")
    assert Appeal.objects.get(pk=appeal.pk).status == "closed"

    # 3. The standings changed, and exactly by the artificial result on that row.
    row = Result.objects.get(session=session, board_number=1, round_number=1, table_number=1)
    assert row.adjusted == {"N": "A", "E": "A+", "S": "A", "W": "A-"}
    after = standings(t)
    assert after != before and after[6] != before[6]

    # 4. The audit trail: every step, and the score change linked to the appeal.
    actions = set(
        AuditEntry.objects.filter(tournament=t, data__appeal=appeal.pk).values_list("action", flat=True)
    )
    assert {
        "appeal.file",
        "appeal.comment",
        "appeal.hear",
        "appeal.decide",
        "appeal.sign",
        "appeal.apply",
        "appeal.close",
    } <= actions
    update = appeal.changes.get().audit_entry
    assert update.action == "result.update" and str(appeal.number) in update.reason
    page.goto("/appeals/demo/audit/?what=result.")
    assert page.locator("table.ap-audit a", has_text=str(appeal.number)).count() >= 1
    screenshot(page, "appeal-audit-trail")

    # 5. The player sees what changed on his board and why.
    phone.goto("/appeals/demo/player/")
    assert phone.locator("#changes li", has_text="вистующий брал взятку").count() >= 1
    screenshot(phone, "appeal-player-changes-phone")
