"""The players' pulka sheet at the table (/pulka/<code>/) through the Django client: what a phone without
JavaScript goes through — identify, write a deal, confirm it, correct it, the end, the PDF."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from preferans.game.seats import active_seats, hands_in_order
from pulkas.models import PulkaCorrection, PulkaDeal, PulkaTable
from pulkas.services import rounds, sheet, table_control
from pulkas.simulate import play_table
from tests.html import english_phrases, lang, parse, visible_text
from tests.publishing import publish_to
from tests.pulkas.factory import pulka_event
from tournaments import pins
from tournaments.models import Participant, Publication

pytestmark = pytest.mark.django_db
EN = {"headers": {"accept-language": "en"}}
NAMES = ["Иванов", "Петрова", "Сидоров", "Кузнецов"]


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Wrong PINs and unknown codes are counted in the cache: every test starts with none."""
    cache.clear()
    yield
    cache.clear()


def make_table(director, per_table: int = 3) -> PulkaTable:
    now = timezone.now()
    t = pulka_event(
        director,
        "compensation",
        per_table,
        per_table,
        name="Кубок «Пуля»",
        names=NAMES,
        now=now,
        pool=10,
    )
    r = rounds.draw_round(tournament=t, user=director, now=now, seed=5)
    rounds.start_round(pulka_round=r, user=director, now=now)
    return r.tables.get()


@pytest.fixture
def three(director) -> PulkaTable:
    return make_table(director, 3)


@pytest.fixture
def four(director) -> PulkaTable:
    return make_table(director, 4)


def url(table: PulkaTable) -> str:
    return reverse("table:pulka", kwargs={"code": table.code})


def seats(table: PulkaTable) -> dict[str, Participant]:
    return table.seats()  # type: ignore[return-value]


def label(table: PulkaTable, number: int) -> str:
    """The row's dealer label of deal ``number``: the dealer at 4 players, the first hand at 3."""
    setup = sheet.load_sheet(table).setup
    return setup.dealer(number) if table.players == 4 else setup.first_hand(number)


def show(client: Client, table: PulkaTable, seat: str = "N"):
    p = seats(table)[seat]
    return client.post(url(table), {"action": "show", "number": p.number, "pin": p.pin})


def deal_post(table: PulkaTable, writer: str = "N", *, confirm: tuple[str, ...] = (), **over) -> dict:
    """The next deal as the form posts it: first hand declares 6♠, first defender whists, the second passes;
    the declarer takes 6, the whister 2 (the third count follows)."""
    table.refresh_from_db()
    number = over.pop("board", None) or table.deals_count + 1
    declarer = hands_in_order(table.players, label(table, number))[0]
    p = seats(table)
    data = {
        "action": "save",
        "board": number,
        "key": f"key-{number}-{writer}",
        "version": table.version,
        "contract": "6S",
        "declarer": declarer,
        "call1": "whist",
        "call2": "pass",
        "play": "closed",
        "t1": "6",
        "t2": "2",
        "writer": p[writer].number,
        "pin": p[writer].pin,
    }
    for seat in confirm:
        data[f"pin_{seat}"] = p[seat].pin
    data.update(over)
    return data


def others(table: PulkaTable, writer: str = "N") -> tuple[str, ...]:
    return tuple(s for s in seats(table) if s != writer)


def words(response) -> str:
    return visible_text(response)


def data_names(table: PulkaTable) -> list[str]:
    return [table.round.tournament.name, *NAMES]


