"""Results pages in a real browser: the live standings, a personal score card, a finished board, exports."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone
from playwright.sync_api import expect

from duplicate.gaps import round_gaps
from duplicate.rounds import round_end, round_start
from results.models import ExportJob
from tests.e2e.conftest import screenshot
from tournaments.models import Round, Session

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_standings_card_board_and_exports(page):
    call_command("seed_demo", stdout=StringIO())
    page.goto("/t/demo/standings/")
    assert page.locator("html").get_attribute("lang") == "ru"  # Russian by default
    assert page.locator("nav.results-nav a.current").get_attribute("href") == "/t/demo/standings/"
    assert page.locator(".status-badge").get_attribute("data-publication") == "provisional"
    # Provisional results, but a round is being played: the public waits for its end (rules §12.2.4).
    assert page.locator("table#standings tbody tr").count() == 0
    assert page.locator("#standings-hidden").is_visible()
    screenshot(page, "reports-standings-during-a-round")
    # The director sees the standings, a card and a board of the running session, with its layout.
    page.goto("/accounts/login/")  # conftest.login clicks the header's language switch, the first submit
    page.fill("input[name=username]", "demo")
    page.fill("input[name=password]", "demo-director")
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.goto("/t/demo/standings/")
    assert page.locator("table#standings tbody tr").count() == 20
    screenshot(page, "reports-standings")
    page.click("table#standings tbody tr >> nth=0 >> a")
    expect(page.locator("svg.chart-running")).to_be_visible()  # the card's page, loaded
    assert page.locator("table.score-card tbody tr").count() == 12
    screenshot(page, "reports-player-card")
    page.goto("/t/demo/boards/5/")
    assert page.locator("table#protocol").is_visible() and page.locator(".compass").is_visible()
    assert page.locator("svg.chart-spread").is_visible()
    screenshot(page, "reports-board-director")
    page.goto("/t/demo/exports/")
    page.locator('form[data-kind="standings"] button[value="pdf"]').click()
    page.wait_for_selector("tr[data-status=done] a.btn")
    screenshot(page, "reports-exports")
    for job in ExportJob.objects.all():
        job.file.delete(save=False)  # keep the project's media/ clean
    # The director ends the session's rounds: the frequencies of every board are public now.
    director = User.objects.get(username="demo")
    for rnd in Round.objects.filter(session__tournament__slug="demo").order_by("number"):
        if rnd.status == Round.Status.PENDING:
            rnd = round_start(rnd=rnd, user=director, now=timezone.now())
        if rnd.status == Round.Status.RUNNING:
            round_end(rnd=rnd, user=director, now=timezone.now(), acknowledged=round_gaps(rnd).token)
    assert Session.objects.get(tournament__slug="demo").status == Session.Status.FINISHED
    page.goto("/t/demo/frequencies/")
    assert page.locator("section.freq-board").count() == 20
