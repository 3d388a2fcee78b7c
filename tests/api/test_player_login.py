"""One player login for the API's tables of both forms: ``Authorization: Player <code>:<number>:<PIN>`` is one
authentication class (``api.auth.PlayerAuthentication``) and one OpenAPI security scheme (``playerAuth``); it opens
a duplicate table's rows and a pulka table's sheet alike, and never one form's table with the other's."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from pulkas.models import PulkaDeal
from tests.api.test_pulkas import error, rows_for, running, seats
from tests.table.factory import legal_row, make_event, player_auth
from tournaments.models import Table

pytestmark = pytest.mark.django_db


def header(value: str) -> APIClient:
    c = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    c.credentials(HTTP_AUTHORIZATION=value)
    return c


@pytest.fixture
def both(director):
    """A duplicate table with a running round (TAB1TT) and a pulka table of a running round."""
    make_event(director=director)
    _t, pulka_round = running(director)
    return Table.objects.get(code="TAB1TT"), pulka_round.tables.order_by("number").first()


def test_the_schema_has_one_player_scheme_for_both_forms():
    schema = Client().get("/api/schema/?format=json").json()
    schemes = schema["components"]["securitySchemes"]
    players = [
        name
        for name, scheme in schemes.items()
        if scheme.get("name") == "Authorization" and "Player" in scheme.get("description", "")
    ]
    assert players == ["playerAuth"] and sorted(schemes) == ["cookieAuth", "playerAuth", "tokenAuth"]
    for path, method in (
        ("/api/results/", "post"),
        ("/api/results/{id}/confirm/", "post"),
        ("/api/pulka/tables/{code}/deals/", "post"),
        ("/api/pulka/tables/{code}/deals/{number}/confirm/", "post"),
        ("/api/pulka/tables/{code}/", "get"),
    ):
        assert {"playerAuth": []} in schema["paths"][path][method]["security"], path


def test_the_same_header_opens_a_duplicate_table_and_a_pulka_table(both):
    duplicate, pulka = both
    entered = header(player_auth(duplicate, 1)).post(
        "/api/results/", {"board": 1, **legal_row(4, "N")}, format="json"
    )
    assert entered.status_code == 201, entered.json()
    writer = seats(pulka)["N"]
    at_pulka = header(f"Player {pulka.code.lower()}:{writer.number}:{writer.pin}")
    sheet = at_pulka.get(f"/api/pulka/tables/{pulka.code}/").json()
    assert sheet["deals"] == [] and sheet["next_deal"]["number"] == 1  # his table: he sees the sheet
    (row,) = rows_for(pulka, 1)
    wrote = at_pulka.post(f"/api/pulka/tables/{pulka.code}/deals/", {**row, "version": 0}, format="json")
    assert wrote.status_code == 201, wrote.json()
    assert PulkaDeal.objects.get(table=pulka).entered_by == writer


def test_a_player_of_one_form_cannot_act_at_the_other_forms_table(both):
    duplicate, pulka = both
    writer = seats(pulka)["N"]
    pulka_player = header(f"Player {pulka.code}:{writer.number}:{writer.pin}")
    refused = pulka_player.post("/api/results/", {"board": 1, **legal_row(4, "N")}, format="json")
    assert refused.status_code == 403 and error(refused)["code"] == "not_this_table"
    duplicate_player = header(player_auth(duplicate, 1))
    sheet = duplicate_player.get(f"/api/pulka/tables/{pulka.code}/").json()
    assert sheet["deals"] is None  # not his table: the header of a seat, not the rows
    (row,) = rows_for(pulka, 1)
    write = duplicate_player.post(
        f"/api/pulka/tables/{pulka.code}/deals/", {**row, "version": 0}, format="json"
    )
    assert write.status_code == 403 and error(write)["code"] == "not_this_table"
    # a duplicate table's code on the pulka table's address is not a pulka table
    wrong = APIClient(HTTP_ACCEPT_LANGUAGE="en").get(f"/api/pulka/tables/{duplicate.code}/")
    assert wrong.status_code == 404 and error(wrong)["code"] == "not_pulka_table"


def test_a_wrong_pin_is_refused_alike_at_either_form(both):
    duplicate, pulka = both
    for code, number in ((duplicate.code, 1), (pulka.code, seats(pulka)["N"].number)):
        wrong = header(f"Player {code}:{number}:0000").get("/api/results/")
        assert wrong.status_code == 401 and error(wrong)["code"] == "authentication_failed"
        assert (
            error(wrong)["message"]
            == "Wrong number or PIN, or this participant does not play at this table in this round."
        )
