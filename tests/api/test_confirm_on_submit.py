"""One table device: the row is sent once, with the other players' confirmations (their PINs typed on it)."""

from __future__ import annotations

import pytest

from scoring.models import Result
from tests.api.helpers import client_for, event  # noqa: F401
from tests.table.factory import legal_row, pin_of
from tournaments.models import AuditEntry

BODY = {"board": 1, **legal_row(4, "N")}


def confirmations(*numbers: int, pins: dict[int, str] | None = None) -> list[dict]:
    return [{"number": n, "pin": (pins or {}).get(n, pin_of(n))} for n in numbers]


@pytest.mark.django_db
def test_all_three_confirm_on_the_device_and_the_row_is_stored_confirmed(event):  # noqa: F811
    answer = client_for("player1").post(
        "/api/results/", {**BODY, "confirmations": confirmations(2, 3, 4)}, format="json"
    )
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert (
        body["status"] == "confirmed" and body["confirmed_by"] == ["E", "S", "W"] and body["awaiting"] == []
    )
    row = Result.objects.get()
    assert row.status == Result.Status.CONFIRMED and row.confirmed_by == ["E", "S", "W"]
    trail = list(AuditEntry.objects.order_by("id").values_list("action", "actor", "data"))
    assert [a for a, _actor, _d in trail] == ["result.create"] + ["result.confirm"] * 3
    assert [d["seat"] for _a, _actor, d in trail[1:]] == ["E", "S", "W"]
    assert trail[2][1] == "3 Player 3 · 1/S" and trail[3][2]["status"] == "confirmed"
    # confirmed rows are locked for the players: N can no longer correct it
    again = client_for("player1").put(
        f"/api/results/{row.pk}/", {**BODY, "contract": "7S", "revision": row.revision}, format="json"
    )
    assert again.status_code == 409


@pytest.mark.django_db
def test_some_confirm_on_the_device_the_rest_confirm_later(event):  # noqa: F811
    answer = client_for("player1").post(
        "/api/results/", {**BODY, "confirmations": confirmations(3)}, format="json"
    )
    assert answer.status_code == 201
    body = answer.json()
    assert body["status"] == "entered" and body["confirmed_by"] == ["S"] and body["awaiting"] == ["E", "W"]
    for actor in ("player2", "player4"):
        assert client_for(actor).post(f"/api/results/{body['id']}/confirm/").status_code == 200
    assert Result.objects.get().status == Result.Status.CONFIRMED


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("given", "status", "code", "field"),
    [
        (confirmations(2, 3, 4, pins={3: "9999"}), 403, "wrong_pin", "confirmations.1.pin"),
        (confirmations(2, 77), 403, "wrong_pin", "confirmations.1.pin"),  # nobody has number 77
        (confirmations(2, 5), 403, "wrong_pin", "confirmations.1.pin"),  # 5 plays at table 2: as a wrong PIN
        (confirmations(1, 2), 403, "own_row", None),  # N cannot confirm his own row
        (confirmations(2, 2), 400, "confirmed_twice", None),
        ([{"number": 2}], 400, "invalid", "confirmations.0.pin"),
        (confirmations(2, 3, 4) + confirmations(2), 400, "invalid", "confirmations"),  # four is too many
    ],
)
def test_a_bad_confirmation_stores_nothing_and_says_why(event, given, status, code, field):  # noqa: F811
    answer = client_for("player1").post("/api/results/", {**BODY, "confirmations": given}, format="json")
    assert answer.status_code == status, answer.json()
    error = answer.json()["error"]
    assert error["code"] == code and error["message"]
    if field:
        assert field in [d["field"] for d in error["details"]]
    assert not Result.objects.exists() and not AuditEntry.objects.exists()


@pytest.mark.django_db
def test_a_wrong_confirmation_pin_counts_against_the_pin_limit(event):  # noqa: F811
    for _ in range(10):
        client_for("player1").post(
            "/api/results/", {**BODY, "confirmations": confirmations(2, pins={2: "0000"})}, format="json"
        )
    limited = client_for("player1").post(
        "/api/results/", {**BODY, "confirmations": confirmations(2)}, format="json"
    )
    assert limited.status_code == 429
    assert not Result.objects.exists()


@pytest.mark.django_db
def test_a_retry_with_confirmations_is_stored_and_audited_once(event):  # noqa: F811
    c = client_for("player1")
    payload = {**BODY, "confirmations": confirmations(2, 3, 4)}
    first = c.post("/api/results/", payload, format="json", HTTP_IDEMPOTENCY_KEY="dev-1")
    again = c.post("/api/results/", payload, format="json", HTTP_IDEMPOTENCY_KEY="dev-1")
    assert first.status_code == again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert first.json()["id"] == again.json()["id"] and Result.objects.count() == 1
    assert AuditEntry.objects.count() == 4


@pytest.mark.django_db
def test_a_directors_row_takes_no_confirmations(event, director):  # noqa: F811
    _t, session = event
    body = {**BODY, "session": session.pk, "round": 1, "table": 1, "confirmations": confirmations(2)}
    answer = client_for("director", director=director).post("/api/results/", body, format="json")
    assert answer.status_code == 400
    assert "confirmations" in [d["field"] for d in answer.json()["error"]["details"]]
    assert not Result.objects.exists()