# -- the page ----------------------------------------------------------------------------------------------
def test_three_players_before_and_after_identifying(client, three):
    response = client.get(url(three))
    assert response.status_code == 200 and lang(response) == "ru"
    doc = parse(response)
    text = words(response)
    for seat, p in seats(three).items():
        assert f"{seat} {p.number} {p.name}" in text  # the players by seat
    assert doc.find("div", class_="pk-clock").get("data-ends-at")  # the round's clock
    setup = sheet.load_sheet(three).setup
    assert (
        "Сдача 1" in text
        and f"сдаёт {setup.dealer(1)}" in text
        and f"первая рука {setup.first_hand(1)}" in text
    )
    assert "шаг распасов, если будут: 1" in text
    assert doc.find("svg") is None and doc.find("form", class_="tb-form") is None  # rows only to the players
    assert doc.by_id("unlock") is not None
    assert show(client, three).status_code == 302
    response = client.get(url(three))
    doc = parse(response)
    assert doc.find("svg") is not None
    form = doc.one("form", class_="tb-form")
    # at 3 players all three hold cards; the row form's label is the first hand
    declarers = [i.get("value") for i in form.find_all("input", name="declarer")]
    assert declarers == list(active_seats(3, setup.first_hand(1))) == ["N", "E", "S"]
    assert json.loads(form.get("data-meta"))["dealer"] == setup.first_hand(1)
    assert form.find("select", name="raspasy_step") is None  # the sheet computes the step
    assert form.find("input", name="dealer_whist") is None


def test_four_players_the_dealer_sits_out(client, four):
    show(client, four, "E")
    response = client.get(url(four))
    form = parse(response).one("form", class_="tb-form")
    dealer = sheet.load_sheet(four).setup.dealer(1)
    declarers = [i.get("value") for i in form.find_all("input", name="declarer")]
    assert dealer not in declarers and len(declarers) == 3
    assert json.loads(form.get("data-meta"))["dealer"] == dealer
    assert form.find("input", name="dealer_whist") is not None
    writers = [o.get("value") for o in form.one("select", name="writer").find_all("option")]
    assert writers == [str(p.number) for p in seats(four).values()]  # any player of the table writes (4.2.4)
    assert form.one("select", name="writer").one("option", selected=True).get("value") == str(
        seats(four)["E"].number
    )
    assert "не играет" in words(response)


# -- writing a deal ----------------------------------------------------------------------------------------
def test_a_deal_with_every_confirmation_is_confirmed(client, three):
    response = client.post(url(three), deal_post(three, "E", confirm=others(three, "E")))
    assert response.status_code == 302
    deal = PulkaDeal.objects.get(table=three)
    assert (
        deal.status == "confirmed"
        and deal.confirmed_by == ["N", "S"]
        and deal.entered_by == seats(three)["E"]
    )
    assert deal.row["contract"] == "6S" and deal.row["w2"][1] == 2  # the third count derived
    page = client.get(url(three))  # the writer is now remembered on this phone
    text = words(page)
    assert "Сдача 1 записана и подтверждена." in text
    assert parse(page).by_id("deal-1") is not None and "Записать сдачу 2" in text


def test_a_deal_with_some_confirmations_waits_for_the_others(client, four):
    client.post(url(four), deal_post(four, "N", confirm=("E",)))
    deal = PulkaDeal.objects.get(table=four)
    assert deal.status == "entered" and deal.confirmed_by == ["E"]
    page = client.get(url(four))
    doc = parse(page)
    assert doc.by_id("confirm") is not None and doc.find("form", class_="tb-form") is None
    options = [o.get("value") for o in doc.by_id("confirm").one("select", name="number").find_all("option")]
    assert options == [str(seats(four)[s].number) for s in ("S", "W")]


