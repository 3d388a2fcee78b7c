"""§13.1 «запись торговли» on the API: the same rule as the phone page and the director's form (one service,
``scoring.row_checks.check_bidding``): a row carries its bidding only where the organisers set written bidding."""

from __future__ import annotations

import pytest
from django.utils import timezone

from events.settings import tournament_update
from scoring.models import Result
from tests.api.helpers import client_for, event  # noqa: F401
from tests.table.factory import legal_row

BODY = {"board": 1, **legal_row(4, "N")}


@pytest.mark.django_db
def test_rule_13_1_the_api_refuses_a_bidding_the_organisers_did_not_set(event):  # noqa: F811
    answer = client_for("player1").post("/api/results/", {**BODY, "bidding": "6♠ пас"}, format="json")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "bidding_not_recorded"
    assert not Result.objects.exists()


@pytest.mark.django_db
def test_rule_13_1_the_api_stores_the_bidding_and_a_correction_without_it_keeps_it(event, director):  # noqa: F811
    tournament, session = event
    tournament_update(
        tournament=tournament, user=director, changes={"bidding_record": True}, now=timezone.now()
    )
    player = client_for("player1")
    answer = player.post("/api/results/", {**BODY, "bidding": "  6♠  пас\nпас "}, format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["bidding"] == "6♠ пас пас"
    row = Result.objects.get()
    again = player.put(
        f"/api/results/{row.pk}/", {**BODY, "contract": "7S", "revision": row.revision}, format="json"
    )
    assert again.status_code == 200, again.json()
    assert Result.objects.get().bidding == "6♠ пас пас"
    director_body = {**legal_row(4, "E"), "board": 2, "session": session.pk, "round": 1, "table": 1}
    made = client_for("director", director=director).post(
        "/api/results/", {**director_body, "bidding": "x" * 201}, format="json"
    )
    assert made.status_code == 400 and made.json()["error"]["code"] == "bidding_too_long", made.json()
