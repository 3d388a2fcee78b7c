"""The table entry page through the Django client: the flow a phone without JavaScript goes through."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from duplicate import at_table
from duplicate.at_table import TableRefused
from scoring.models import Result
from tests.html import english_phrases, lang, parse, visible_text
from tests.table.factory import make_event, pin_of
from tournaments.models import Table
from tournaments.ratelimit import UNKNOWN_CODES_PER_WINDOW
from tournaments.refusals import Refusal, refusal_message

pytestmark = pytest.mark.django_db
EN = {"headers": {"accept-language": "en"}}


@pytest.fixture
def event(director):
    return make_event(director=director)


@pytest.fixture
def url():
    return reverse("table:entry", kwargs={"code": "TAB1TT"})


def row_post(board=1, **extra):
    # board 1: dealer N, so E, S, W play; E declares 6♠, S and W whist
    data = {
        "board": board,
        "key": "form-key-1",
        "contract": "6S",
        "declarer": "E",
        "t1": "6",
        "t2": "2",
        "call1": "whist",
        "call2": "whist",
        "play": "closed",
    }
    data.update(extra)
    return data


def text(response):
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def card(response, board: int) -> dict:
    """The page's card of one board (what the template shows for it)."""
    return next(c for c in response.context["cards"] if c["board"].number == board)


def boards_shown(response) -> list[int]:
    """The boards on the page, in order (``<details id="board-N">``)."""
    return [int(d.get("id").split("-")[1]) for d in parse(response).find_all("details", class_="tb-board")]


def refusal(call) -> TableRefused:
    """What the table's service says for a refused request (its code, and its message in the active language)."""
    with pytest.raises(TableRefused) as caught:
        call()
    return caught.value


def state():
    return at_table.table_state(Table.objects.get(code="TAB1TT"))


def test_the_page_shows_the_round_seats_and_boards_in_order(client, event, url):
    response = client.get(url, **EN)
    assert response.status_code == 200
    body = text(response)
    assert response.context["table"].number == 1 and response.context["round"].number == 1
    assert boards_shown(response) == [1, 2, 3, 4]  # in the order they are played; not board 5, the other set
    assert "Player 1" in body and "Player 4" in body
    assert [p.number for _seat, p in response.context["seats"]] == [1, 2, 3, 4]


def test_check_shows_the_vists_before_saving(client, event, url):
    response = client.post(url, {**row_post(), "action": "check"}, **EN)
    assert response.status_code == 200
    assert [v["seat"] for v in card(response, 1)["preview"]] == ["N", "E", "S", "W"]
    assert (
        parse(response).one(id="board-1").one("section", data_role="preview").find("table", class_="tb-vists")
    )
    assert not Result.objects.exists()
    assert 'value="save"' in response.content.decode()


def test_the_third_trick_number_follows_from_the_other_two(client, event, url):
    client.post(url, {**row_post(), "action": "save", "number": 1, "pin": pin_of(1)}, **EN)
    assert Result.objects.get().row["w2"] == ["W", 2]


def test_an_invalid_row_is_refused_with_the_reason(client, event, url):
    response = client.post(url, {**row_post(t3="5"), "action": "check"}, **EN)
    assert response.status_code == 400
    expected = refusal_message(Refusal("tricks_total", "declarer", "", {"total": 13, "tricks": [6, 2, 5]}))
    assert card(response, 1)["refusals"] == [expected]  # the core's reason, in the page's words
    preview = parse(response).one(id="board-1").one("section", data_role="preview")
    assert preview.one(role="alert").find("li").text() == expected


def test_incomplete_rows_say_what_is_missing(client, event, url):
    response = client.post(url, {"board": 1, "contract": "6S", "action": "check"}, **EN)
    assert response.status_code == 400
    assert [e.code for e in card(response, 1)["form"].errors.as_data()["declarer"]] == ["required"]
    assert (
        parse(response).one(id="board-1").one("fieldset", class_="tb-declarer").find(class_="tb-err")
        is not None
    )


def test_save_confirm_and_lock(client, event, url):
    response = client.post(
        url, {**row_post(), "action": "save", "number": 1, "pin": pin_of(1), "remember": "1"}
    )
    assert response.status_code == 302
    result = Result.objects.get()
    assert result.status == "entered"
    # the retried form (same hidden key) does not store a second row
    again = client.post(url, {**row_post(), "action": "save"})
    assert again.status_code == 302 and Result.objects.count() == 1
    response = client.get(url, **EN)
    assert card(response, 1)["awaiting"] == ["E · 2 Player 2", "S · 3 Player 3", "W · 4 Player 4"]
    waiting = parse(response).one(id="board-1").one("p", class_="tb-waiting")
    assert "E · 2 Player 2" in waiting.text()
    for n in (2, 3, 4):
        r = client.post(url, {"board": 1, "number": n, "pin": pin_of(n), "action": "confirm"})
        assert r.status_code == 302
    result.refresh_from_db()
    assert result.status == "confirmed" and result.confirmed_by == ["E", "S", "W"]
    board = parse(client.get(url, **EN)).one(id="board-1")
    assert "tb-confirmed" in board.classes and board.find("p", class_="tb-locked-ok") is not None
    assert not board.find_all("form")  # locked: nothing to confirm, dispute or correct


