"""One error shape for every 4xx, and what each caller may read (rules §12.2.4: no peeking at other tables)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from duplicate.gaps import round_gaps
from duplicate.rounds import round_end, round_start
from tests.api.helpers import client_for, enter, event  # noqa: F401
from tests.publishing import publish_to
from tests.table.factory import legal_row, player_auth
from tournaments.models import Publication, Table
from tournaments.pins import PER_CLIENT

pytestmark = pytest.mark.django_db


def error_of(response, status, code):
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
    assert body["error"]["code"] == code and body["error"]["message"]
    return body["error"]


def test_row_invalid_lists_the_cores_reasons(event):  # noqa: F811
    bad = {"board": 1, **legal_row(4, "N", tricks=(6, 3, 2))}
    err = error_of(client_for("player1").post("/api/results/", bad, format="json"), 400, "row_invalid")
    assert err["details"] == [
        {"field": "declarer", "code": "tricks_total", "message": "6 + 3 + 2 = 11 tricks, more than 10."}
    ]


def test_the_shapes_of_the_other_errors(event, director):  # noqa: F811
    err = error_of(
        client_for("player1").post("/api/results/", {"contract": "6S"}, format="json"), 400, "invalid"
    )
    assert {d["field"] for d in err["details"]} >= {"board", "declarer"}
    error_of(client_for("anonymous").post("/api/results/", {}, format="json"), 401, "not_authenticated")
    error_of(client_for("anonymous").get("/api/results/999/"), 404, "not_found")
    error_of(client_for("anonymous").get("/api/no-such-thing/"), 404, "not_found")
    error_of(
        client_for("anonymous").put("/api/tournaments/tt/", {}, format="json"), 405, "method_not_allowed"
    )
    error_of(client_for("anonymous").get("/api/results/?session=abc"), 400, "invalid")
    error_of(
        client_for("user", other_user=director).post(
            "/api/results/", {"board": 1, **legal_row(4, "N")}, format="json"
        ),
        400,
        "invalid",
    )
    c = client_for("anonymous")
    c.credentials(HTTP_AUTHORIZATION="Player TAB1TT:1:0000")
    error_of(c.get("/api/results/"), 401, "authentication_failed")
    c.credentials(HTTP_AUTHORIZATION="Player garbage")
    error_of(c.get("/api/results/"), 401, "authentication_failed")


def test_conflict_when_the_board_is_already_entered(event):  # noqa: F811
    body = {"board": 1, **legal_row(4, "N")}
    assert client_for("player1").post("/api/results/", body, format="json").status_code == 201
    error_of(client_for("player1").post("/api/results/", body, format="json"), 409, "conflict")


def test_wrong_pins_are_throttled(event):  # noqa: F811
    c = client_for("anonymous")
    c.credentials(HTTP_AUTHORIZATION=player_auth(Table.objects.get(code="TAB1TT"), 1, "0000"))
    for _ in range(PER_CLIENT):
        assert c.get("/api/results/").status_code == 401
    c.credentials(HTTP_AUTHORIZATION=player_auth(Table.objects.get(code="TAB1TT"), 1))
    error_of(c.get("/api/results/"), 429, "throttled")


def test_anonymous_requests_are_throttled(event, settings):  # noqa: F811
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"anon": "3/min"}}
    c = client_for("anonymous")
    for _ in range(3):
        assert c.get("/api/tournaments/").status_code == 200
    err = error_of(c.get("/api/tournaments/"), 429, "throttled")
    assert err["details"][0]["code"] == "retry_after"


def test_players_see_only_their_own_tables_rows_before_the_session_ends(event, director):  # noqa: F811
    _t, session = event
    mine = enter(board=2, dealer="E")
    other = client_for("other_table").post("/api/results/", {"board": 5, **legal_row(4, "N")}, format="json")
    assert other.status_code == 201
    seen = [r["id"] for r in client_for("player3").get("/api/results/").json()]
    assert seen == [mine.pk]
    assert client_for("player3").get(f"/api/results/{other.json()['id']}/").status_code == 404
    assert client_for("anonymous").get("/api/results/").json() == []
    assert len(client_for("director", director=director).get("/api/results/").json()) == 2
    row = client_for("player3").get(f"/api/results/{mine.pk}/").json()
    assert row["matchpoints"] is None and row["vists"] and row["awaiting"] == ["E", "S", "W"]


def test_deals_and_codes_are_for_directors_until_results_are_public(event, director):  # noqa: F811
    t, session = event
    anon = client_for("anonymous")
    boards = anon.get(f"/api/boards/?session={session.pk}").json()
    assert boards and all(b["hands"] is None for b in boards)
    assert all(t["code"] is None for t in anon.get(f"/api/tables/?session={session.pk}").json())
    boss = client_for("director", director=director)
    assert {t["code"] for t in boss.get(f"/api/tables/?session={session.pk}").json()} == {"TAB1TT", "TAB2TT"}
    error_of(anon.get("/api/tournaments/tt/standings/"), 404, "not_found")
    assert boss.get("/api/tournaments/tt/standings/").status_code == 200
    enter(board=2, dealer="E")
    publish_to(t, Publication.PROVISIONAL, director, timezone.now())
    # published, but round 1 is being played: neither rows nor standings (rules §12.2.4)
    assert anon.get("/api/results/").json() == []
    error_of(anon.get("/api/tournaments/tt/standings/"), 404, "not_found")
    for rnd in session.rounds.order_by("number"):  # the session ends through the director's «end of round»
        if rnd.status == "pending":
            rnd = round_start(rnd=rnd, user=director, now=timezone.now())
        round_end(rnd=rnd, user=director, now=timezone.now(), acknowledged=round_gaps(rnd).token)
    assert len(anon.get("/api/results/").json()) == 1
    assert anon.get("/api/tournaments/tt/standings/").status_code == 200


def test_reference_data_is_public(event):  # noqa: F811
    _t, session = event
    anon = client_for("anonymous")
    assert anon.get("/api/tournaments/").json()[0]["slug"] == "tt"
    assert anon.get("/api/sessions/?tournament=tt").json()[0]["status"] == "running"
    assert [r["status"] for r in anon.get(f"/api/rounds/?session={session.pk}").json()] == [
        "running",
        "pending",
    ]
    seatings = anon.get(f"/api/seatings/?session={session.pk}&round=1").json()
    assert seatings[0]["seats"] == {"N": 1, "E": 2, "S": 3, "W": 4}


def test_messages_follow_the_request_language(event):  # noqa: F811
    bad = {"board": 1, **legal_row(4, "N", tricks=(6, 3, 2))}
    c = client_for("player1")
    c.credentials(
        HTTP_AUTHORIZATION=player_auth(Table.objects.get(code="TAB1TT"), 1), HTTP_ACCEPT_LANGUAGE="ru"
    )
    err = error_of(c.post("/api/results/", bad, format="json"), 400, "row_invalid")
    assert err["details"][0]["code"] == "tricks_total"  # the Russian text arrives with the lead's .po merge