def test_a_wrong_pin_stores_nothing(client, three):
    response = client.post(url(three), deal_post(three, "N", pin="9999"))
    assert response.status_code == 403
    assert not PulkaDeal.objects.filter(table=three).exists()
    assert "Неверный номер или PIN, или этот участник не играет за этим столом в этом туре." in words(
        response
    )
    form = parse(response).one("form", class_="tb-form")
    assert form.one("input", name="contract", value="6S").get("checked") is not None  # what was typed stays
    # no PIN at all: said so, and not counted as a guess
    response = client.post(url(three), deal_post(three, "E", pin=""))
    assert response.status_code == 400 and "Введите PIN" in words(response)
    # the one wrong PIN above, counted for this phone on N (tournaments.pins: only the pair refuses)
    key = pins.pin_limits(three.round.tournament, seats(three)["N"].number, "127.0.0.1").pair[0]
    assert pins.counts(key) == {key: 1}
    assert not PulkaDeal.objects.filter(table=three).exists()
    # a confirmer's wrong PIN refuses the whole deal too
    response = client.post(url(three), deal_post(three, "N", confirm=("E",), pin_E="0000"))
    assert response.status_code == 403 and not PulkaDeal.objects.filter(table=three).exists()


def test_a_refused_row_keeps_the_form_and_says_why_in_russian(client, three):
    show(client, three)
    response = client.post(url(three), deal_post(three, t1="9", t2="4"))
    assert response.status_code == 400
    assert not PulkaDeal.objects.filter(table=three).exists()
    box = parse(response).by_id("refusals")
    assert box is not None and re.search("[а-я]", box.text()) and english_phrases(box.text()) == []
    form = parse(response).one("form", class_="tb-form")
    assert form.one("input", name="contract", value="6S").get("checked") is not None
    assert (
        form.one("input", name="t1").get("value") == "9" and form.one("input", name="t2").get("value") == "4"
    )
    assert english_phrases(words(response), *data_names(three)) == []


def test_check_shows_the_deal_before_writing(client, three):
    show(client, three)
    response = client.post(url(three), {**deal_post(three), "action": "check"})
    assert response.status_code == 200 and not PulkaDeal.objects.exists()
    assert [v["seat"] for v in response.context["preview"]] == ["N", "E", "S"]
    assert parse(response).one("button", value="save").get("hidden") is None


def test_the_same_key_twice_writes_once(client, three):
    data = deal_post(three, confirm=others(three))
    assert client.post(url(three), data).status_code == 302
    again = client.post(url(three), data)  # the double tap: the same key, the version it saw
    assert again.status_code == 302
    assert PulkaDeal.objects.filter(table=three).count() == 1
    assert "Сдача 1 уже записана" in words(client.get(url(three)))


def test_a_stale_form_is_refused(client, three, director):
    show(client, three)
    data = deal_post(three, confirm=others(three))
    play_table(three, random.Random(3), now=timezone.now(), deals=1)  # another phone wrote deal 1
    response = client.post(url(three), data)
    assert response.status_code == 409
    assert PulkaDeal.objects.filter(table=three).count() == 1
    assert "Пулька изменилась" in words(response)
    # the same deal number with an old version (only a confirmation happened in between): refused, form kept
    data = deal_post(three, confirm=others(three), version=0)
    response = client.post(url(three), data)
    assert response.status_code == 409 and PulkaDeal.objects.filter(table=three).count() == 1
    form = parse(response).one("form", class_="tb-form")
    three.refresh_from_db()
    assert form.one("input", name="version").get("value") == str(three.version)
    assert form.one("input", name="t1").get("value") == "6"


# -- confirming and correcting ---------------------------------------------------------------------------------
def test_confirm_later_on_another_phone(three):
    writer_phone, e_phone = Client(), Client()
    writer_phone.post(url(three), deal_post(three, "N"))
    deal = PulkaDeal.objects.get(table=three)
    assert deal.status == "entered" and deal.confirmed_by == []
    assert parse(e_phone.get(url(three))).by_id("confirm") is None  # nobody confirms what he cannot read
    show(e_phone, three, "E")
    page = e_phone.get(url(three))
    assert parse(page).by_id("confirm") is not None
    p = seats(three)
    response = e_phone.post(
        url(three), {"action": "confirm", "deal": 1, "number": p["N"].number, "pin": p["N"].pin}
    )
    assert response.status_code == 400  # the writer does not confirm his own deal
    response = e_phone.post(
        url(three), {"action": "confirm", "deal": 1, "number": p["E"].number, "pin": p["E"].pin}
    )
    assert response.status_code == 302
    deal.refresh_from_db()
    assert deal.status == "entered" and deal.confirmed_by == ["E"]
    Client().post(url(three), {"action": "confirm", "deal": 1, "number": p["S"].number, "pin": "1"})
    deal.refresh_from_db()
    assert deal.confirmed_by == ["E"]  # a wrong PIN confirms nothing
    s_phone = Client()
    show(s_phone, three, "S")
    s_phone.post(url(three), {"action": "confirm", "deal": 1, "number": p["S"].number, "pin": p["S"].pin})
    deal.refresh_from_db()
    assert deal.status == "confirmed"
    assert parse(s_phone.get(url(three))).find("form", class_="tb-form") is not None  # deal 2 may be written


