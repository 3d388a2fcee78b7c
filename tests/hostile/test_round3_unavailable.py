"""Issue 29, N10: while the database restarts (``OperationalError``, ``InterfaceError``) the API answers 503 with
``Retry-After`` in its JSON error shape, and the pages a plain 503 page with ``Retry-After`` — not an HTML 500."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import InterfaceError, OperationalError
from django.test import Client
from rest_framework.test import APIClient

from api import views_reference
from config import middleware
from table import lookup
from tests.table.factory import make_event

pytestmark = pytest.mark.django_db
DOWN = OperationalError('connection to server at "127.0.0.1", port 5432 failed: Connection refused')


def assert_json_503(response) -> None:
    assert response.status_code == 503, response.status_code
    assert int(response["Retry-After"]) > 0
    body = response.json()
    assert body["error"]["code"] == "unavailable" and body["error"]["message"], body


@pytest.mark.parametrize("error", [DOWN, InterfaceError("connection already closed")])
def test_the_api_answers_503_in_its_shape(director, error):
    make_event(director=director)
    c = APIClient(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    with mock.patch.object(views_reference.TournamentViewSet, "list", side_effect=error):
        assert_json_503(c.get("/api/tournaments/"))


def test_the_api_answers_503_when_the_database_fails_before_the_view(director):
    make_event(director=director)
    c = APIClient(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    with mock.patch.object(
        middleware, "_zone_name", side_effect=DOWN
    ):  # a middleware's query, before the view
        assert_json_503(c.get("/api/tournaments/tt/"))


def test_a_page_answers_a_plain_503_in_the_visitors_language(director):
    make_event(director=director)
    c = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="ru")
    with mock.patch.object(lookup, "find_table", side_effect=DOWN):
        response = c.get("/table/", {"code": "TAB1TT"})
    assert response.status_code == 503 and int(response["Retry-After"]) > 0
    text = response.content.decode()
    assert 'lang="ru"' in text and "Сервис" in text and "Server Error" not in text, text
    with mock.patch.object(middleware, "_zone_name", side_effect=DOWN):
        before_the_view = c.get("/t/tt/")
    assert before_the_view.status_code == 503 and int(before_the_view["Retry-After"]) > 0


def test_other_errors_stay_500(director):
    make_event(director=director)
    c = APIClient(raise_request_exception=False)
    with mock.patch.object(views_reference.TournamentViewSet, "list", side_effect=RuntimeError("a bug")):
        assert c.get("/api/tournaments/").status_code == 500
