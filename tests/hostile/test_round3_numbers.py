"""Issue 29, N7: a participant number typed with digits that are not ASCII («¹», «①», «²3»: ``str.isdigit`` says
yes, ``int`` says no) is a wrong number — refused in words, counted as a wrong guess — on the duplicate table's
page, the pulka table's page, the API's ``Player`` header and the player's appeals login, never a 500."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.pulkas.factory import pulka_event, running_round
from tests.table.factory import make_event
from tournaments.models import Table
from tournaments.numbers import participant_number

pytestmark = pytest.mark.django_db
ODD = ["¹", "①", "²3", "٣", "３", "1_0", "+1", "-1", "0", "10000", "1234567", "1e3", " 1 2 "]


def wsgi(header: str) -> str:
    """A header as a WSGI server hands it on: the UTF-8 bytes sent, read as Latin-1."""
    return header.encode().decode("latin-1")


def test_the_one_parser_takes_ascii_digits_only():
    for text in ODD:
        assert participant_number(text) is None, text
    assert (
        participant_number(" 07 ") == 7 and participant_number(7) == 7 and participant_number("9999") == 9999
    )
    assert (
        participant_number(None) is None
        and participant_number(True) is None
        and participant_number(10**20) is None
    )


@pytest.mark.parametrize("number", ODD)
def test_the_duplicate_page_refuses_an_odd_number(director, number):
    make_event(director=director)
    c = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="ru")
    response = c.post("/table/TAB1TT/", {"action": "show", "number": number, "pin": "1001"})
    assert response.status_code == 403, response.status_code
    confirm = c.post("/table/TAB1TT/", {"action": "confirm_all", "number": number, "pin": "1001"})
    assert confirm.status_code in (302, 400, 403), confirm.status_code


@pytest.mark.parametrize("number", ODD)
def test_the_pulka_page_refuses_an_odd_number(director, number):
    t = pulka_event(director, "compensation", 4, 4, pool=6)
    table = running_round(director, t).tables.get()
    c = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="ru")
    response = c.post(f"/pulka/{table.code}/", {"action": "show", "number": number, "pin": "1001"})
    assert response.status_code == 403, response.status_code


@pytest.mark.parametrize("number", ODD)
def test_the_player_header_refuses_an_odd_number(director, number):
    make_event(director=director)
    c = APIClient(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    c.credentials(HTTP_AUTHORIZATION=wsgi(f"Player TAB1TT:{number}:1001"))
    response = c.get("/api/results/")
    assert response.status_code == 401, response.status_code
    assert response.json()["error"]["code"] in ("authentication_failed", "wrong_pin"), response.json()


@pytest.mark.parametrize("number", ["¹", "①", "²3"])
def test_the_pulka_api_refuses_an_odd_number(director, number):
    t = pulka_event(director, "compensation", 4, 4, pool=6)
    table = running_round(director, t).tables.get()
    c = APIClient(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    c.credentials(HTTP_AUTHORIZATION=wsgi(f"Player {table.code}:{number}:1001"))
    assert c.get(f"/api/pulka/tables/{table.code}/").status_code == 401
    body = {"number": number, "pin": "1001", "row": {}}
    assert APIClient(raise_request_exception=False).post(
        f"/api/pulka/tables/{table.code}/deals/", body, format="json"
    ).status_code in (400, 401, 403)


def test_an_odd_number_is_counted_as_a_wrong_guess(director):
    make_event(director=director)
    assert Table.objects.filter(code="TAB1TT").exists()
    c = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="ru")
    codes = [
        c.post("/table/TAB1TT/", {"action": "show", "number": "①", "pin": "1"}).status_code for _ in range(8)
    ]
    assert codes[0] == 403 and codes[-1] == 429, codes