def test_correcting_the_last_deal(client, three):
    client.post(url(three), deal_post(three, "N", confirm=others(three)))
    page = client.get(url(three) + "?correct=1")
    form = parse(page).one("form", class_="tb-form")
    assert form.one("input", name="correct").get("value") == "1"
    assert form.one("input", name="contract", value="6S").get("checked") is not None  # filled from the row
    assert "Правило (Кодекс 4.2.4, 4.2.7–4.2.10):" in words(page)
    assert "до момента заказа следующей игры" in words(page)  # R7: the 4.2.9 window is an approximation
    data = deal_post(three, "E", board=1, correct=1, t1="7", t2="1", reason="взятки")
    response = client.post(url(three), data)
    assert response.status_code == 302
    correction = PulkaCorrection.objects.get(table=three)
    # The row N typed gave E more whists than due: E gains, so E answers (Code 4.2.4, 4.2.7). E corrects his own
    # gain himself: his first warning stands at once, nobody else's click is involved.
    assert correction.warning and "E" in correction.warned and correction.pending is None
    assert not correction.penalty
    deal = PulkaDeal.objects.get(table=three, number=1)
    assert deal.status == "entered" and deal.row["declarer"][1] == 7
    # E fixes his own correction before anybody confirmed it: no warning, no penalty of its own
    client.post(url(three), deal_post(three, "E", board=1, correct=1, t1="6", t2="2"))
    last = PulkaCorrection.objects.filter(table=three).last()
    assert last is not None and not last.warning and not last.penalty and last.pending is None
    for seat in ("N", "S"):
        sheet.confirm_deal(table=three, number=1, participant=seats(three)[seat], now=timezone.now())
    page = client.get(url(three))
    assert "предупреждение" in parse(page).by_id("deal-1").text()
    assert english_phrases(words(page), *data_names(three)) == []
    # only the last deal, and not a deal that does not exist
    response = client.post(url(three), deal_post(three, "E", board=2, correct=2))
    assert response.status_code == 409 and PulkaCorrection.objects.filter(table=three).count() == 2


# -- the end ----------------------------------------------------------------------------------------------
def test_after_the_director_stops_the_table(client, four, director):
    play_table(four, random.Random(4), now=timezone.now(), deals=3)
    table_control.stop_table(table=four, user=director, now=timezone.now(), reason="time")
    show(client, four, "S")
    page = client.get(url(four))
    doc = parse(page)
    assert doc.find("form", class_="tb-form") is None and doc.by_id("confirm") is None
    text = words(page)
    assert "Остановлена судьёй" in text
    assert doc.find("div", class_="pk-clock") is None  # no round clock at a table that has finished
    final = doc.by_id("totals")
    assert final.one("h2").text() == "Итог пульки" and "предварительные" not in final.text()
    assert [tr.find("td").text()[0] for tr in doc.by_id("totals").find_all("tr")[1:]] == list(
        sheet.load_sheet(four).score().ranking.order
    )
    assert final.find("a", href=reverse("table:pulka_pdf", kwargs={"code": four.code})) is not None
    assert english_phrases(text, *data_names(four)) == []
    response = client.post(url(four), deal_post(four, "S"))
    assert response.status_code == 409 and PulkaDeal.objects.filter(table=four).count() == 3


