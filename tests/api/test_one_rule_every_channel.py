"""Rules that once held on one channel and failed on another now live in one service; each is tried here
through the API, the table's service and the appeals committee (the director's pages:
tests/tournaments/test_one_rule_director_pages.py). Each of these failed on the main branch before the change."""

from __future__ import annotations

import pytest
from django.utils import timezone

from appeals.services import AppealsError, penalty_add
from duplicate import at_table, table_rows
from scoring.models import Penalty, Result
from scoring.penalties import penalty_save
from tests.api.helpers import client_for, event  # noqa: F401
from tests.table.factory import legal_row
from tournaments.errors import UserError
from tournaments.models import Participant, Session, Table

pytestmark = pytest.mark.django_db


def _error(response, status: int) -> dict:
    assert response.status_code == status, response.content
    return response.json()["error"]


# -- a penalty takes matchpoints away (rules §12) ------------------------------------------------------------
def test_the_api_refuses_a_positive_penalty_and_stores_nothing(event, director):  # noqa: F811
    session = Session.objects.get(tournament__slug="tt")
    response = client_for("director", director).post(
        "/api/penalties/",
        {"session": session.pk, "participant": 3, "matchpoints": "5", "reason": "12.2.2"},
        format="json",
    )
    assert _error(response, 400)["code"] == "penalty_sign"
    assert not Penalty.objects.exists()
    response = client_for("director", director).post(
        "/api/penalties/",
        {"session": session.pk, "participant": 3, "matchpoints": "-2", "reason": "12.2.2"},
        format="json",
    )
    assert response.status_code == 201 and Penalty.objects.get().matchpoints == "-2"


@pytest.mark.parametrize("matchpoints", ["5", "0", "1/2"])
def test_the_service_and_the_committee_refuse_a_penalty_that_is_not_negative(event, director, matchpoints):  # noqa: F811
    session = Session.objects.get(tournament__slug="tt")
    p = Participant.objects.get(tournament__slug="tt", number=3)
    with pytest.raises(UserError) as info:
        penalty_save(
            session=session,
            participant=p,
            matchpoints=matchpoints,
            reason="x",
            user=director,
            now=timezone.now(),
        )
    assert info.value.code == "penalty_sign"
    with pytest.raises(AppealsError) as info:
        penalty_add(
            session=session,
            participant=p,
            matchpoints=matchpoints,
            reason="x",
            user=director,
            now=timezone.now(),
        )
    assert info.value.code == "penalty_sign"
    assert not Penalty.objects.exists()


# -- the board is one of the table's set in that round (rules §4) --------------------------------------------
def test_the_api_refuses_a_row_for_a_board_the_table_does_not_play(event, director):  # noqa: F811
    session = Session.objects.get(tournament__slug="tt")
    # Table 1 plays set 1 (boards 1-4) in round 1; board 5 belongs to set 2, played at table 2.
    body = {"session": session.pk, "round": 1, "table": 1, "board": 5, **legal_row(4, "N")}
    error = _error(client_for("director", director).post("/api/results/", body, format="json"), 400)
    assert error["code"] == "board_not_here"
    assert error["details"][0]["field"] == "board"
    adjustment = {
        "session": session.pk,
        "round": 1,
        "table": 1,
        "board": 5,
        "reason": "§11.2",
        "adjusted": {"N": "A", "E": "A", "S": "A", "W": "A"},
    }
    error = _error(client_for("director", director).post("/api/adjustments/", adjustment, format="json"), 400)
    assert error["code"] == "board_not_here"
    assert not Result.objects.exists()
    ok = client_for("director", director).post("/api/results/", {**body, "board": 1}, format="json")
    assert ok.status_code == 201, ok.content


def test_the_table_refuses_the_same_board_with_the_same_code(event):  # noqa: F811
    state = at_table.table_state(Table.objects.get(code="TAB1TT"))
    n = Participant.objects.get(tournament__slug="tt", number=1)
    with pytest.raises(UserError) as info:
        table_rows.table_submit(
            state=state, participant=n, board_number=5, row=legal_row(4, "N"), now=timezone.now()
        )
    assert info.value.code == "board_not_here"
    assert not Result.objects.exists()


def test_the_api_answers_a_refused_row_in_the_requests_language(event, director):  # noqa: F811
    session = Session.objects.get(tournament__slug="tt")
    row = legal_row(4, "E")
    row["w1"][1] = 3  # tricks total 11
    client = client_for("director", director)
    client.credentials(
        HTTP_AUTHORIZATION=client._credentials["HTTP_AUTHORIZATION"], HTTP_ACCEPT_LANGUAGE="ru"
    )
    error = _error(
        client.post(
            "/api/results/", {"session": session.pk, "round": 1, "table": 1, "board": 2, **row}, format="json"
        ),
        400,
    )
    detail = error["details"][0]
    assert detail["code"] == "tricks_total"
    assert "11" in detail["message"] and "total" not in detail["message"]


# -- a non-offender above A+ (rules §11.2 B1 «по меньшей мере 60 %») ------------------------------------------
@pytest.mark.parametrize(
    ("percent", "stored"),
    [({"N": "71"}, True), ({"E": "71"}, False), ({"N": "55"}, False), ({"N": "lots"}, False)],
)
def test_rule_11_2_B1_the_api_gives_a_non_offender_more_than_A_plus_by_the_one_rule(
    event,  # noqa: F811
    director,
    percent,
    stored,
):
    """The API's adjustment takes ``percent`` as the ruling and the director's page do: only an A+ seat, never
    below the tournament's A+, checked by the write path."""
    session = Session.objects.get(tournament__slug="tt")
    adjustment = {
        "session": session.pk,
        "round": 1,
        "table": 1,
        "board": 1,
        "reason": "§11.2 B1: session 71 %",
        "adjusted": {"N": "A+", "E": "A-", "S": "A", "W": "A"},
        "percent": percent,
    }
    answer = client_for("director", director).post("/api/adjustments/", adjustment, format="json")
    if stored:
        assert answer.status_code == 201, answer.content
        assert Result.objects.get().percent == {"N": "71"}
    else:
        error = _error(answer, 400)
        assert [d["code"] for d in error["details"]] and all(
            d["code"].startswith("percent") for d in error["details"]
        )
        assert not Result.objects.exists()
