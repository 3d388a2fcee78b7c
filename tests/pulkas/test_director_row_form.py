"""The director's form of a pulka deal accepts what the players' phones accept, by the same rule (ui.typed_row):
the first hand of raspasy on «авто» at a table of three, a deal nobody whisted without trick counts, two counts
typed and the third computed; a wrong pair of counts is refused next to its field. Through the director's sheet
page, as the browser posts the form (tests/row_forms.py); the sheet's write path still decides legality."""

from __future__ import annotations

import pytest
from django.utils import timezone, translation

from pulkas.models import PulkaCorrection, PulkaDeal, PulkaTable
from pulkas.services import rounds
from pulkas.services.sheet import event_of, table_setup
from tests.html import english_phrases, visible_text
from tests.pulkas.factory import pulka_event
from tests.row_forms import as_browser, field_errors, shown_options
from tournaments.refusals import Refusal, refusal_message

from .test_director_pages import running_table, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def dclient(client, director):
    client.force_login(director)
    return client


def sheet_page(table: PulkaTable) -> str:
    return url("pulka_table", table.round.tournament, number=table.round.number, table=table.number)


def hands(table: PulkaTable, number: int) -> tuple[str, str, str]:
    """The first, second and third hand of deal ``number`` (at 4 players the dealer sits out)."""
    setup = table_setup(event_of(table.round.tournament), table)
    dealer, first = setup.dealer(number), setup.first_hand(number)
    active = [s for s in setup.seats if len(setup.seats) == 3 or s != dealer]
    i = active.index(first)
    return first, active[(i + 1) % 3], active[(i + 2) % 3]


def enter(dclient, table: PulkaTable, **fields: object):
    """Deal the sheet asks for next, typed on the director's «enter» form as the page shows it."""
    page = sheet_page(table)
    return dclient.post(page, as_browser(dclient.get(page), "enter-form", **fields))


def stored(table: PulkaTable, number: int) -> dict:
    """The deal's row as written, without the raspasy step the sheet counts itself."""
    row = PulkaDeal.objects.get(table=table, number=number).row
    return {k: v for k, v in row.items() if k != "raspasy_step"}


def test_the_first_hand_of_raspasy_on_auto_at_a_table_of_three(dclient, director):
    """The reported 400: at a table of three the first-hand select had no «авто» and showed N, so a raspasy of
    deal 2 (first hand E) posted as the page stood was refused. Now «авто» is there and chosen, and the first hand
    follows from the dealer, deal after deal."""
    table = running_table(director)
    for number in (1, 2, 3):
        shown = dclient.get(sheet_page(table))
        data = as_browser(shown, "enter-form", contract="-", declarer_tricks=3, w1_tricks=4, w2_tricks=3)
        response = dclient.post(sheet_page(table), data)
        assert response.status_code == 302, field_errors(response, "id_enter-declarer_tricks")
        first, second, third = hands(table, number)
        assert stored(table, number) == {
            "contract": "-",
            "declarer": [first, 3],
            "w1": [second, 4],
            "w2": [third, 3],
        }
    assert [hands(table, n)[0] for n in (1, 2, 3)] == ["N", "E", "S"]
    shown = dclient.get(sheet_page(table))
    assert shown_options(shown, "enter-declarer_seat") == [("", "авто"), ("N", "N"), ("E", "E"), ("S", "S")]
    assert as_browser(shown, "enter-form")["enter-declarer_seat"] == ""  # what is sent when left as shown


def test_two_counts_typed_the_third_computed_at_a_table_of_three(dclient, director):
    table = running_table(director)
    assert enter(dclient, table, contract="-", declarer_tricks=5, w1_tricks=1).status_code == 302
    first, second, third = hands(table, 1)
    assert stored(table, 1)["w2"] == [third, 4]
    first, second, third = hands(table, 2)
    response = enter(
        dclient,
        table,
        contract="6S",
        declarer_seat=second,
        declarer_tricks=7,
        w1_tricks=2,
        call1="whist",
        call2="pass",
    )
    assert response.status_code == 302
    assert stored(table, 2) == {
        "contract": "6S",
        "declarer": [second, 7],
        "w1": [third, 2],
        "w2": [first, 1],
        "calls": {third: "whist", first: "pass"},
        "play": "closed",
    }


def test_a_deal_nobody_whisted_is_written_without_trick_counts(dclient, director):
    table = running_table(director)
    first, second, third = hands(table, 1)
    response = enter(dclient, table, contract="8H", declarer_seat=first, call1="pass", call2="pass")
    assert response.status_code == 302
    assert stored(table, 1) == {
        "contract": "8H",
        "declarer": [first, 10],
        "w1": [second, 0],
        "w2": [third, 0],
        "calls": {second: "pass", third: "pass"},
    }
    # a half-whist that stood: the declarer's level, the half-whister's half of the obligation (D-W7)
    first, second, third = hands(table, 2)
    response = enter(dclient, table, contract="7S", declarer_seat=first, call1="pass", call2="half")
    assert response.status_code == 302
    assert [stored(table, 2)[c] for c in ("declarer", "w1", "w2")] == [[first, 7], [second, 2], [third, 1]]
    deals = visible_text(dclient.get(sheet_page(table)))
    assert "8♥" in deals and "7♠" in deals