def test_the_pdf_only_for_the_table_directors_or_after_the_round_once_published(client, three, director):
    play_table(three, random.Random(6), now=timezone.now())
    pdf = reverse("table:pulka_pdf", kwargs={"code": three.code})
    assert client.get(pdf).status_code == 403
    show(client, three, "S")
    response = client.get(pdf)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    boss = Client()
    boss.force_login(director)
    assert boss.get(pdf).status_code == 200
    tournament = three.round.tournament
    publish_to(tournament, Publication.PROVISIONAL, director, timezone.now())
    assert Client().get(pdf).status_code == 403  # published, but the round is still being played (§12.2.4)
    rounds.stop_round(pulka_round=three.round, user=director, now=timezone.now(), reason="время вышло")
    rounds.end_round(pulka_round=three.round, user=director, now=timezone.now())
    assert Client().get(pdf).status_code == 200


def test_the_code_lookup_sends_a_pulka_code_to_its_sheet(client, three):
    response = client.get(reverse("table:lookup"), {"code": three.code.lower()})
    assert response.status_code == 302 and response["Location"] == url(three)
    assert client.get(url(three).replace(three.code, three.code.lower())).status_code == 302
    assert client.get(reverse("table:pulka", kwargs={"code": "NOSUCH"})).status_code == 404


def test_the_live_preview(client, three):
    preview = reverse("table:pulka_preview", kwargs={"code": three.code})
    query = {k: v for k, v in deal_post(three).items() if k not in ("pin", "action")}
    assert client.get(preview, query).status_code == 403  # the sheet's rows only to its players
    show(client, three)
    data = client.get(preview, query).json()
    assert data["ok"] and [v["seat"] for v in data["vists"]] == ["N", "E", "S"]
    assert data["row"]["contract"] == "6S" and "raspasy_step" not in data["row"]
    data = client.get(preview, {**query, "t1": "9", "t2": "4"}).json()
    assert not data["ok"] and data["errors"]


def test_the_page_in_english(client, three):
    show(client, three)
    page = client.get(url(three), **EN)
    assert lang(page) == "en" and "Write deal 1" in words(page) and "Time left in the round" in words(page)


def test_the_russian_pages_have_no_english_phrases(client, four):
    assert english_phrases(words(client.get(url(four))), *data_names(four)) == []  # before identifying
    show(client, four)
    assert english_phrases(words(client.get(url(four))), *data_names(four)) == []  # the form and the sheet
    client.post(url(four), deal_post(four, "N"))
    page = client.get(url(four))
    assert parse(page).by_id("confirm") is not None
    assert english_phrases(words(page), *data_names(four)) == []  # awaiting confirmation


def test_only_the_players_of_the_table_open_it_or_write_on_it(client, three):
    p = seats(three)["N"]
    response = client.post(url(three), {"action": "show", "number": p.number, "pin": "0000"})
    assert response.status_code == 403 and parse(response).find("svg") is None
    assert (
        "Неверный номер или PIN, или этот участник не играет за этим столом в этом туре."
        in parse(response).by_id("unlock").text()
    )
    stranger = Participant.objects.create(
        tournament=three.round.tournament, number=9, name="Чужой", pin="9009"
    )
    response = client.post(url(three), {"action": "show", "number": 9, "pin": "9009"})
    assert response.status_code == 403 and parse(response).find("svg") is None
    response = client.post(url(three), {**deal_post(three), "writer": stranger.number, "pin": stranger.pin})
    assert response.status_code == 403 and not PulkaDeal.objects.exists()
    # a right PIN of someone not at this table is answered as a wrong one: the answer tells a guesser nothing
    assert "Неверный номер или PIN, или этот участник не играет за этим столом в этом туре." in words(
        response
    )
