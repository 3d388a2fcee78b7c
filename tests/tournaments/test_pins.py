"""One PIN check for every channel (tournaments.pins): the table, the API and the appeals page count wrong
guesses together, per client and per participant, whatever way the number is typed or the table it is typed at."""

from __future__ import annotations

import pytest
from django.urls import reverse

from duplicate import at_table
from duplicate.at_table import TableRefused
from tests.table.factory import make_event, pin_of
from tournaments.errors import TooManyAttempts
from tournaments.models import Table, Tournament
from tournaments.pins import CEILING, PER_CLIENT, WrongPin, participant_number, pin_holder

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(director):
    make_event(director=director)
    return Tournament.objects.get(slug="tt")


@pytest.mark.parametrize(
    ("typed", "number"),
    [
        ("7", 7),
        (" 07 ", 7),
        (7, 7),
        ("0", None),
        ("-1", None),
        ("1e3", None),
        ("2147483648", None),
        ("", None),
        (None, None),
    ],
)
def test_the_number_is_read_as_the_tournament_knows_it(typed, number):
    assert participant_number(typed) == number


def test_the_right_pin_finds_the_participant_and_a_wrong_one_is_refused(event):
    assert pin_holder(event, number="01", pin=pin_of(1), client="a").number == 1
    for pin in ("0000", "", None, pin_of(2), pin_of(1) + "x" * 100):
        with pytest.raises(WrongPin):
            pin_holder(event, number=1, pin=pin, client="a")


def test_guesses_for_one_participant_count_together_across_tables_spellings_and_clients(event):
    table1, table2 = (at_table.table_state(Table.objects.get(code=c)) for c in ("TAB1TT", "TAB2TT"))
    spellings = ["1", "01", "001", " 1", "0001"]
    for i in range(CEILING):
        state = table1 if i % 2 else table2
        with pytest.raises(TableRefused):  # a different client each time, alternating tables and spellings
            at_table.identify(state=state, number=spellings[i % len(spellings)], pin="0000", ip=f"10.0.0.{i}")
    # the ceiling: participant 1 is locked, the right PIN refused from a client that missed and a fresh one
    for client in ("10.0.0.1", "fresh"):
        with pytest.raises(TooManyAttempts):
            pin_holder(event, number=1, pin=pin_of(1), client=client)
    # nobody else is locked, at the guessers' addresses either
    assert pin_holder(event, number=2, pin=pin_of(2), client="10.0.0.1").number == 2


def test_the_appeals_page_and_the_table_share_the_count(event, client):
    url = reverse("appeals:player", kwargs={"slug": event.slug})
    for _ in range(PER_CLIENT):
        assert client.post(url, {"number": 3, "pin": "0000"}).status_code == 200
    state = at_table.table_state(Table.objects.get(code="TAB1TT"))
    with pytest.raises(TableRefused) as info:  # the same client (127.0.0.1) at the table
        at_table.identify(state=state, number=3, pin=pin_of(3), ip="127.0.0.1")
    assert info.value.status == 429 and info.value.code == "too_many_pins"
