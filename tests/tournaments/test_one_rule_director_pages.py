"""The director's pages go through the same services as the API and the table (see
tests/api/test_one_rule_every_channel.py): the same refusals, in the page's language."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from boards.models import Board
from scoring.models import Penalty, Result
from tournaments.refusals import Refusal, refusal_message

from .conftest import legal_row

pytestmark = pytest.mark.django_db
RU = {"Accept-Language": "ru"}


def _board_url(seated, table: int, board: int) -> str:
    return reverse(
        "director:board_entry",
        kwargs={"slug": seated.slug, "session": 1, "round": 1, "table": table, "board": board},
    )


def _row_data(dealer: str, **changes: object) -> dict:
    row = legal_row(dealer)
    return {
        "kind": "row",
        "contract": "6S",
        "declarer_seat": row["declarer"][0],
        "declarer_tricks": 6,
        "w1_tricks": 2,
        "w2_tricks": 2,
        "call1": "whist",
        "call2": "whist",
        **changes,
    }


def test_the_row_page_shows_the_cores_refusal_in_russian(seated, session, dclient):
    seating = session.seatings.get(round_number=1, table_number=1)
    board = seating.set_boards().first()
    page = dclient.post(_board_url(seated, 1, board.number), _row_data(board.dealer, w1_tricks=3), headers=RU)
    assert page.status_code == 200
    text = page.content.decode()
    with translation.override("ru"):
        expected = refusal_message(
            Refusal("tricks_total", "w1", "tricks total 11", {"total": 11, "tricks": [6, 3, 2]})
        )
    assert expected in text  # «Сумма взяток 11 — должно быть 10.»
    assert "tricks total 11" not in text  # the core's English words never reach a Russian page
    assert not Result.objects.exists()


def test_the_row_page_refuses_a_board_of_another_set(seated, session, dclient):
    seating = session.seatings.get(round_number=1, table_number=1)
    other = Board.objects.filter(session=session).exclude(set_number=seating.set_number).first()
    page = dclient.post(_board_url(seated, 1, other.number), _row_data(other.dealer, reason="x"), headers=RU)
    text = page.content.decode()
    assert page.status_code == 200 and 'role="alert"' in text
    assert (
        f"Сдачи {other.number} нет в комплекте {seating.set_number}" in text
    )  # the service's words, in Russian
    assert not Result.objects.exists()


def test_the_penalty_page_keeps_the_sign_rule_of_the_service(seated, session, dclient):
    url = reverse("director:penalties", kwargs={"slug": seated.slug, "session": 1})
    page = dclient.post(url, {"participant": 3, "deduct": "-5", "kind": "12.2.2"}, headers=RU)
    assert page.status_code == 200 and "has-error" in page.content.decode()
    assert not Penalty.objects.exists()
    dclient.post(url, {"participant": 3, "deduct": "2", "kind": "12.2.2"})
    assert Penalty.objects.get().matchpoints == "-2"


def test_the_directors_row_form_defaults_like_the_phone_one_whister_plays_closed(seated, session, dclient):
    """The commonest row — one whister, one passer — is stored from the director's form with its defaults (play «as
    the calls imply») exactly as the phone stores it by default: closed. It used to be refused (issue 17)."""
    from table.forms import PhoneRowForm

    seating = session.seatings.get(round_number=1, table_number=1)
    board = seating.set_boards().first()
    data = _row_data(board.dealer, call2="pass", w1_tricks=3, w2_tricks=1)
    page = dclient.post(_board_url(seated, 1, board.number), data, headers=RU)
    assert page.status_code == 302, page.content.decode()[:3000]
    stored = Result.objects.get(board_number=board.number, table_number=1).row
    assert stored["play"] == "closed" and sorted(stored["calls"].values()) == ["pass", "whist"]
    assert PhoneRowForm.base_fields["play"].initial == "closed"  # the phone's default for the same row
