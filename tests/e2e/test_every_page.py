"""Every page of both forms, as the public, a player and a director reach them, in Russian and English, on a phone
(390 px) and a desktop (1366 px): axe-core finds no violation of WCAG 2.2 A/AA or of its best practices, no table
is wider than the screen, and a Russian page has no English word (issue 30, «Accessibility», «Language»).

The demo events (a duplicate session under way, two final club evenings, an Olympic event that is over and a
compensation event with a round running) hold every state a page has; the crawler starts where each user starts
— the home page, the table's QR code and PIN slip link, the director's login — and follows the links."""

from __future__ import annotations

import os
from io import StringIO

import pytest
from django.core.management import call_command

from pulkas.models import PulkaTable
from tests.e2e.conftest import login
from tests.e2e.crawl import crawl, standard_checks
from tournaments.models import Participant, Table, Tournament
from tournaments.personal_links import personal_token

pytestmark = [pytest.mark.e2e, pytest.mark.crawl, pytest.mark.django_db(transaction=True)]

# Every suite crawls each user's pages in Russian on a phone (the narrowest screen, the language with the most
# words to get wrong); CRAWL_DEPTH=full (.ci/run's own step) crawls both languages at both widths.
LOOKS = (
    [(lang, width) for lang in ("ru", "en") for width in (390, 1366)]
    if os.environ.get("CRAWL_DEPTH") == "full"
    else [("ru", 390)]
)

ROLES = ["public", "player", "director"]


def _seed() -> None:
    for command in ("seed_demo", "seed_pulka_demo", "seed_players_demo"):
        call_command(command, stdout=StringIO())


def _form_of(slug: str) -> str:
    form = Tournament.objects.filter(slug=slug).values_list("form", flat=True).first()
    return str(form or "")


def _player_starts() -> list[str]:
    """Where players start: the table code's page, their PIN slip's link, the page to type a code."""
    starts = ["/table/"]
    # A table whose session is under way (the demo's round 4) and one whose event is over; a pulka table of a
    # round being played and one of a round that has ended.
    running = Table.objects.filter(session__status="running").order_by("pk").first()
    over = Table.objects.exclude(session__status="running").order_by("-pk").first()
    starts += [f"/table/{t.code}/" for t in (running, over) if t is not None]
    starts += [f"/pulka/{t.code}/" for t in PulkaTable.objects.order_by("-pk")[:1]]
    firsts: dict[str, Participant] = {}
    for participant in Participant.objects.select_related("tournament").order_by("-pk"):
        firsts[participant.tournament.form] = participant
    starts += [f"/p/{personal_token(participant)}/" for participant in firsts.values()]
    return starts


@pytest.mark.parametrize(("lang", "width"), LOOKS)
@pytest.mark.parametrize("role", ROLES)
def test_every_page_is_accessible_fits_and_speaks_one_language(browser, live_server, role, lang, width):
    _seed()
    ctx = browser.new_context(
        base_url=live_server.url,
        locale="ru-RU" if lang == "ru" else "en-US",
        viewport={"width": width, "height": 844 if width < 800 else 900},
        is_mobile=width < 800,
        has_touch=width < 800,
    )
    pg = ctx.new_page()
    pg.set_default_timeout(15000)
    try:
        if role == "director":
            login(pg, "demo", "demo-director")
            starts = ["/director/", "/"]
        elif role == "player":
            starts = _player_starts()
        else:
            starts = ["/"]
        # Data, not words: the table codes printed on the cards and the director's login name.
        allowed = {
            *Table.objects.values_list("code", flat=True),
            *PulkaTable.objects.values_list("code", flat=True),
        }
        allowed.add("demo")
        check = standard_checks(russian=lang == "ru", allowed_words=allowed, phone=width < 800)
        # CRAWL_SCREENSHOTS=1 keeps a picture of every page visited (to look at them; CI does not need them).
        shots = f"crawl-{role}-{lang}-{width}" if os.environ.get("CRAWL_SCREENSHOTS") else ""
        report = crawl(pg, starts, form_of=_form_of, check=check, shots=shots)
    finally:
        ctx.close()
    assert len(report.visited) >= 5, report.visited
    assert not report.failures, (
        f"{len(report.failures)} failures on {len(report.visited)} pages:\n" + "\n".join(report.failures)
    )
