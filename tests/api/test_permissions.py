"""The permission matrix: every write of the API, for each kind of caller.

anonymous → 401; a player at the table → allowed where the rules allow him; a player at another table →
403 (or 404 where the row is not visible to him); a logged-in non-director → 403/404; a director → allowed.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.urls import resolve

from boards.models import Board
from scoring.models import Penalty, Result
from tests.api.helpers import client_for, enter, event  # noqa: F401
from tests.table.factory import legal_row
from tournaments.models import Round, Seating, Table

pytestmark = pytest.mark.django_db

ACTORS = ("anonymous", "player_at_table", "other_table", "intruder", "user", "director")


def route_of(path: str) -> str:
    """«api:result-detail»: the API route a request goes to."""
    return resolve(urlsplit(path).path).view_name


def _results_create(ctx, actor):
    body = {"board": 1, **legal_row(4, "N")}
    if actor in ("director", "user"):
        body.update(session=ctx["session"].pk, round=1, table=1)
    if actor == "other_table":
        body.update(table=1)
    return "post", "/api/results/", body


def _result(method, suffix="", body=None):
    def build(ctx, actor):
        # A director's correction or deletion says why (the write path's rule, whatever the channel).
        if method in ("put", "patch"):
            return method, f"/api/results/{ctx['result'].pk}/{suffix}", {**(body or {}), "reason": "agreed"}
        if method == "delete":
            return method, f"/api/results/{ctx['result'].pk}/{suffix}?reason=entered+twice", body
        return method, f"/api/results/{ctx['result'].pk}/{suffix}", body

    return build


def _adjustment(ctx, actor):
    return (
        "post",
        "/api/adjustments/",
        {
            "session": ctx["session"].pk,
            "board": 3,
            "round": 1,
            "table": 1,
            "reason": "fouled board",
            "adjusted": {"N": "A", "E": "A", "S": "A+", "W": "A-"},
        },
    )


def _penalty_create(ctx, actor):
    return (
        "post",
        "/api/penalties/",
        {"session": ctx["session"].pk, "participant": 3, "matchpoints": "-2", "reason": "12.2.2 slow play"},
    )


def _penalty(method, body=None):
    def build(ctx, actor):
        query = "?reason=appeal+upheld" if method == "delete" else ""
        return method, f"/api/penalties/{ctx['penalty'].pk}/{query}", body

    return build


ROW = legal_row(4, "E", tricks=(7, 2, 1))
# operation → (the route and method it decides, how the request is made, the player at the table who tries it,
# expected status per actor). tests/permissions/test_matrix.py: every route and method of the API is decided
# here (MATRIX, READS) or in test_permissions_pulka.py.
MATRIX = {
    # intruder: participant 5's right PIN with table 1's code is answered as a wrong PIN (401), no oracle
    "results.create": (
        "POST api:result-list",
        _results_create,
        1,
        dict(anonymous=401, player_at_table=201, other_table=403, intruder=401, user=403, director=201),
    ),
    "results.update": (
        "PUT api:result-detail",
        _result("put", body={**ROW, "revision": 1}),
        1,
        dict(anonymous=401, player_at_table=200, other_table=404, intruder=401, user=404, director=200),
    ),
    "results.partial_update": (
        "PATCH api:result-detail",
        _result("patch", body={"declarer": ["N", 7], "w1": ["S", 2], "w2": ["W", 1], "revision": 1}),
        1,
        dict(anonymous=401, player_at_table=200, other_table=404, intruder=401, user=404, director=200),
    ),
    "results.destroy": (
        "DELETE api:result-detail",
        _result("delete"),
        1,
        dict(anonymous=401, player_at_table=403, other_table=404, intruder=401, user=404, director=204),
    ),
    "results.confirm": (
        "POST api:result-confirm",
        _result("post", "confirm/", {}),
        2,
        dict(anonymous=401, player_at_table=200, other_table=404, intruder=401, user=404, director=200),
    ),
    "results.dispute": (
        "POST api:result-dispute",
        _result("post", "dispute/", {"reason": "W took 3"}),
        3,
        dict(anonymous=401, player_at_table=200, other_table=404, intruder=401, user=404, director=403),
    ),
    "adjustments.create": (
        "POST api:adjustment-list",
        _adjustment,
        1,
        dict(anonymous=401, player_at_table=403, other_table=403, intruder=401, user=403, director=201),
    ),
    "penalties.create": (
        "POST api:penalty-list",
        _penalty_create,
        1,
        dict(anonymous=401, player_at_table=403, other_table=403, intruder=401, user=403, director=201),
    ),
    "penalties.update": (
        "PUT api:penalty-detail",
        _penalty("put", {"session": 0, "participant": 3, "matchpoints": "-1", "reason": "x"}),
        1,
        dict(anonymous=401, player_at_table=404, other_table=404, intruder=401, user=404, director=200),
    ),
    "penalties.partial_update": (
        "PATCH api:penalty-detail",
        _penalty("patch", {"matchpoints": "-1", "reason": "appeal upheld"}),
        1,
        dict(anonymous=401, player_at_table=404, other_table=404, intruder=401, user=404, director=200),
    ),
    "penalties.destroy": (
        "DELETE api:penalty-detail",
        _penalty("delete"),
        1,
        dict(anonymous=401, player_at_table=404, other_table=404, intruder=401, user=404, director=204),
    ),
    # Directors only, with a token or a session: a Player header authenticates nobody here (401).
    "publication.publish": (
        "POST api:publication",
        lambda ctx, actor: ("post", "/api/tournaments/tt/publication/", {"to": "provisional"}),
        1,
        dict(anonymous=401, player_at_table=401, other_table=401, intruder=401, user=403, director=200),
    ),
}


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("operation", list(MATRIX))
def test_permission_matrix(operation, actor, event, director, other_user):  # noqa: F811
    _t, session = event
    result = enter(board=2, dealer="E")
    penalty = Penalty.objects.create(
        session=session, participant=result.seat_s, matchpoints="-1", reason="late"
    )
    ctx = {"session": session, "result": result, "penalty": penalty}
    route, build, seat_number, expected = MATRIX[operation]
    method, path, body = build(ctx, actor)
    assert f"{method.upper()} {route_of(path)}" == route, "the request is not the one the entry decides"
    if body and body.get("session") == 0:
        body = {**body, "session": session.pk}
    name = f"player{seat_number}" if actor == "player_at_table" else actor
    client = client_for(name, director=director, other_user=other_user)
    before = (Result.objects.count(), Penalty.objects.count())
    response = (
        getattr(client, method)(path, body, format="json")
        if body is not None
        else getattr(client, method)(path)
    )
    assert response.status_code == expected[actor], (operation, actor, response.content)
    if response.status_code >= 400:
        assert set(response.json()) == {"error"}
        assert {"code", "message", "details"} <= set(response.json()["error"])
        assert (Result.objects.count(), Penalty.objects.count()) == before, "a refused write changes nothing"
        if response.status_code == 401:
            assert response["WWW-Authenticate"]


# -- reads --------------------------------------------------------------------------------------------------
# The event is running and its results are a draft: reference data is public, a table's own rows are its
# players', the standings and the penalties are the directors' until published (a caller's wrong PIN is 401).
PUBLIC = dict(anonymous=200, player_at_table=200, other_table=200, intruder=401, user=200, director=200)
DIRECTORS = dict(anonymous=404, player_at_table=404, other_table=404, intruder=401, user=404, director=200)
AT_THE_TABLE = {**DIRECTORS, "player_at_table": 200}
NO_PLAYER_AUTH = {**PUBLIC, "intruder": 200}  # not the API's views: a Player header means nothing there
NOWHERE = {actor: 404 for actor in ACTORS}
# A directors' endpoint that a Player header does not log into: 401 but for a logged-in non-director (403).
DIRECTORS_BY_LOGIN = dict(
    anonymous=401, player_at_table=401, other_table=401, intruder=401, user=403, director=200
)


def _code_shown(body) -> bool:
    return body["code"] is not None


def _hands_shown(body) -> bool:
    return body["hands"] is not None


# route → (its path, expected status per actor, (what only some may see, who sees it) or None)
READS = {
    "GET api:tournament-list": (lambda c: "/api/tournaments/", PUBLIC, None),
    "GET api:tournament-detail": (lambda c: "/api/tournaments/tt/", PUBLIC, None),
    "GET api:tournament-standings": (lambda c: "/api/tournaments/tt/standings/", DIRECTORS, None),
    "GET api:session-list": (lambda c: "/api/sessions/?tournament=tt", PUBLIC, None),
    "GET api:session-detail": (lambda c: f"/api/sessions/{c['session'].pk}/", PUBLIC, None),
    "GET api:round-list": (lambda c: f"/api/rounds/?session={c['session'].pk}", PUBLIC, None),
    "GET api:round-detail": (lambda c: f"/api/rounds/{c['round'].pk}/", PUBLIC, None),
    "GET api:table-list": (lambda c: f"/api/tables/?session={c['session'].pk}", PUBLIC, None),
    "GET api:table-detail": (
        lambda c: f"/api/tables/{c['table'].pk}/",
        PUBLIC,
        (_code_shown, {"director"}),
    ),
    "GET api:seating-list": (lambda c: f"/api/seatings/?session={c['session'].pk}", PUBLIC, None),
    "GET api:seating-detail": (lambda c: f"/api/seatings/{c['seating'].pk}/", PUBLIC, None),
    "GET api:board-list": (lambda c: f"/api/boards/?session={c['session'].pk}", PUBLIC, None),
    "GET api:board-detail": (
        lambda c: f"/api/boards/{c['board'].pk}/",
        PUBLIC,
        (_hands_shown, {"director"}),
    ),
    "GET api:result-list": (lambda c: "/api/results/", PUBLIC, None),
    "GET api:result-detail": (lambda c: f"/api/results/{c['result'].pk}/", AT_THE_TABLE, None),
    "GET api:penalty-list": (lambda c: "/api/penalties/", PUBLIC, None),
    "GET api:penalty-detail": (lambda c: f"/api/penalties/{c['penalty'].pk}/", DIRECTORS, None),
    "GET api:schema": (lambda c: "/api/schema/", NO_PLAYER_AUTH, None),
    "GET api:docs": (lambda c: "/api/docs/", NO_PLAYER_AUTH, None),
    "GET api:not-found": (lambda c: "/api/no-such-thing/", NOWHERE, None),
    "GET api:publication": (lambda c: "/api/tournaments/tt/publication/", DIRECTORS_BY_LOGIN, None),
}


@pytest.mark.parametrize("route", list(READS))
def test_read_matrix(route, event, director, other_user):  # noqa: F811
    _t, session = event
    result = enter(board=2, dealer="E")
    ctx = {
        "session": session,
        "result": result,
        "penalty": Penalty.objects.create(
            session=session, participant=result.seat_s, matchpoints="-1", reason="late"
        ),
        "round": Round.objects.get(session=session, number=1),
        "table": Table.objects.get(code="TAB1TT"),
        "seating": Seating.objects.get(session=session, round_number=1, table_number=1),
        "board": Board.objects.get(session=session, number=2),
    }
    path_of, expected, private = READS[route]
    path = path_of(ctx)
    assert f"GET {route_of(path)}" == route, "the request is not the one the entry decides"
    problems = []
    for actor in ACTORS:
        name = "player1" if actor == "player_at_table" else actor
        response = client_for(name, director=director, other_user=other_user).get(path)
        if response.status_code != expected[actor]:
            problems.append(f"{actor}: {response.status_code}, expected {expected[actor]}")
        elif response.status_code >= 400:
            assert {"code", "message", "details"} <= set(response.json()["error"]), (actor, response.content)
        elif private is not None:
            shown, seen_by = private
            if shown(response.json()) != (actor in seen_by):
                problems.append(f"{actor}: {shown.__name__} is {shown(response.json())}")
    assert not problems, (route, problems)


# Every route and method of the API this module decides (the rest: test_permissions_pulka.py).
DECIDED = {route for route, *_rest in MATRIX.values()} | set(READS)


def test_a_confirmed_row_is_locked_for_players_but_the_director_may_change_it(event, director):  # noqa: F811
    result = enter(board=2, dealer="E")
    for n in (2, 3, 4):
        assert client_for(f"player{n}").post(f"/api/results/{result.pk}/confirm/").status_code == 200
    result.refresh_from_db()
    assert result.status == "confirmed"
    response = client_for("player1").put(f"/api/results/{result.pk}/", {**ROW, "revision": 1}, format="json")
    assert response.status_code == 409 and response.json()["error"]["code"] == "locked"
    response = client_for("director", director=director).put(
        f"/api/results/{result.pk}/", {**ROW, "reason": "table agreed 7 tricks", "revision": 1}, format="json"
    )
    assert response.status_code == 200 and response.json()["status"] == "director"
    from tournaments.models import AuditEntry

    entry = AuditEntry.objects.filter(action="result.update").latest("id")
    assert entry.user == director and entry.reason == "table agreed 7 tricks"
    assert entry.data["before"]["status"] == "confirmed"


def test_only_n_enters(event):  # noqa: F811
    response = client_for("player2").post("/api/results/", {"board": 1, **legal_row(4, "N")}, format="json")
    assert response.status_code == 403 and response.json()["error"]["code"] == "not_entry_seat"