def test_a_wrong_pair_of_counts_and_what_is_missing_are_refused_next_to_their_fields(dclient, director):
    table = running_table(director)
    first = hands(table, 1)[0]
    six = {"contract": "6S", "declarer_seat": first, "call1": "whist", "call2": "whist"}
    response = enter(dclient, table, **six, declarer_tricks=8, w1_tricks=5)
    with translation.override("ru"):
        expected = refusal_message(Refusal("tricks_total", "declarer", "", {"total": 13, "tricks": [8, 5]}))
    assert response.status_code == 400
    assert field_errors(response, "id_enter-w1_tricks") == expected  # «8 + 5 = 13 взяток, больше 10.»
    assert english_phrases(visible_text(response), table.round.tournament.name) == []
    response = enter(dclient, table, **six, declarer_tricks=8)
    assert response.status_code == 400
    assert (
        field_errors(response, "id_enter-w1_tricks") == "Запишите взятки разыгрывающего и первого вистующего."
    )
    response = enter(dclient, table, **six | {"declarer_seat": ""}, declarer_tricks=6, w1_tricks=2)
    assert field_errors(response, "id_enter-declarer_seat") == "Выберите разыгрывающего."
    response = enter(dclient, table, **six | {"call2": ""}, declarer_tricks=6, w1_tricks=2)
    assert field_errors(response, "id_enter-call2") == "Выберите заявку второго вистующего."
    # three counts typed that do not make 10: the core's refusal, next to the declarer's
    response = enter(dclient, table, **six, declarer_tricks=6, w1_tricks=2, w2_tricks=3)
    assert response.status_code == 400 and "11" in field_errors(response, "id_enter-declarer_tricks")
    assert not PulkaDeal.objects.filter(table=table).exists()


def test_four_players_sochi_raspasy_needs_all_three_hands(dclient, director):
    """At 4-player Sochi/Leningrad raspasy the three hands take 8 to 10 tricks: nothing follows from two."""
    table = running_table(director, players=4)
    response = enter(dclient, table, contract="-", declarer_tricks=3, w1_tricks=4)
    assert response.status_code == 400
    assert field_errors(response, "id_enter-w2_tricks") == "Запишите взятки каждой руки."
    assert enter(dclient, table, contract="-", declarer_tricks=3, w1_tricks=4, w2_tricks=2).status_code == 302
    first, second, third = hands(table, 1)
    assert stored(table, 1) == {"contract": "-", "declarer": [first, 3], "w1": [second, 4], "w2": [third, 2]}
    # a contract: the third count follows, the dealer sits out (and may whist)
    first, second, third = hands(table, 2)
    dealer = table_setup(event_of(table.round.tournament), table).dealer(2)
    shown = dclient.get(sheet_page(table))
    assert dealer not in [v for v, _ in shown_options(shown, "enter-declarer_seat")]
    response = enter(
        dclient,
        table,
        contract="9NT",
        declarer_seat=first,
        declarer_tricks=8,
        w1_tricks=1,
        call1="pass",
        call2="pass",
        dealer_whist="on",
    )
    assert response.status_code == 302
    row = stored(table, 2)
    assert row["w2"] == [third, 1] and row["dealer_whist"] is True and row["play"] == "closed"


def test_four_players_rostov_raspasy_computes_the_third_hand(dclient, director):
    t = pulka_event(director, "swiss", 4, 4, name="Ростов", variant="rostov")
    r = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=5)
    rounds.start_round(pulka_round=r, user=director, now=timezone.now())
    table = r.tables.get()
    assert enter(dclient, table, contract="-", declarer_tricks=2, w1_tricks=5).status_code == 302
    first, second, third = hands(table, 1)
    assert stored(table, 1) == {"contract": "-", "declarer": [first, 2], "w1": [second, 5], "w2": [third, 3]}


def test_a_correction_on_the_sheet_takes_the_third_count_computed(dclient, director):
    table = running_table(director)
    first, second, third = hands(table, 1)
    six = {"contract": "6S", "declarer_seat": first, "call1": "whist", "call2": "whist"}
    assert enter(dclient, table, **six, declarer_tricks=6, w1_tricks=2).status_code == 302
    page = sheet_page(table) + "?correct=1"
    shown = dclient.get(page)
    data = as_browser(shown, "correct-form", declarer_tricks=5, w1_tricks=4, w2_tricks="", reason="опечатка")
    assert data["correct-declarer_seat"] == first  # the stored row's seats, to change
    response = dclient.post(sheet_page(table), data)
    assert response.status_code == 302
    assert [stored(table, 1)[c] for c in ("declarer", "w1", "w2")] == [[first, 5], [second, 4], [third, 1]]
    assert PulkaCorrection.objects.get(table=table).reason == "опечатка"