def test_a_wrong_pin_saves_nothing(client, event, url):
    response = client.post(url, {**row_post(), "action": "save", "number": 1, "pin": "9999"}, **EN)
    assert response.status_code == 403
    wrong = refusal(lambda: at_table.identify(state=state(), number=1, pin="9999", ip="10.0.0.9"))
    assert wrong.code == "wrong_pin" and card(response, 1)["identity_error"] == wrong.message
    assert parse(response).one(id="board-1").one("section", class_="tb-who").find(role="alert") is not None
    assert not Result.objects.exists()


def test_the_remembered_player_at_n_needs_no_pin_for_the_next_board(client, event, url):
    client.post(url, {**row_post(), "action": "save", "number": 1, "pin": pin_of(1), "remember": "1"})
    r = client.post(url, {**row_post(board=2, key="k2", declarer="S"), "action": "save"})
    assert r.status_code == 302
    assert Result.objects.count() == 2
    client.post(url, {"action": "forget"})
    r = client.post(url, {**row_post(board=3, key="k3", declarer="W"), "action": "save"}, **EN)
    assert r.status_code == 403


def test_a_dispute_is_recorded(client, event, url):
    client.post(url, {**row_post(), "action": "save", "number": 1, "pin": pin_of(1)})
    client.post(url, {"board": 1, "number": 3, "pin": pin_of(3), "action": "dispute", "reason": "W took 3"})
    result = Result.objects.get()
    assert result.status == "disputed" and "W took 3" in result.dispute


def test_other_tables_results_are_not_shown(client, event, url):
    other = reverse("table:entry", kwargs={"code": "TAB2TT"})
    Client().post(other, {**row_post(board=5), "action": "save", "number": 5, "pin": pin_of(5)})
    assert Result.objects.filter(table_number=2).exists()
    response = client.get(url, **EN)
    assert 5 not in boards_shown(response) and "Player 5" not in text(response)


def test_preview_endpoint(client, event):
    url = reverse("table:preview", kwargs={"code": "TAB1TT"})
    ok = client.get(url, row_post(), **EN).json()
    assert ok["ok"] and [v["seat"] for v in ok["vists"]] == ["N", "E", "S", "W"]
    assert ok["row"]["w2"] == ["W", 2]
    bad = client.get(url, row_post(t3="5"), **EN).json()
    assert not bad["ok"] and bad["errors"] == [
        refusal_message(Refusal("tricks_total", "declarer", "", {"total": 13, "tricks": [6, 2, 5]}))
    ]
    nobody = client.get(url, {**row_post(), "call1": "pass", "call2": "pass", "t1": ""}, **EN).json()
    assert nobody["ok"] and nobody["row"]["declarer"] == ["E", 10] and "play" not in nobody["row"]


def test_unknown_codes_are_rate_limited(client, event):
    for i in range(UNKNOWN_CODES_PER_WINDOW):
        assert client.get(f"/table/NOPE{i}/", **EN).status_code == 404
    response = client.get("/table/NOPE99/", **EN)
    assert response.status_code == 429
    assert response.context["code"] == "too_many_codes"
    assert parse(response).find(role="alert") is not None
    assert client.get("/table/TAB1TT/", **EN).status_code == 200  # a known code always opens its table


def test_lookup_and_qr(client, event):
    assert client.get("/table/?code=tab1tt").url == "/table/TAB1TT/"
    svg = client.get(reverse("table:qr", kwargs={"code": "TAB1TT"}))
    assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml"
    assert b"<svg" in svg.content


def test_no_round_running(client, event, url):
    _t, session = event
    session.rounds.filter(number=1).update(status="pending", started_at=None)
    response = client.get(url, **EN)
    assert response.context["round"] is None and response.context["state"].next_round.number == 1
    assert parse(response).find("section", class_="tb-wait") is not None and boards_shown(response) == []


# -- who sees the rows (rules §12.2.4): only a device that identified a participant seated here this round --
def saved_by_n(board=1):
    """The player at N saves a row on his own phone; returns that phone."""
    phone = Client()
    url = reverse("table:entry", kwargs={"code": "TAB1TT"})
    r = phone.post(url, {**row_post(board=board), "action": "save", "number": 1, "pin": pin_of(1)})
    assert r.status_code == 302
    return phone


