"""The pulka API: the event's settings, rounds and standings; the director's actions; the table device (sheet,
deals, confirmation, correction) with the one error shape, the version guard, idempotency and publication."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from preferans.pulka.simulate import random_pulka
from pulkas.models import PulkaCorrection, PulkaDeal, PulkaRound, PulkaTable
from pulkas.services import rounds
from pulkas.services.sheet import event_of, table_setup
from tests.publishing import publish_to
from tests.pulkas.factory import pulka_event, running_round
from tournaments.models import Participant, Publication, Tournament

pytestmark = pytest.mark.django_db

BAD_ROW = {"contract": "7S", "declarer": ["N", 7], "w1": ["E", 2], "w2": ["S", 2]}  # 11 tricks


def client(user=None, player: tuple[PulkaTable, int] | None = None) -> APIClient:
    c = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        c.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    if player is not None:
        table, number = player
        c.credentials(HTTP_AUTHORIZATION=f"Player {table.code}:{number}:{1000 + number}")
    return c


def seats(table: PulkaTable) -> dict[str, Participant]:
    return table.seats()  # type: ignore[return-value]


def rows_for(table: PulkaTable, n: int, seed: int = 1) -> list[dict]:
    return random_pulka(random.Random(seed), table_setup(event_of(table.round.tournament), table), deals=n)


def running(director, form="compensation", players=8, per_table=4) -> tuple[Tournament, PulkaRound]:
    t = pulka_event(director, form, players, per_table, pool=6)
    return t, running_round(director, t)


def error(response) -> dict:
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}, body
    return body["error"]


# -- the event ------------------------------------------------------------------------------------------
def test_settings_are_public_and_only_directors_change_them(director, other_user):
    t = pulka_event(director, pool=6)
    url = f"/api/tournaments/{t.slug}/pulka/"
    body = client().get(url).json()
    assert body["form"] == "compensation" and body["settings"]["pool"] == 6 and body["fixed"] == []
    assert error(client().patch(url, {"pool": 8}, format="json"))["code"] == "not_authenticated"
    assert error(client(other_user).patch(url, {"pool": 8}, format="json"))["code"] == "permission_denied"
    changed = client(director).patch(url, {"pool": 8, "tiebreaks": ["remizes"]}, format="json")
    assert changed.status_code == 200 and changed.json()["settings"]["pool"] == 8
    unknown = error(client(director).patch(url, {"pool": 8, "seed": 3}, format="json"))
    assert unknown["code"] == "invalid" and [d["field"] for d in unknown["details"]] == ["seed"]
    bounds = error(client(director).patch(url, {"pool": 0, "tiebreaks": ["luck"]}, format="json"))
    assert {d["field"] for d in bounds["details"]} == {"pool", "tiebreaks.0"}
    refused = client(director).patch(url, {"cut_after": 1}, format="json")  # a cut needs cut_to: the service
    assert refused.status_code == 400 and error(refused)["message"].startswith("A cut needs")
    rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=1)
    fixed = client(director).patch(url, {"pool": 9}, format="json")
    assert fixed.status_code == 400 and error(fixed)["code"] == "settings_fixed"
    assert "pool" in client().get(url).json()["fixed"]
    assert client(director).patch(url, {"round_minutes": 90}, format="json").status_code == 200


def test_a_duplicate_tournament_has_no_pulka_part(tournament):
    response = client().get(f"/api/tournaments/{tournament.slug}/pulka/rounds/")
    assert response.status_code == 404 and error(response)["code"] == "not_pulka_event"
    assert error(client().get("/api/tournaments/nope/pulka/"))["code"] == "not_found"


def test_the_director_draws_starts_stops_and_ends_a_round(director, other_user):
    t = pulka_event(director, pool=6)
    base = f"/api/tournaments/{t.slug}/pulka/rounds/"
    assert client().post(base, {}, format="json").status_code == 401
    assert client(other_user).post(base, {}, format="json").status_code == 403
    drawn = client(director).post(base, {"seed": 5}, format="json")
    assert drawn.status_code == 201
    body = drawn.json()
    assert body["number"] == 1 and body["seed"] == "5" and body["status"] == "pending"
    assert [len(tb["seats"]) for tb in body["tables"]] == [4, 4] and all(tb["code"] for tb in body["tables"])
    public = client().get(base).json()[0]
    assert all(tb["code"] is None and tb["results"] is None for tb in public["tables"])
    assert {s["number"] for tb in public["tables"] for s in tb["seats"]} == set(range(1, 9))
    assert error(client(director).post(base, {}, format="json"))["code"] == "round_open"
    started = client(director).post(f"{base}1/start/")
    assert started.status_code == 200 and started.json()["status"] == "running" and started.json()["ends_at"]
    assert error(client(director).post(f"{base}1/start/"))["code"] == "round_started"
    playing = error(client(director).post(f"{base}1/end/"))
    assert playing["code"] == "tables_playing"
    refused = client(director).post(f"{base}1/stop/", {}, format="json")
    assert refused.status_code == 400  # no reason: stopping every table cannot be undone
    stopped = client(director).post(f"{base}1/stop/", {"reason": "Время тура вышло"}, format="json").json()
    assert [tb["state"] for tb in stopped["tables"]] == ["stopped", "stopped"]
    ended = client(director).post(f"{base}1/end/").json()
    assert ended["status"] == "ended"
    # the results of an ended round are public only once published; the event table likewise
    assert client().get(f"{base}1/").json()["tables"][0]["results"] is None
    assert client().get(f"/api/tournaments/{t.slug}/pulka/standings/").status_code == 404
    assert client(director).get(f"{base}1/").json()["tables"][0]["results"][0]["vists"] == "0"
    publish_to(t, Publication.PROVISIONAL, director, timezone.now())
    results = client().get(f"{base}1/").json()["tables"][0]["results"]
    assert [r["rank"] for r in results] == ["1-4"] * 4 and results[0]["rating"] == "0"
    standings = client().get(f"/api/tournaments/{t.slug}/pulka/standings/").json()
    assert standings["rounds"] == [1] and len(standings["lines"]) == 8
    assert standings["lines"][0]["ratings"] == ["0"] and standings["lines"][0]["total"] == "0"
    assert client().get(f"{base}7/").status_code == 404


def test_undraw_only_a_round_not_started(director):
    t = pulka_event(director, pool=6)
    base = f"/api/tournaments/{t.slug}/pulka/rounds/"
    client(director).post(base, {"seed": 1}, format="json")
    assert client(director).delete(f"{base}1/").status_code == 204
    assert not PulkaRound.objects.filter(tournament=t).exists()
    client(director).post(base, {"seed": 1}, format="json")
    client(director).post(f"{base}1/start/")
    assert error(client(director).delete(f"{base}1/"))["code"] == "round_started"


def test_a_tie_at_an_olympic_cut(director):
    t, r = running(director, form="olympic", players=9, per_table=3)  # 3 tables: 3 winners make a final
    rounds.stop_round(
        pulka_round=r, user=director, now=timezone.now(), reason="время вышло"
    )  # no deals: all three tied at the cut
    table = r.tables.order_by("number").first()
    url = f"/api/tournaments/{t.slug}/pulka/rounds/1/tables/{table.number}/tie/"
    assert error(client(director).post(url, {"seats": ["N", "E"]}, format="json"))["code"] == "tie_choice"
    decided = client(director).post(url, {"seats": ["E"], "reason": "by lot"}, format="json")
    assert decided.status_code == 200 and decided.json()["tie_decision"] == ["E"]
    assert decided.json()["advance"] == {"seats": [], "tied": ["N", "E", "S"]}
    missing = f"/api/tournaments/{t.slug}/pulka/rounds/1/tables/9/tie/"
    assert client(director).post(missing, {"seats": ["E"]}, format="json").status_code == 404


# -- the table device -----------------------------------------------------------------------------------
def test_the_sheet_is_shown_to_the_tables_players_and_directors(director):
    t, r = running(director)
    table, other = r.tables.order_by("number")
    n = seats(table)["N"].number
    url = f"/api/pulka/tables/{table.code.lower()}/"
    anonymous = client().get(url).json()
    assert anonymous["deals"] is None and anonymous["next_deal"] is None and anonymous["version"] == 0
    assert [s["seat"] for s in anonymous["seats"]] == ["N", "E", "S", "W"]
    mine = client(player=(table, n)).get(url).json()
    assert (
        mine["deals"] == [] and mine["next_deal"]["number"] == 1 and mine["result"]["reason"] == "in_progress"
    )
    stranger = client(player=(other, seats(other)["N"].number)).get(url).json()
    assert stranger["deals"] is None
    assert client(director).get(url).json()["deals"] == []
    unknown = client().get("/api/pulka/tables/NOSUCH/")
    assert unknown.status_code == 404 and error(unknown)["code"] == "table_unknown"
    wrong = client().get(url, HTTP_AUTHORIZATION=f"Player {table.code}:{n}:0000")
    assert wrong.status_code == 401 and error(wrong)["code"] == "authentication_failed"


def test_write_confirm_retry_and_the_version_guard(director):
    t, r = running(director)
    table = r.tables.order_by("number").first()
    players = seats(table)
    writer, e, s, w = (players[x].number for x in "NESW")
    row1, row2 = rows_for(table, 2)
    url = f"/api/pulka/tables/{table.code}/deals/"
    body = {**row1, "number": writer, "pin": f"{1000 + writer}", "version": 0}
    first = client().post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == 201, first.json()
    deal = first.json()["deal"]
    assert deal["number"] == 1 and deal["status"] == "entered" and deal["entered_by"] == writer
    assert deal["awaiting"] == ["E", "S", "W"] and set(deal["result"]) == {"N", "E", "S", "W"}
    assert first.json()["version"] == 1 and first.json()["next_deal"]["number"] == 2
    again = client().post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json()["deal"] == deal and PulkaDeal.objects.filter(table=table).count() == 1
    reused = client().post(url, {**body, **row2}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert reused.status_code == 409 and error(reused)["code"] == "idempotency_key_reused"
    # the last deal waits for confirmation; then a stale version is refused
    waiting = client().post(url, {**body, **row2, "version": 1}, format="json")
    assert waiting.status_code == 409 and error(waiting)["code"] == "previous_unconfirmed"
    confirm = f"{url}1/confirm/"
    own = client().post(confirm, {"number": writer, "pin": f"{1000 + writer}"}, format="json")
    assert own.status_code == 400 and error(own)["code"] == "own_deal"
    for number in (e, s):
        assert (
            client().post(confirm, {"number": number, "pin": f"{1000 + number}"}, format="json").status_code
            == 200
        )
    done = client(player=(table, w)).post(confirm, {}, format="json")
    assert done.status_code == 200 and done.json()["deal"]["status"] == "confirmed"
    stale = client().post(url, {**body, **row2, "version": 1}, format="json")
    assert stale.status_code == 409 and error(stale)["code"] == "sheet_changed"
    version = client().get(f"/api/pulka/tables/{table.code}/").json()["version"]
    confirmations = [{"number": x, "pin": f"{1000 + x}"} for x in (e, s, w)]
    second = client(player=(table, writer)).post(
        url, {**row2, "version": version, "key": "k-2", "confirmations": confirmations}, format="json"
    )
    assert second.status_code == 201 and second.json()["deal"]["status"] == "confirmed"
    assert second.json()["deal"]["confirmed_by"] == ["E", "S", "W"]


def test_refusals_in_the_one_error_shape(director, other_user):
    t, r = running(director)
    table, other = r.tables.order_by("number")
    writer = seats(table)["N"].number
    url = f"/api/pulka/tables/{table.code}/deals/"
    me = {"number": writer, "pin": f"{1000 + writer}", "version": 0}
    bad = client().post(url, {**BAD_ROW, **me}, format="json")
    assert bad.status_code == 400 and error(bad)["code"] == "row_invalid" and error(bad)["details"]
    assert all(d["field"] and d["message"] for d in error(bad)["details"])
    pin = client().post(url, {**BAD_ROW, **me, "pin": "0"}, format="json")
    assert pin.status_code == 403 and error(pin)["details"][0]["field"] == "pin"
    confirmations = [{"number": seats(table)["E"].number, "pin": "0"}]
    wrong = client().post(url, {**rows_for(table, 1)[0], **me, "confirmations": confirmations}, format="json")
    assert (
        error(wrong)["code"] == "wrong_pin" and error(wrong)["details"][0]["field"] == "confirmations.0.pin"
    )
    shape = client().post(url, {"contract": "XX", "number": writer}, format="json")
    assert shape.status_code == 400 and {"contract", "w1", "version"} <= {
        d["field"] for d in error(shape)["details"]
    }
    half = client().post(url, {**rows_for(table, 1)[0], "number": writer, "version": 0}, format="json")
    assert [d["field"] for d in error(half)["details"]] == ["pin"]
    stranger = seats(other)["N"].number
    elsewhere = client().post(
        url,
        {**rows_for(table, 1)[0], "number": stranger, "pin": f"{1000 + stranger}", "version": 0},
        format="json",
    )
    assert (
        elsewhere.status_code == 403 and error(elsewhere)["code"] == "wrong_pin"
    )  # as a wrong PIN: no oracle
    header = client(player=(other, stranger)).post(
        url, {**rows_for(table, 1)[0], "version": 0}, format="json"
    )
    assert error(header)["code"] == "not_this_table"
    extra = client().post(url, {**rows_for(table, 1)[0], **me, "penalty_tricks": 1}, format="json")
    assert extra.status_code == 403
    assert client().post(url, {**rows_for(table, 1)[0], "version": 0}, format="json").status_code == 401
    assert (
        client(other_user).post(url, {**rows_for(table, 1)[0], "version": 0}, format="json").status_code
        == 403
    )
    assert not PulkaDeal.objects.exists()


def test_players_write_only_while_the_round_runs_directors_any_time(director):
    t = pulka_event(director, pool=6)
    r = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=2)
    table = r.tables.order_by("number").first()
    writer = seats(table)["N"].number
    url = f"/api/pulka/tables/{table.code}/deals/"
    row = rows_for(table, 1)[0]
    early = client().post(
        url, {**row, "number": writer, "pin": f"{1000 + writer}", "version": 0}, format="json"
    )
    assert early.status_code == 409 and error(early)["code"] == "round_not_running"
    refused = client(director).post(
        url, {**row, "version": 0, "confirmations": [{"number": 1, "pin": "1"}]}, format="json"
    )
    assert refused.status_code == 400
    by_director = client(director).post(url, {**row, "version": 0}, format="json")
    assert by_director.status_code == 201 and by_director.json()["deal"]["status"] == "director"
    assert by_director.json()["deal"]["entered_by"] is None


def test_corrections_at_the_table_and_by_the_director(director):
    t, r = running(director)
    table = r.tables.order_by("number").first()
    players = seats(table)
    writer, east = players["N"].number, players["E"].number
    row1, row2 = rows_for(table, 2, seed=3)
    url = f"/api/pulka/tables/{table.code}/deals/"
    client(player=(table, writer)).post(url, {**row1, "version": 0}, format="json")
    fixed = client(player=(table, writer)).post(f"{url}1/correct/", {**row2, "version": 0}, format="json")
    assert error(fixed)["code"] == "sheet_changed"
    # the writer's pencil is still in his hand: no warning, no penalty
    corrected = client(player=(table, writer)).post(f"{url}1/correct/", {**row1, "version": 1}, format="json")
    assert corrected.status_code == 200, corrected.json()
    assert corrected.json()["warning"] is False and corrected.json()["penalty"] == []
    assert corrected.json()["warned"] == []  # nobody is warned before a confirmation (4.2.8)
    assert corrected.json()["version"] == 2
    no_reason = client(director).post(f"{url}1/correct/", {**row1, "version": 2}, format="json")
    assert error(no_reason)["code"] == "reason_required"
    ruling = client(director).post(
        f"{url}1/correct/", {**row1, "version": 2, "reason": "ruling"}, format="json"
    )
    assert ruling.status_code == 200 and ruling.json()["deal"]["status"] == "director"
    assert PulkaCorrection.objects.filter(table=table).count() == 2
    assert client(player=(table, east)).post(f"{url}5/confirm/", {}, format="json").status_code == 409
    assert client(director).post(f"{url}1/confirm/", {}, format="json").status_code == 403


# -- the schema -----------------------------------------------------------------------------------------
PATHS = (
    "/api/tournaments/{slug}/pulka/",
    "/api/tournaments/{slug}/pulka/rounds/",
    "/api/tournaments/{slug}/pulka/rounds/{number}/",
    "/api/tournaments/{slug}/pulka/rounds/{number}/start/",
    "/api/tournaments/{slug}/pulka/rounds/{number}/stop/",
    "/api/tournaments/{slug}/pulka/rounds/{number}/end/",
    "/api/tournaments/{slug}/pulka/rounds/{number}/tables/{table}/tie/",
    "/api/tournaments/{slug}/pulka/standings/",
    "/api/pulka/tables/{code}/",
    "/api/pulka/tables/{code}/deals/",
    "/api/pulka/tables/{code}/deals/{number}/confirm/",
    "/api/pulka/tables/{code}/deals/{number}/correct/",
)


def test_the_schema_and_the_docs_page_describe_the_pulka_api():
    schema = Client().get("/api/schema/?format=json").json()
    assert set(PATHS) <= set(schema["paths"])
    deals = schema["paths"]["/api/pulka/tables/{code}/deals/"]["post"]
    assert {"201", "200", "400", "409"} <= set(deals["responses"])
    assert "Idempotency-Key" in [p["name"] for p in deals["parameters"]]
    # one header, one scheme: the player of a pulka table logs in as a duplicate table's player does
    assert [name for name in schema["components"]["securitySchemes"] if "layer" in name] == ["playerAuth"]
    assert {"playerAuth": []} in deals["security"]
    page = Client().get("/api/docs/", headers={"accept-language": "en"}).content.decode()
    assert "/api/pulka/tables/{code}/deals/" in page and "/api/tournaments/{slug}/pulka/standings/" in page


def test_refusals_speak_the_requests_language(director):
    t, r = running(director)
    table = r.tables.order_by("number").first()
    writer = seats(table)["N"].number
    ru = client(director)
    ru.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    unknown = error(ru.patch(f"/api/tournaments/{t.slug}/pulka/", {"colour": 1}, format="json"))
    assert unknown["details"][0]["message"] == "Такой настройки нет."
    body = {**BAD_ROW, "number": writer, "pin": f"{1000 + writer}", "version": 0}
    refused = error(ru.post(f"/api/pulka/tables/{table.code}/deals/", body, format="json"))
    assert refused["code"] == "row_invalid"
    assert all(any("а" <= ch <= "я" for ch in d["message"].lower()) for d in refused["details"]), refused
