"""Issue 29, N7 and N15 at the API: the format-suffix routes DRF adds (``/api/results/5.json``) are no part of the
API (404 in the JSON error shape, not a 500); a participant number in ``seats`` is bounded (400, not an overflow's
500); a superuser sees through the API what a director of the event sees (as on the pages)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.api.helpers import enter
from tests.table.factory import legal_row, make_event
from tournaments.models import Publication

pytestmark = pytest.mark.django_db


def token(user) -> APIClient:
    c = APIClient(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    c.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return c


def error(response) -> dict:
    body = response.json()
    assert set(body) == {"error"}, body
    return body["error"]


@pytest.mark.parametrize(
    "url",
    [
        "/api/results/{pk}.json",
        "/api/results/{pk}.api",
        "/api/results.json",
        "/api/tournaments/tt/standings.json",
        "/api/tournaments/tt.json",
        "/api/tournaments.json",
    ],
)
def test_format_suffixes_are_not_routes(director, url):
    make_event(director=director)
    pk = enter().pk
    for c in (APIClient(raise_request_exception=False), token(director)):
        response = c.get(url.format(pk=pk))
        assert response.status_code == 404, (url, response.status_code)
        assert error(response)["code"] == "not_found"


@pytest.mark.parametrize("number", [10**20, 2**31, 10_000, 0, -1, "7", True, 1.5])
def test_a_seat_number_out_of_bounds_is_a_clear_400(director, number):
    t, session = make_event(director=director)
    body = {
        "session": session.pk,
        "board": 3,
        "round": 1,
        "table": 1,
        "seats": {"N": number, "E": 2, "S": 3, "W": 4},
        **legal_row(4, "S"),
    }
    response = token(director).post("/api/results/", body, format="json")
    assert response.status_code == 400, response.status_code
    details = error(response)["details"]
    assert [d["field"] for d in details] == ["seats"], details
    assert "participant number" in details[0]["message"].lower(), details


def test_a_superuser_sees_what_a_director_sees(director):
    t, session = make_event(director=director)
    assert t.publication == Publication.DRAFT
    row = enter()
    root = User.objects.create_superuser("root", "root@example.org", "a long password 1")
    penalty = {"session": session.pk, "participant": 3, "matchpoints": "-2", "reason": "12.2.2 slow play"}
    assert token(director).post("/api/penalties/", penalty, format="json").status_code == 201
    for url in (
        f"/api/results/{row.pk}/",
        "/api/results/",
        f"/api/results/?session={session.pk}",
        "/api/penalties/",
    ):
        as_director, as_root = token(director).get(url), token(root).get(url)
        assert as_director.status_code == as_root.status_code == 200, (url, as_root.status_code)
        assert as_root.json() == as_director.json(), url
    assert token(root).get("/api/results/").json() != []
    session_login = APIClient(raise_request_exception=False)
    session_login.force_login(root)
    assert session_login.get(f"/api/results/{row.pk}/").status_code == 200


def test_an_unknown_api_path_answers_in_readable_russian(client):
    """Issue 30: /api/ answered a 404 with «\\u041d…» escapes; the body is UTF-8 as DRF writes its own."""
    response = client.get("/api/no-such-thing/", headers={"accept-language": "ru"})
    assert response.status_code == 404
    assert b"\\u04" not in response.content and "API" in response.content.decode()
    assert response.json()["error"]["code"] == "not_found"