def shows_the_row(response) -> bool:
    html = response.content.decode()
    return "6♠:" in text(response) and 'class="tb-vists"' in html


def test_a_device_without_a_pin_sees_the_status_but_not_the_row(client, event, url):
    saved_by_n()
    response = client.get(url, **EN)
    body = text(response)
    assert not shows_the_row(response)
    assert "6♠: E 6" not in body and "(whist)" not in body
    board = parse(response).one(id="board-1")
    assert "tb-entered" in board.classes and board.find("p", class_="tb-waiting") is not None
    assert board.find(class_="tb-hidden") is not None and not board.find_all("form")  # no confirming unseen
    unlock = parse(response).one("form", class_="tb-unlock")  # «show the rows»: number and PIN
    assert unlock.find("select", name="number") and unlock.find("input", name="pin")
    assert unlock.buttons(name="action", value="show")
    # the correction form would carry the stored row: not for this device either
    edit = client.get(url, {"edit": 1}, **EN)
    assert 'value="6S" checked' not in edit.content.decode() and not card(edit, 1).get("editing")


def test_a_participant_seated_here_unlocks_the_rows(client, event, url):
    saved_by_n()
    r = client.post(url, {"action": "show", "number": 3, "pin": pin_of(3)})
    assert r.status_code == 302
    page = client.get(url, **EN)
    assert shows_the_row(page)
    assert (
        page.context["viewer"].number == 3
        and page.context["viewer_seat"] == "S"
        and page.context["me"] is None
    )
    assert parse(page).one("form", class_="tb-me").buttons(name="action", value="forget")
    client.post(url, {"action": "forget"})
    assert not shows_the_row(client.get(url, **EN))


def test_a_participant_of_another_table_cannot_unlock(client, event, url):
    saved_by_n()
    r = client.post(url, {"action": "show", "number": 5, "pin": pin_of(5)}, **EN)
    assert r.status_code == 403
    # the right PIN at the wrong table is answered as a wrong PIN (tests/hostile/test_limits.py)
    wrong = client.post(url, {"action": "show", "number": 5, "pin": "0000"}, **EN)
    assert r.context["unlock_error"] == wrong.context["unlock_error"]
    assert parse(r).one("form", class_="tb-unlock").find(role="alert") is not None
    assert not shows_the_row(r) and not shows_the_row(client.get(url, **EN))


def test_a_wrong_pin_does_not_unlock(client, event, url):
    saved_by_n()
    r = client.post(url, {"action": "show", "number": 2, "pin": "9999"}, **EN)
    assert r.status_code == 403
    wrong = refusal(lambda: at_table.identify(state=state(), number=2, pin="9999", ip="10.0.0.9"))
    assert wrong.code == "wrong_pin" and r.context["unlock_error"] == wrong.message
    assert parse(r).one("form", class_="tb-unlock").find(role="alert") is not None
    assert not shows_the_row(r) and not shows_the_row(client.get(url, **EN))


def test_the_player_at_n_sees_his_row_after_saving_it(event, url):
    phone = saved_by_n()  # no «remember» box: the device remembers him anyway
    page = phone.get(url, **EN)
    assert shows_the_row(page) and page.context["me"].number == 1  # entering as the player at N
    assert parse(page).one("form", class_="tb-me") is not None


def test_a_confirm_from_a_fresh_device_works_and_shows_the_row_there(client, event, url):
    saved_by_n()
    r = client.post(url, {"board": 1, "number": 2, "pin": pin_of(2), "action": "confirm"})
    assert r.status_code == 302
    assert Result.objects.get().confirmed_by == ["E"]
    assert shows_the_row(client.get(url, **EN))


def test_the_dispute_text_is_shown_only_at_the_table(client, event, url):
    saved_by_n()
    Client().post(url, {"board": 1, "number": 3, "pin": pin_of(3), "action": "dispute", "reason": "W took 3"})
    response = client.get(url, **EN)
    board = parse(response).one(id="board-1")
    assert "tb-disputed" in board.classes and board.find("p", class_="tb-locked-bad") is not None
    assert "W took 3" not in text(response)


def test_the_table_page_is_translated(client, event, url):
    """Russian by default, English on request: the title, the boards and the unlock form."""
    ru = client.get(url)
    assert ru.status_code == 200 and lang(ru) == "ru"
    words = visible_text(ru)
    assert "Стол 1" in words and "Сдача 1" in words
    assert (
        english_phrases(words, event[0].name) == []
    )  # no interface words left in English (the name is data)
    assert "Table 1" not in words and "Board 1" not in words
    en = client.get(url, **EN)
    assert lang(en) == "en"
    assert (
        "Table 1" in visible_text(en) and "Board 1" in visible_text(en) and "Стол 1" not in visible_text(en)
    )
    assert english_phrases(visible_text(en))  # the check above would see English words
