"""The permission matrix of the pulka API: every route and method, for each kind of caller.

An Olympic event of 6 players at two tables of 3, round 1 drawn. anonymous → 401 on a write; a player of the
table (the Player header with his table's code) → his table's sheet; a player of the other table → 403 on this
table's sheet (his header with this table's code: 401, a right PIN of someone else is a wrong PIN); a logged-in
non-director → 403; a director → every change of the event. The event's routes take no Player header: there a
player is anonymous.
"""

from __future__ import annotations

import random

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from preferans.pulka.simulate import random_pulka
from pulkas.models import PulkaDeal, PulkaRound, PulkaTable
from pulkas.services import rounds, sheet
from tests.api.test_permissions import ACTORS, route_of
from tests.pulkas.factory import pin_of, pulka_event
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def _client(actor: str, ctx: dict, seat: str) -> APIClient:
    c = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    table, other = ctx["table"], ctx["other"]
    stranger = other.seats()["N"].number
    if actor == "director":
        c.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=ctx['director'])[0].key}")
    elif actor == "user":
        c.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=ctx['user'])[0].key}")
    elif actor == "player_at_table":
        number = table.seats()[seat].number
        c.credentials(HTTP_AUTHORIZATION=f"Player {table.code}:{number}:{pin_of(number)}")
    elif actor == "other_table":  # N of table 2 with his own table's code
        c.credentials(HTTP_AUTHORIZATION=f"Player {other.code}:{stranger}:{pin_of(stranger)}")
    elif actor == "intruder":  # N of table 2 trying table 1's code with his own PIN
        c.credentials(HTTP_AUTHORIZATION=f"Player {table.code}:{stranger}:{pin_of(stranger)}")
    return c


# -- what each entry does before its request (through the services, as the director would) --------------------
def _start(ctx: dict) -> None:
    rounds.start_round(pulka_round=ctx["round"], user=ctx["director"], now=timezone.now())


def _stop(ctx: dict) -> None:
    _start(ctx)
    rounds.stop_round(
        pulka_round=ctx["round"], user=ctx["director"], now=timezone.now(), reason="время вышло"
    )


def _stop_and_decide(ctx: dict) -> None:
    _stop(ctx)
    for table in PulkaTable.objects.filter(round=ctx["round"]):
        if table.advance and table.advance["tied"]:
            rounds.decide_tie(
                table=table,
                seats=table.advance["tied"][:1],
                user=ctx["director"],
                now=timezone.now(),
                reason="lot",
            )


def _undraw(ctx: dict) -> None:
    rounds.undraw_round(pulka_round=ctx["round"], user=ctx["director"], now=timezone.now())


def _row(ctx: dict) -> dict:
    table = ctx["table"]
    return random_pulka(random.Random(1), sheet.load_sheet(table).setup, deals=1)[0]


def _deal_written(ctx: dict) -> None:
    """Round 1 running, deal 1 of table 1 written by N and waiting for the others."""
    _start(ctx)
    table = PulkaTable.objects.get(pk=ctx["table"].pk)
    sheet.enter_deal(table=table, row=_row(ctx), participant=table.seats()["N"], now=timezone.now())


def _nothing(ctx: dict) -> None:
    pass


# -- the requests ----------------------------------------------------------------------------------------------
def _event(method: str, suffix: str = "", body: dict | None = None):
    return lambda ctx: (method, f"/api/tournaments/{ctx['slug']}/pulka/{suffix}", body)


def _table(method: str, suffix: str = "", body=None):
    def build(ctx: dict):
        return (
            method,
            f"/api/pulka/tables/{ctx['table'].code}/{suffix}",
            body(ctx) if callable(body) else body,
        )

    return build


def _new_deal(ctx: dict) -> dict:
    return {**_row(ctx), "version": PulkaTable.objects.get(pk=ctx["table"].pk).version}


def _correction(ctx: dict) -> dict:
    return {**_new_deal(ctx), "reason": "ruling"}


# The event's routes read the one player login of either form (api.auth), as the duplicate API does: a player
# is somebody there (refused a director's write with 403), a wrong PIN is nobody (401), even on a public read.
ALL = {**{actor: 200 for actor in ACTORS}, "intruder": 401}
DIRECTOR_WRITES = dict(
    anonymous=401, player_at_table=403, other_table=403, intruder=401, user=403, director=200
)
DIRECTORS_READ = {**{actor: 404 for actor in ACTORS}, "intruder": 401, "director": 200}

