"""Issue 29, N9: a confirmation sent after the director stopped the table, or after the round ended, is refused
through HTTP on both channels — the phone page (the form posted by hand, though the page no longer shows it) and
the API — and nothing is recorded. (The rule is ``pulkas.services.sheet_authority.check_player_confirms``, issue 28;
the service-level test is tests/pulkas/test_sheet_authority.py.)"""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from pulkas.models import PulkaDeal
from pulkas.services import rounds, sheet, table_control
from tests.html import visible_text
from tests.pulkas.test_sheet_authority import six, three_at_a_table

pytestmark = pytest.mark.django_db


def _try_both(table, p) -> list[tuple[int, str]]:
    """E confirms deal 1 on the phone page and through the API; (status, words or code) of each."""
    phone = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    page = phone.post(
        f"/pulka/{table.code}/", {"action": "confirm", "deal": 1, "number": p.number, "pin": p.pin}
    )
    api = APIClient(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en").post(
        f"/api/pulka/tables/{table.code}/deals/1/confirm/", {"number": p.number, "pin": p.pin}, format="json"
    )
    return [(page.status_code, visible_text(page)), (api.status_code, api.json()["error"]["code"])]


def _unconfirmed(table) -> bool:
    deal = PulkaDeal.objects.get(table=table, number=1)
    return deal.status == PulkaDeal.Status.ENTERED and deal.confirmed_by == []


def test_no_confirmation_through_http_after_the_table_was_stopped(director):
    table, seats = three_at_a_table(director)
    now = timezone.now()
    sheet.enter_deal(table=table, row=six("N", 6, ("E", "S")), participant=seats["N"], now=now)
    table_control.stop_table(table=table, user=director, now=now, reason="time")
    (page, words), (api, code) = _try_both(table, seats["E"])
    assert page == 409 and "stopped this table" in words, page
    assert api == 409 and code == "table_stopped"
    assert _unconfirmed(table)


def test_no_confirmation_through_http_after_the_round_ended(director):
    table, seats = three_at_a_table(director)
    now = timezone.now()
    sheet.enter_deal(table=table, row=six("N", 6, ("E", "S")), participant=seats["N"], now=now)
    table_control.stop_table(table=table, user=director, now=now, reason="time")
    rounds.end_round(pulka_round=table.round, user=director, now=now)
    (page, _words), (api, code) = _try_both(table, seats["E"])
    assert page == 409 and api == 409 and code in ("table_stopped", "round_not_running")
    table_control.reopen_table(table=table, user=director, now=now, reason="the round has ended")
    (page, words), (api, code) = _try_both(table, seats["E"])
    assert page == 409 and "round is not running" in words, page
    assert api == 409 and code == "round_not_running"
    assert _unconfirmed(table)


def test_no_deal_with_confirmations_through_the_api_after_the_table_was_stopped(director):
    table, seats = three_at_a_table(director)
    n, e, s = seats["N"], seats["E"], seats["S"]
    table_control.stop_table(table=table, user=director, now=timezone.now(), reason="time")
    table.refresh_from_db()
    body = {
        "number": n.number,
        "pin": n.pin,
        "version": table.version,
        "confirmations": [{"number": e.number, "pin": e.pin}, {"number": s.number, "pin": s.pin}],
        **six("N", 6, ("E", "S")),
    }
    answer = APIClient(raise_request_exception=False).post(
        f"/api/pulka/tables/{table.code}/deals/", body, format="json"
    )
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "table_stopped", answer.json()
    assert not PulkaDeal.objects.filter(table=table).exists()
