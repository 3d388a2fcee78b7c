"""Fuzzing the API's write endpoints with deep, huge and control-character JSON: never a 500, always the API's
one error shape (hypothesis; the Django test client raises any server error)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import Result
from tests.api.helpers import client_for, enter, event  # noqa: F401
from tests.table.factory import legal_row

pytestmark = pytest.mark.django_db

texts = st.text(st.characters(codec="utf-8"), max_size=40) | st.sampled_from(
    ["\x00", "\x07\x1b[31m", "\u202e", "=HYPERLINK(1)", "N", "6S", "whist", "9" * 40]
)
numbers = st.integers(-(2**70), 2**70) | st.sampled_from([0, 1, 9999, 10**4, 2**31, 2**63])
scalars = st.none() | st.booleans() | numbers | texts | st.floats(allow_nan=False)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=6,
)
FIELDS = [
    "board",
    "round",
    "table",
    "room",
    "session",
    "seats",
    "contract",
    "declarer",
    "w1",
    "w2",
    "calls",
    "play",
    "vists",
    "version",
    "reason",
    "confirmations",
    "adjusted",
    "assigned",
    "percent",
    "participant",
    "matchpoints",
    "kind",
    "number",
    "pin",
]


@st.composite
def bodies(draw: st.DrawFn) -> str:
    """A row with some fields replaced, or a raw text: deep nesting, endless digits, broken JSON."""
    kind = draw(st.integers(0, 5))
    if kind == 0:
        depth = draw(st.integers(15, 3000))
        return '{"board": ' + "[" * depth + "]" * depth + "}"
    if kind == 1:
        return '{"board": ' + "9" * draw(st.integers(20, 6000)) + "}"
    if kind == 2:
        return draw(st.text(max_size=60))
    row = {"session": 1, "round": 1, "table": 1, "board": 1, **legal_row(4, "N")}
    for field in draw(st.lists(st.sampled_from(FIELDS), max_size=4)):
        row[field] = draw(values)
    return json.dumps(row)


ENDPOINTS = [("POST", "/api/results/"), ("POST", "/api/adjustments/"), ("POST", "/api/penalties/")]


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=bodies(), actor=st.sampled_from(["player1", "director"]), endpoint=st.sampled_from(ENDPOINTS))
def test_no_write_to_the_api_is_answered_with_a_500(event, director, body, actor, endpoint):  # noqa: F811
    method, path = endpoint
    response = client_for(actor, director=director).generic(
        method, path, body, content_type="application/json"
    )
    assert response.status_code < 500
    if response.status_code >= 400:
        assert response["Content-Type"].startswith("application/json")
        assert set(response.json()["error"]) == {"code", "message", "details"}


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=bodies(), action=st.sampled_from(["", "confirm/", "dispute/"]))
def test_no_change_of_a_row_is_answered_with_a_500(event, director, body, action):  # noqa: F811
    result = Result.objects.filter(board_number=2).first() or enter(board=2, dealer="E")
    pk = result.pk
    method = "PATCH" if not action else "POST"
    response = client_for("player1" if not action else "player2").generic(
        method, f"/api/results/{pk}/{action}", body, content_type="application/json"
    )
    assert response.status_code < 500
