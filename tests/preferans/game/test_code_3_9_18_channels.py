"""Code 3.9.18 (a wrong number of cards) through the channels that take a row: the API (director and player)
and the director's row form. The rule itself is scored in the core (test_code_3_9_18_wrong_number_of_cards.py).

«Заказавший игру ставит ремиз по меньшей мере без двух (даже если он выигрывал контракт)» — "The declarer is set
at least two (even if he was making the contract)" (Code 3.9.18).
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Result
from tests.api.helpers import client_for, event  # noqa: F401
from tests.table.factory import legal_row
from tournaments.models import Session
from ui.row_form import EXTRA_KEYS

pytestmark = pytest.mark.django_db


def _body(session: Session, **extra: object) -> dict:
    row = legal_row(4, "N", tricks=(8, 1, 1))  # 6♠ by E with 8 tricks at a table where N deals
    return {"session": session.pk, "round": 1, "table": 1, "board": 1, **row, **extra}


def test_code_3_9_18_the_director_stores_wrong_cards_through_the_api(event, director):  # noqa: F811
    session = Session.objects.get(tournament__slug="tt")
    response = client_for("director", director).post(
        "/api/results/", _body(session, wrong_cards=["E"], reason="3.9.18"), format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["wrong_cards"] == ["E"]
    result = Result.objects.get()
    assert result.row["wrong_cards"] == ["E"]
    # eight tricks on a six, yet two down: the declarer loses on the board (without the rule he would win)
    assert float(result.vists["E"]) < 0


def test_code_3_9_18_the_api_refuses_wrong_cards_on_a_misere_in_russian(event, director):  # noqa: F811
    session = Session.objects.get(tournament__slug="tt")
    misere = {"contract": "MIS", "declarer": ["E", 0], "w1": ["S", 5], "w2": ["W", 5]}
    client = client_for("director", director)
    client.credentials(
        HTTP_AUTHORIZATION=client._credentials["HTTP_AUTHORIZATION"], HTTP_ACCEPT_LANGUAGE="ru"
    )
    body = {"session": session.pk, "round": 1, "table": 1, "board": 1, **misere, "wrong_cards": ["E"]}
    response = client.post("/api/results/", body, format="json")
    assert response.status_code == 400, response.content
    detail = response.json()["error"]["details"][0]
    assert detail["code"] == "wrong_cards_kind"
    assert "3.9.18" in detail["message"] and "Code" not in detail["message"]
    assert not Result.objects.exists()


def test_code_3_9_18_a_player_cannot_write_wrong_cards(event):  # noqa: F811
    row = {**legal_row(4, "N"), "wrong_cards": ["E"]}
    response = client_for("player1").post("/api/results/", {"board": 1, **row}, format="json")
    assert response.status_code == 403, response.content
    assert not Result.objects.exists()


def test_code_3_9_18_the_director_row_form_takes_wrong_cards(event, director, client):  # noqa: F811
    assert "wrong_cards" in EXTRA_KEYS
    client.force_login(director)
    url = reverse(
        "director:board_entry", kwargs={"slug": "tt", "session": 1, "round": 1, "table": 1, "board": 1}
    )
    data = {
        "kind": "row",
        "contract": "6S",
        "declarer_seat": "E",
        "declarer_tricks": 8,
        "w1_tricks": 1,
        "w2_tricks": 1,
        "call1": "whist",
        "call2": "whist",
        "extra": '{"wrong_cards": ["E"]}',
    }
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    stored = Result.objects.get()
    assert stored.row["wrong_cards"] == ["E"] and float(stored.vists["E"]) < 0
    # the core's refusal, in Russian, next to the field: a seat that held no cards (N deals board 1)
    refused = client.post(
        url, data | {"extra": '{"wrong_cards": ["N"]}', "reason": "x"}, HTTP_ACCEPT_LANGUAGE="ru"
    )
    assert "У N в этой сдаче карт не было" in refused.content.decode()
    assert Result.objects.get().row["wrong_cards"] == ["E"]


# -- the bundle (formats.md §2.1): the optional field is read, checked by the core and written back ------------------
def _club_cup_with(index: int, **changes: object) -> dict:
    from tests import golden

    data = golden.load("club_cup.json")
    row = data["sessions"][0]["results"][index]
    row.update(changes)
    for key in [k for k, v in changes.items() if v is None]:
        del row[key]
    return data


def test_code_3_9_18_a_bundle_row_carries_wrong_cards():
    from preferans.bundle.document import bundle_to_dict
    from preferans.duplicate.session_scoring import validate_and_score

    data = _club_cup_with(1, wrong_cards=["S"], vists=None)  # 9♥ made by S with 9 tricks, S had wrong cards
    bundle, _scored = validate_and_score(data)
    assert bundle_to_dict(bundle)["sessions"][0]["results"][1]["wrong_cards"] == ["S"]


# (case, row index, changes, words of the problem)
BUNDLE_REFUSED = [
    ("the vists written as made", 1, {"wrong_cards": ["S"]}, "differ from the deal's vists"),
    (
        "a misère",
        2,
        {"wrong_cards": ["E"]},
        "wrong_cards (Code 3.9.18) applies only to a played trick contract",
    ),
]


@pytest.mark.parametrize(
    ("index", "changes", "words"), [c[1:] for c in BUNDLE_REFUSED], ids=[c[0] for c in BUNDLE_REFUSED]
)
def test_code_3_9_18_a_bundle_row_with_wrong_cards_is_checked(index, changes, words):
    from preferans.bundle.document import BundleInvalid
    from preferans.duplicate.session_scoring import validate_and_score

    with pytest.raises(BundleInvalid) as info:
        validate_and_score(_club_cup_with(index, **changes))
    assert any(words in str(p) for p in info.value.problems), info.value.problems
