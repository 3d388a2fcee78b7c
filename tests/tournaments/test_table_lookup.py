"""One table-code lookup for both forms (``events.tables.find_table``): every channel — the «Your table» form, the
duplicate table's page, the pulka sheet's page, the API's player header and its pulka table views — finds a table
of either form by its code with the same normalisation, counts unknown codes against one allowance per client and
refuses in the same words; and a new code is unique across both forms."""

from __future__ import annotations

import io

import pytest
import segno
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from duplicate.seating import apply_movement, movement_for
from events.tables import TableUnknown, find_table, player_at
from pulkas.models import PulkaTable
from tests.pulkas.test_table_page import make_table
from tests.table.factory import make_event, pin_of
from tournaments import ratelimit
from tournaments.errors import TooManyAttempts
from tournaments.models import Table
from tournaments.pins import WrongPin
from tournaments.table_codes import code_in_use, unused_table_code

pytestmark = pytest.mark.django_db
EN = {"headers": {"accept-language": "en"}}
CLIENT = "127.0.0.1"  # the test client's address


@pytest.fixture
def tables(director) -> dict[str, Table | PulkaTable]:
    """A duplicate table (code TAB1TT) and a pulka table (a drawn code), in two events."""
    make_event(director=director)
    return {"duplicate": Table.objects.get(code="TAB1TT"), "pulka": make_table(director, 3)}


def typed(code: str) -> list[str]:
    """A code as players type it: as printed, in small letters, with spaces, with a dash."""
    return [code, code.lower(), f" {code[:3]} {code[3:]} ", f"{code[:3]}-{code[3:].lower()}"]


@pytest.mark.parametrize("kind", ["duplicate", "pulka"])
def test_one_lookup_finds_a_table_of_either_form_however_its_code_is_typed(tables, kind):
    table = tables[kind]
    for text in typed(table.code):
        found = find_table(text, client=CLIENT)
        assert type(found) is type(table) and found.pk == table.pk, text


@pytest.mark.parametrize("kind", ["duplicate", "pulka"])
def test_every_address_opens_the_tables_own_page(tables, kind):
    table = tables[kind]
    own = reverse("table:pulka" if kind == "pulka" else "table:entry", kwargs={"code": table.code})
    client = Client()
    for url in (
        f"{reverse('table:lookup')}?code={table.code.lower()}",  # the «Your table» form
        reverse("table:entry", kwargs={"code": table.code.lower()}),
        reverse("table:pulka", kwargs={"code": table.code.lower()}),
    ):
        response = client.get(url, **EN)
        assert response.status_code == 302 and response["Location"] == own, url
    assert client.get(own, **EN).status_code == 200
    qr = client.get(
        reverse("table:qr", kwargs={"code": table.code})
    )  # the table card's QR opens the same page
    drawn = io.BytesIO()
    segno.make(f"http://testserver{own}", error="m").save(
        drawn, kind="svg", scale=8, border=2, title=table.code
    )
    assert qr.status_code == 200 and qr.content == drawn.getvalue()


def test_unknown_codes_are_counted_once_per_client_whichever_channel_they_come_through(tables):
    pages, api = Client(), APIClient()
    channels = [
        lambda i: pages.get(f"{reverse('table:lookup')}?code=NOPE{i}", **EN),
        lambda i: pages.get(reverse("table:entry", kwargs={"code": f"NOPE{i}"}), **EN),
        lambda i: pages.get(reverse("table:pulka", kwargs={"code": f"NOPE{i}"}), **EN),
        lambda i: api.get(f"/api/pulka/tables/NOPE{i}/", HTTP_ACCEPT_LANGUAGE="en"),
        lambda i: api.get(
            "/api/results/", HTTP_AUTHORIZATION=f"Player NOPE{i}:1:1001", HTTP_ACCEPT_LANGUAGE="en"
        ),
    ]
    words = set()
    for i in range(ratelimit.UNKNOWN_CODES_PER_WINDOW):
        response = channels[i % len(channels)](i)
        assert response.status_code in (401, 404), (i, response.status_code)
        words.add(_message(response))
    # the same refusal in every channel
    assert words == {"There is no table with this code. Check the table card."}
    for i, channel in enumerate(channels):
        response = channel(100 + i)
        assert response.status_code == 429, i
        assert "Too many unknown table codes" in _message(response)
    # a known code always opens its table, of either form
    for table in tables.values():
        assert find_table(table.code, client=CLIENT).code == table.code


def _message(response) -> str:  # type: ignore[no-untyped-def]
    if response["Content-Type"].startswith("application/json"):
        return response.json()["error"]["message"]
    return str(response.context["error"])


def test_the_refusals_say_the_same_in_the_services(tables):
    with pytest.raises(TableUnknown) as unknown:
        find_table("", client="10.0.0.1")
    assert unknown.value.status == 404 and unknown.value.code == "table_unknown"
    for i in range(ratelimit.UNKNOWN_CODES_PER_WINDOW - 1):  # an empty code was one of them
        with pytest.raises(TableUnknown):
            find_table(f"NOPE{i}", client="10.0.0.1")
    with pytest.raises(TooManyAttempts) as limited:
        find_table("NOPE", client="10.0.0.1")
    assert limited.value.status == 429 and limited.value.code == "too_many_codes"
    with pytest.raises(TableUnknown):  # another client has his own allowance
        find_table("NOPE", client="10.0.0.2")


def test_a_pin_answers_only_at_the_players_own_table(tables):
    pulka = tables["pulka"]
    mine = next(iter(pulka.seats().values()))
    assert player_at(pulka, number=mine.number, pin=mine.pin, client=CLIENT) == mine
    with pytest.raises(WrongPin):
        player_at(pulka, number=mine.number, pin="0000", client=CLIENT)
    duplicate = tables["duplicate"]
    assert player_at(duplicate, number=1, pin=pin_of(1), client=CLIENT).number == 1
    with pytest.raises(
        WrongPin
    ):  # participant 5 sits at table 2 in the running round: his right PIN is refused
        player_at(duplicate, number=5, pin=pin_of(5), client=CLIENT)


class Scripted:
    """An ``rng`` that draws the characters of the given codes, in order."""

    def __init__(self, *codes: str) -> None:
        self.chars = iter("".join(codes))

    def choice(self, alphabet: str) -> str:
        return next(self.chars)


def test_a_new_code_is_unique_across_both_forms(tables):
    duplicate, pulka = tables["duplicate"].code, tables["pulka"].code
    assert code_in_use(duplicate) and code_in_use(pulka) and not code_in_use("ZZZZZZ")
    assert unused_table_code(Scripted(pulka, duplicate, "ZZZZZZ")) == "ZZZZZZ"  # type: ignore[arg-type]
    # a duplicate session seated by its movement: the code a pulka table holds is drawn again
    session = tables["duplicate"].session
    spec = {"scheme": "basic", "tables": 2}
    seats = movement_for(session, spec)
    Table.objects.filter(session=session).delete()
    apply_movement(
        session=session,
        movement=seats,
        spec=spec,
        rng=Scripted(pulka, "YYYYYY", "XXXXXX"),
        now=timezone.now(),
    )
    assert sorted(Table.objects.filter(session=session).values_list("code", flat=True)) == [
        "XXXXXX",
        "YYYYYY",
    ]