# route → (what is done first, the request, the seat of table 1 that tries it, expected status per actor)
PULKA = {
    "GET api:pulka-event": (_nothing, _event("get"), "N", ALL),
    "PATCH api:pulka-event": (_nothing, _event("patch", body={"round_minutes": 90}), "N", DIRECTOR_WRITES),
    "GET api:pulka-rounds": (_nothing, _event("get", "rounds/"), "N", ALL),
    "POST api:pulka-rounds": (
        _undraw,
        _event("post", "rounds/", {"seed": 5}),
        "N",
        # the round undrawn, its tables are gone: a player's header names no table (401)
        {**DIRECTOR_WRITES, "player_at_table": 401, "other_table": 401, "director": 201},
    ),
    "GET api:pulka-round": (_nothing, _event("get", "rounds/1/"), "N", ALL),
    "DELETE api:pulka-round": (
        _nothing,
        _event("delete", "rounds/1/"),
        "N",
        {**DIRECTOR_WRITES, "director": 204},
    ),
    "POST api:pulka-round-start": (_nothing, _event("post", "rounds/1/start/"), "N", DIRECTOR_WRITES),
    "POST api:pulka-round-stop": (
        _start,
        _event("post", "rounds/1/stop/", {"reason": "Время тура вышло"}),
        "N",
        DIRECTOR_WRITES,
    ),
    "POST api:pulka-round-end": (_stop_and_decide, _event("post", "rounds/1/end/"), "N", DIRECTOR_WRITES),
    "POST api:pulka-tie": (
        _stop,
        _event("post", "rounds/1/tables/1/tie/", {"seats": ["E"], "reason": "by lot"}),
        "N",
        DIRECTOR_WRITES,
    ),
    "GET api:pulka-standings": (_nothing, _event("get", "standings/"), "N", DIRECTORS_READ),
    "GET api:pulka-sheet": (_start, _table("get"), "N", ALL),
    "POST api:pulka-deals": (
        _start,
        _table("post", "deals/", _new_deal),
        "N",
        dict(anonymous=401, player_at_table=201, other_table=403, intruder=401, user=403, director=201),
    ),
    "POST api:pulka-deal-confirm": (
        _deal_written,
        _table("post", "deals/1/confirm/", {}),
        "E",
        dict(anonymous=401, player_at_table=200, other_table=403, intruder=401, user=403, director=403),
    ),
    "POST api:pulka-deal-correct": (
        _deal_written,
        _table("post", "deals/1/correct/", _correction),
        "N",
        dict(anonymous=401, player_at_table=200, other_table=403, intruder=401, user=403, director=200),
    ),
}
# Who sees a table's deals before the results are published: its players and the directors.
DEALS_SEEN_BY = {"player_at_table", "director"}

# Every route and method of the pulka API this module decides (tests/permissions/test_matrix.py).
DECIDED = set(PULKA)


def _state() -> tuple:
    """What a refused request must leave as it was."""
    return (
        list(PulkaRound.objects.values_list("number", "status")),
        list(PulkaTable.objects.values_list("number", "stopped_at", "ended", "version", "tie_decision")),
        PulkaDeal.objects.count(),
        AuditEntry.objects.count(),
    )


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("route", list(PULKA))
def test_pulka_permission_matrix(route, actor, director, other_user):
    t = pulka_event(director, "olympic", 9, 3, pool=6)  # three winners make the final (6 would not: 004-II)
    pulka_round = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=5)
    table, other, _third = pulka_round.tables.order_by("number")
    ctx = {"slug": t.slug, "round": pulka_round, "table": table, "other": other, "director": director}
    ctx["user"] = other_user
    prepare, build, seat, expected = PULKA[route]
    prepare(ctx)
    method, path, body = build(ctx)
    assert f"{method.upper()} {route_of(path)}" == route, "the request is not the one the entry decides"
    before = _state()
    client = _client(actor, ctx, seat)
    response = (
        getattr(client, method)(path, body, format="json")
        if body is not None
        else getattr(client, method)(path)
    )
    assert response.status_code == expected[actor], (route, actor, response.content)
    if response.status_code >= 400:
        assert set(response.json()) == {"error"}
        assert {"code", "message", "details"} <= set(response.json()["error"])
        assert _state() == before, "a refused request changes nothing"
        if response.status_code == 401:
            assert response["WWW-Authenticate"]
    elif route == "GET api:pulka-sheet":
        assert (response.json()["deals"] is not None) == (actor in DEALS_SEEN_BY), actor
