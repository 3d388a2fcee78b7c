"""The appeals pages that correct a pulka deal take the deal's row as the director's sheet does, by the phone's rule
(ui.typed_row): two trick counts typed and the third computed, a deal nobody whisted without trick counts; a wrong
pair of counts is refused, the field named in words, and nothing changes. Through the correction's page and the
ruling's page, as the browser posts the form (tests/row_forms.py)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from appeals.models import Correction, Irregularity, ScoreChange
from pulkas.models import PulkaDeal
from pulkas.services import sheet
from tests.html import visible_text
from tests.row_forms import as_browser
from tournaments.refusals import Refusal, refusal_message

from .pulka_event import event_with_round_one

pytestmark = pytest.mark.django_db


@pytest.fixture
def e(director):
    """Round 1 (two tables of four, Sochi) ended a minute ago: corrections may be asked for."""
    return event_with_round_one(director, ended=timezone.now() - dt.timedelta(minutes=1))


def url(name, e, **kw):
    return reverse(name, kwargs={"slug": e.t.slug, **kw})


def asked_correction(client, e, deal: int) -> Correction:
    """Player S of table 1 asks for a correction of ``deal`` on his page; the director then opens it."""
    player = e.seat(e.table, "S")
    client.post(url("appeals:player", e), {"number": player.number, "pin": player.pin})
    client.post(
        url("appeals:player", e),
        {"action": "correction", "table": "1-1", "deal": str(deal), "description": "не те взятки"},
    )
    client.logout()
    client.force_login(e.director)
    return Correction.objects.get(deal_number=deal)


def hands(e, number: int) -> tuple[str, str, str]:
    setup = sheet.load_sheet(e.table).setup
    dealer = setup.dealer(number)
    declarer, d1, d2 = [s for s in setup.seats if s != dealer][:3]
    return declarer, d1, d2


def test_the_correction_page_computes_the_third_count_and_names_a_wrong_pair(client, e):
    c = asked_correction(client, e, 1)
    page = url("appeals:correction", e, pk=c.pk)
    declarer, d1, d2 = hands(e, 1)
    before = PulkaDeal.objects.get(table=e.table, number=1).row
    wrong = as_browser(client.get(page), "row-contract", declarer_tricks=8, w1_tricks=5, w2_tricks="")
    shown = visible_text(client.post(page, wrong, follow=True))
    with translation.override("ru"):
        total = refusal_message(Refusal("tricks_total", "declarer", "", {"total": 13, "tricks": [8, 5]}))
    assert f"Первый вистующий (распасы: вторая рука): {total}" in shown  # the field, in words
    c.refresh_from_db()
    assert c.status == Correction.Status.REQUESTED
    assert PulkaDeal.objects.get(table=e.table, number=1).row == before
    data = as_browser(client.get(page), "row-contract", declarer_tricks=7, w1_tricks=1, w2_tricks="")
    client.post(page, data)
    c.refresh_from_db()
    assert c.status == Correction.Status.APPLIED
    row = PulkaDeal.objects.get(table=e.table, number=1).row
    assert [row[k] for k in ("declarer", "w1", "w2")] == [[declarer, 7], [d1, 1], [d2, 2]]


def test_the_correction_page_writes_a_deal_nobody_whisted_without_counts(client, e):
    c = asked_correction(client, e, 2)
    page = url("appeals:correction", e, pk=c.pk)
    declarer, d1, d2 = hands(e, 2)
    data = as_browser(
        client.get(page),
        "row-contract",
        call1="pass",
        call2="pass",
        play="",
        declarer_tricks="",
        w1_tricks="",
        w2_tricks="",
    )
    client.post(page, data)
    c.refresh_from_db()
    assert c.status == Correction.Status.APPLIED
    row = PulkaDeal.objects.get(table=e.table, number=2).row
    assert [row[k] for k in ("declarer", "w1", "w2")] == [[declarer, 10], [d1, 0], [d2, 0]]
    assert row["calls"] == {d1: "pass", d2: "pass"} and row.get("play", "none") == "none"


def test_the_ruling_page_proposes_a_row_with_the_third_count_computed(client, e):
    client.force_login(e.director)
    client.post(
        url("appeals:ruling-new", e),
        {"kind": "procedural", "round": 1, "table": 1, "deal": 3, "description": "посмотрел прикуп"},
    )
    irr = Irregularity.objects.get()
    page = url("appeals:ruling", e, pk=irr.pk)
    data = as_browser(client.get(page), "row-contract", declarer_tricks=5, w1_tricks=3, w2_tricks="")
    client.post(page, data | {"action": "revise_row"})
    change = irr.changes.get()
    assert change.kind == ScoreChange.Kind.ROW and change.values["w2"][1] == 2
