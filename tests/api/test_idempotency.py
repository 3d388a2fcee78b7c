"""Retries never duplicate a row; two devices at once: one stored, the other told so (PostgreSQL race)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from scoring.models import Result
from tests.api.helpers import client_for, event  # noqa: F401
from tests.table.factory import legal_row

BODY = {"board": 1, **legal_row(4, "N")}


@pytest.mark.django_db
def test_a_retry_with_the_same_key_returns_the_first_answer(event):  # noqa: F811
    c = client_for("player1")
    first = c.post("/api/results/", BODY, format="json", HTTP_IDEMPOTENCY_KEY="abc-1")
    again = c.post("/api/results/", BODY, format="json", HTTP_IDEMPOTENCY_KEY="abc-1")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replayed"] == "true"
    assert first.json()["id"] == again.json()["id"] and Result.objects.count() == 1
    other = c.post("/api/results/", BODY, format="json", HTTP_IDEMPOTENCY_KEY="abc-2")
    assert other.status_code == 409 and other.json()["error"]["code"] == "conflict"
    reused = c.post(
        "/api/results/", {"board": 2, **legal_row(4, "E")}, format="json", HTTP_IDEMPOTENCY_KEY="abc-1"
    )
    assert reused.status_code == 409 and reused.json()["error"]["code"] == "idempotency_key_reused"


@pytest.mark.django_db
def test_directors_keys_are_their_own(event, director):  # noqa: F811
    _t, session = event
    body = {**BODY, "session": session.pk, "round": 1, "table": 1}
    c = client_for("director", director=director)
    first = c.post("/api/results/", body, format="json", HTTP_IDEMPOTENCY_KEY="d-1")
    again = c.post("/api/results/", body, format="json", HTTP_IDEMPOTENCY_KEY="d-1")
    assert first.status_code == again.status_code == 201 and first.json()["id"] == again.json()["id"]
    assert first.json()["status"] == "director"
    # the same client key from a player is another submission (and loses to the stored row)
    assert (
        client_for("player1")
        .post("/api/results/", BODY, format="json", HTTP_IDEMPOTENCY_KEY="d-1")
        .status_code
        == 409
    )


def _race(keys):
    """Two devices post board 1 at the same moment; returns their answers."""
    barrier = threading.Barrier(len(keys))
    answers = [None] * len(keys)

    def device(i, key):
        try:
            c = client_for("player1")
            barrier.wait(timeout=10)
            answers[i] = c.post("/api/results/", BODY, format="json", HTTP_IDEMPOTENCY_KEY=key)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=device, args=(i, k)) for i, k in enumerate(keys)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return answers


postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="a meaningful race needs PostgreSQL's concurrent writers"
)


@postgres_only
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_two_devices_at_once_one_is_stored_the_other_gets_a_conflict(event, attempt):  # noqa: F811
    answers = _race(["device-a", "device-b"])
    assert sorted(a.status_code for a in answers) == [201, 409]
    loser = next(a for a in answers if a.status_code == 409)
    assert loser.json()["error"]["code"] == "conflict"
    assert Result.objects.count() == 1


@postgres_only
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_the_same_submission_twice_at_once_is_stored_once(event, attempt):  # noqa: F811
    answers = _race(["same-key", "same-key"])
    assert [a.status_code for a in answers] == [201, 201]
    assert answers[0].json()["id"] == answers[1].json()["id"]
    assert Result.objects.count() == 1
