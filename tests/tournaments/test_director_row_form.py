"""The duplicate director's row form (a board at a table) accepts what the players' phones accept, by the same rule
(ui.typed_row): the first hand of raspasy on «авто» at 3-player tables, a deal nobody whisted without trick counts,
two counts typed and the third computed; a wrong pair of counts is refused next to its field. Through the board
entry page, as the browser posts the form (tests/row_forms.py); ``result_save`` still decides legality."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from boards.models import Board
from duplicate.rounds import movement_choose
from preferans.game.seats import hands_in_order
from scoring.models import Result
from tests.html import english_phrases, visible_text
from tests.row_forms import as_browser, field_errors, shown_options
from tournaments.models import Participant, Tournament
from tournaments.refusals import Refusal, refusal_message
from tournaments.services.event import tournament_create

pytestmark = pytest.mark.django_db


def entry_url(t: Tournament, board: int, table: int = 1) -> str:
    kwargs = {"slug": t.slug, "session": 1, "round": 1, "table": table, "board": board}
    return reverse("director:board_entry", kwargs=kwargs)


def boards_of(t: Tournament, table: int = 1) -> list[Board]:
    seating = t.sessions.get(number=1).seatings.get(round_number=1, table_number=table)
    return list(seating.set_boards())


def enter(dclient, t: Tournament, board: Board, **fields: object):
    page = entry_url(t, board.number)
    return dclient.post(page, as_browser(dclient.get(page), "row-form", **fields))


def stored(board: Board) -> Result:
    return Result.objects.get(board_number=board.number, table_number=1, round_number=1)


@pytest.fixture
def threes(director) -> Tournament:
    """An event at 3-player tables (Sochi), 9 players on 3 tables, round 1 seated."""
    t = tournament_create(
        name="Тройки", user=director, slug="threes", players_per_table=3, now=timezone.now()
    )
    Participant.objects.bulk_create(
        Participant(tournament=t, number=n, name=f"Игрок {n}", pin=f"{1000 + n}") for n in range(1, 10)
    )
    spec = {"scheme": "basic", "tables": 3}
    movement_choose(session=t.sessions.get(number=1), user=director, spec=spec, now=timezone.now())
    return t


def test_three_players_raspasy_with_the_first_hand_on_auto(threes, dclient):
    """At a table of three the first-hand select had no «авто» and showed N: a raspasy of a board whose first hand
    is E, saved as the page stood, was refused. Now «авто» is shown and the first hand follows from the board."""
    board = next(b for b in boards_of(threes) if b.dealer != "N")
    page = entry_url(threes, board.number)
    response = enter(dclient, threes, board, contract="-", declarer_tricks=4, w1_tricks=4, w2_tricks=2)
    assert response.status_code == 302, visible_text(response)[:2000]
    first, second, third = hands_in_order(3, board.dealer)
    assert first == board.dealer != "N"
    assert stored(board).row == {"contract": "-", "declarer": [first, 4], "w1": [second, 4], "w2": [third, 2]}
    assert shown_options(dclient.get(page), "declarer_seat")[:2] == [("", "авто"), ("N", "N")]


def test_three_players_two_counts_typed_the_third_computed(threes, dclient):
    first_board, second_board = boards_of(threes)[:2]
    assert (
        enter(dclient, threes, first_board, contract="-", declarer_tricks=6, w1_tricks=1).status_code == 302
    )
    assert [c[1] for c in (stored(first_board).row[k] for k in ("declarer", "w1", "w2"))] == [6, 1, 3]
    response = enter(
        dclient,
        threes,
        second_board,
        contract="MIS",
        declarer_seat="S",
        declarer_tricks=0,
        w1_tricks=6,
    )
    assert response.status_code == 302
    assert stored(second_board).row == {
        "contract": "MIS",
        "declarer": ["S", 0],
        "w1": ["N", 6],
        "w2": ["E", 4],
    }


def test_four_players_two_counts_typed_the_third_computed(seated, dclient):
    board = boards_of(seated)[0]
    first, second, third = hands_in_order(4, board.dealer)
    response = enter(
        dclient,
        seated,
        board,
        contract="7D",
        declarer_seat=first,
        declarer_tricks=6,
        w1_tricks=3,
        call1="whist",
        call2="pass",
        play="open",
    )
    assert response.status_code == 302
    result = stored(board)
    assert result.row["w2"] == [third, 1] and result.row["play"] == "open"
    assert result.vists  # scored by the core


def test_four_players_a_deal_nobody_whisted_without_trick_counts(seated, dclient):
    first_board, second_board = boards_of(seated)[:2]
    first, second, third = hands_in_order(4, first_board.dealer)
    response = enter(
        dclient, seated, first_board, contract="6NT", declarer_seat=first, call1="pass", call2="pass"
    )
    assert response.status_code == 302
    assert stored(first_board).row == {
        "contract": "6NT",
        "declarer": [first, 10],
        "w1": [second, 0],
        "w2": [third, 0],
        "calls": {second: "pass", third: "pass"},
    }
    # a standing half-whist on a six: the half-whister books 2 (D-W7)
    first, second, third = hands_in_order(4, second_board.dealer)
    response = enter(
        dclient, seated, second_board, contract="6C", declarer_seat=first, call1="pass", call2="half"
    )
    assert response.status_code == 302
    row = stored(second_board).row
    assert [row[c] for c in ("declarer", "w1", "w2")] == [[first, 6], [second, 2], [third, 2]]


def test_four_players_sochi_raspasy_needs_all_three_and_the_first_hand_follows(seated, dclient):
    board = boards_of(seated)[0]
    response = enter(dclient, seated, board, contract="-", declarer_tricks=3, w1_tricks=3)
    assert response.status_code == 200
    assert field_errors(response, "id_w2_tricks") == "Запишите взятки каждой руки."
    response = enter(dclient, seated, board, contract="-", declarer_tricks=3, w1_tricks=3, w2_tricks=3)
    assert response.status_code == 302
    first, second, third = hands_in_order(4, board.dealer)
    assert stored(board).row == {"contract": "-", "declarer": [first, 3], "w1": [second, 3], "w2": [third, 3]}


def test_a_wrong_pair_of_counts_is_refused_next_to_its_field(seated, dclient):
    board = boards_of(seated)[0]
    first = hands_in_order(4, board.dealer)[0]
    six = {"contract": "6S", "declarer_seat": first, "call1": "whist", "call2": "whist"}
    response = enter(dclient, seated, board, **six, declarer_tricks=8, w1_tricks=5)
    with translation.override("ru"):
        expected = refusal_message(Refusal("tricks_total", "declarer", "", {"total": 13, "tricks": [8, 5]}))
    assert response.status_code == 200 and field_errors(response, "id_w1_tricks") == expected
    assert english_phrases(visible_text(response), seated.name) == []
    response = enter(dclient, seated, board, **six, w1_tricks=2)
    assert (
        field_errors(response, "id_declarer_tricks") == "Запишите взятки разыгрывающего и первого вистующего."
    )
    response = enter(
        dclient, seated, board, **six | {"declarer_seat": board.dealer}, declarer_tricks=6, w1_tricks=2
    )
    assert board.dealer in field_errors(response, "id_declarer_seat")  # the dealer sits out: not a choice
    assert not Result.objects.exists()
