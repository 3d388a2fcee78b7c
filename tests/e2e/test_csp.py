"""The Content-Security-Policy in Chromium: the main pages load with no violation, and what the inline scripts
used to do (print, choose a session, hide fields of the new-tournament form) still works from static files."""

from __future__ import annotations

from io import StringIO

import pytest

from tests.e2e.conftest import login, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _watch(pg) -> list[str]:  # type: ignore[no-untyped-def]
    """Every message in which the browser says it refused something because of the policy, and every script error."""
    seen: list[str] = []
    pg.on(
        "console",
        lambda msg: (
            seen.append(msg.text)
            if "Refused to" in msg.text or "Content Security Policy" in msg.text
            else None
        ),
    )
    pg.on("pageerror", lambda exc: seen.append(f"script error: {exc}"))
    return seen


@pytest.fixture
def demo(db):  # type: ignore[no-untyped-def]
    from django.core.management import call_command

    from tournaments.models import Table, Tournament

    call_command("seed_demo", stdout=StringIO())
    tournament = Tournament.objects.get(slug="demo")
    return tournament, Table.objects.filter(session__tournament=tournament).order_by("number").first()


def test_the_main_pages_load_without_a_policy_violation(page, phone, demo):
    _tournament, table = demo
    on_page, on_phone = _watch(page), _watch(phone)
    public = ["/", "/t/demo/", "/t/demo/standings/", "/t/demo/boards/", "/t/demo/projector/", "/api/docs/"]
    public += ["/api/tournaments/", "/admin/login/", f"/table/{table.code}/"]
    for url in public:
        response = phone.goto(url)
        assert response is not None and response.status == 200, url
        assert "script-src 'self'" in response.headers["content-security-policy"]
        phone.wait_for_load_state("networkidle")
    screenshot(phone, "csp-table-page-360")
    login(page, "demo", "demo-director")
    director = [
        "/director/",
        "/director/demo/",
        "/director/demo/standings/",
        "/director/new/",
        "/appeals/demo/",
    ]
    director += ["/admin/", "/admin/tournaments/tournament/", "/admin/auth/user/1/change/"]
    for url in director:
        response = page.goto(url)
        assert response is not None and response.status == 200, url
        page.wait_for_load_state("networkidle")
    screenshot(page, "csp-admin-user-1280")
    assert on_page == [] and on_phone == []


def test_what_the_inline_scripts_did_still_works(page, demo):
    from django.utils import timezone

    from tournaments.services.event import session_add

    tournament, _table = demo
    refused = _watch(page)
    login(page, "demo", "demo-director")
    # Print: the button prints once, though the page may carry the script more than once.
    page.goto("/director/demo/standings/")
    page.evaluate("() => { window.printed = 0; window.print = () => { window.printed += 1; }; }")
    page.click(".print-bar [data-print]")
    assert page.evaluate("() => window.printed") == 1
    # The new-tournament form hides the duplicate-only fields for an event played in pulkas.
    page.goto("/director/new/")
    assert page.locator("#field-deals_per_set").is_visible()
    page.select_option("#id_form", "olympic")
    assert page.locator("#field-deals_per_set").is_hidden()
    page.select_option("#id_form", "duplicate")
    assert page.locator("#field-deals_per_set").is_visible()
    # The session picker changes the session as soon as one is chosen.
    session_add(tournament=tournament, user=tournament.directors.get(), now=timezone.now())
    page.goto("/t/demo/boards/")
    page.select_option(".session-picker select", "2")
    page.wait_for_url("**/t/demo/boards/?session=2")
    assert refused == []
