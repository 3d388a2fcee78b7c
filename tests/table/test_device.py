"""The device memory, one typed interface for both forms (``table.device.DeviceTable``): a phone that showed a
player's number and PIN at a duplicate table or at a pulka table is remembered for that table and its round only;
the two forms' tables never share a memory, even with the same primary key."""

from __future__ import annotations

import pytest
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse

from duplicate import at_table
from table.device import DeviceTable, forget, remember, remembered, viewer
from table.pulka_page import load_page
from tests.pulkas.test_table_page import make_table
from tests.table.factory import make_event, pin_of
from tournaments.models import Participant, Round, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def tables(director):
    make_event(director=director)
    return Table.objects.get(code="TAB1TT"), make_table(director, 3)


def devices(tables) -> tuple[DeviceTable, DeviceTable]:  # type: ignore[no-untyped-def]
    duplicate, pulka = tables
    return DeviceTable.duplicate(at_table.table_state(duplicate)), load_page(pulka).device


def test_both_forms_give_the_device_memory_the_same_three_things(tables):
    duplicate, pulka = tables
    at_duplicate, at_pulka = devices(tables)
    assert at_duplicate.key == str(duplicate.pk) and at_pulka.key == f"pulka-{pulka.pk}"
    assert at_duplicate.cookie != at_pulka.cookie  # apart, whatever the primary keys
    assert at_duplicate.round_pk == Round.objects.get(session=duplicate.session, number=1).pk
    assert at_pulka.round_pk == pulka.round_id
    assert sorted(at_duplicate.seats) == ["E", "N", "S", "W"] and sorted(at_pulka.seats) == ["E", "N", "S"]


def test_a_remembered_player_is_known_at_his_table_only(tables):
    at_duplicate, at_pulka = devices(tables)
    factory = RequestFactory()
    for table, other in ((at_duplicate, at_pulka), (at_pulka, at_duplicate)):
        player = table.seats["N"]
        response = HttpResponse()
        remember(factory.get("/"), response, table, player)
        request = factory.get("/")
        request.COOKIES[table.cookie] = response.cookies[table.cookie].value
        assert viewer(request, table) == player and remembered(request, table, "N") == player
        assert remembered(request, table, "E") is None  # he sits at N, not E
        assert viewer(request, other) is None  # the other form's table knows nobody
        later = DeviceTable(table.key, (table.round_pk or 0) + 1000, table.seats)
        assert viewer(request, later) is None  # another round forgets him
        gone = HttpResponse()
        forget(gone, table)
        assert gone.cookies[table.cookie].value == ""


def test_the_pages_remember_a_player_through_the_same_memory(tables):
    duplicate, pulka = tables
    phone = Client()
    shown = phone.post(
        reverse("table:entry", kwargs={"code": duplicate.code}),
        {"action": "show", "number": 1, "pin": pin_of(1)},
    )
    assert shown.status_code == 302
    page = phone.get(reverse("table:entry", kwargs={"code": duplicate.code}))
    assert page.context["viewer"] == Participant.objects.get(
        tournament=duplicate.session.tournament, number=1
    )
    sheet = reverse("table:pulka", kwargs={"code": pulka.code})
    assert phone.get(sheet).context["viewer"] is None  # the duplicate table's player is nobody here
    writer = pulka.seats()["N"]
    assert (
        phone.post(sheet, {"action": "show", "number": writer.number, "pin": writer.pin}).status_code == 302
    )
    assert phone.get(sheet).context["viewer"] == writer
    # both remembered at once, each at his own table
    assert phone.get(reverse("table:entry", kwargs={"code": duplicate.code})).context["viewer"].number == 1
    signed = phone.cookies[devices(tables)[1].cookie].value
    assert signed.startswith(f"{writer.pk}:{pulka.round_id}:")  # participant and round, then the signature
