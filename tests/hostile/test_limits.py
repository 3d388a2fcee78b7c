"""Guessing limits (issue 18): PIN tries counted per participant as the tournament knows him, atomically and in
the database; the same answer for a right PIN at the wrong table; a guesser slowed without locking out his
victim; addresses taken from a proxy only when it is trusted; director and admin logins throttled."""

from __future__ import annotations

import logging
import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from tests.table.factory import make_event, pin_of
from tournaments import pins
from tournaments.models import Tournament
from tournaments.pins import client_ip

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
WRONG = "Wrong number or PIN, or this participant does not play at this table in this round."


@pytest.fixture
def event(db, director):
    make_event(director=director)
    return Tournament.objects.get(slug="tt")


def table_url(code: str = "TAB1TT") -> str:
    return reverse("table:entry", kwargs={"code": code})


def show(number, pin, *, code="TAB1TT", ip="10.0.0.1", client=None):
    """«Show the rows» on a table page: a participant identifies with number and PIN from address ``ip``."""
    return (client or Client()).post(
        table_url(code), {"action": "show", "number": number, "pin": pin}, REMOTE_ADDR=ip, **EN
    )


def appeals_login(event, number, pin, *, ip="10.0.0.1", client=None):
    url = reverse("appeals:player", kwargs={"slug": event.slug})
    return (client or Client()).post(url, {"number": number, "pin": pin}, REMOTE_ADDR=ip, **EN)


def error_of(response) -> str:
    return str(response.context["unlock_error"])


def misses(event, number, ip) -> int:
    key = f"pin:{event.pk}:{number}:from:{ip}"
    return pins.counts(key).get(key, 0)


# -- one participant, one count -------------------------------------------------------------------------
def test_spellings_tables_and_pages_share_one_count_per_participant(event):
    typed = [("1", "TAB1TT"), ("01", "TAB2TT"), ("001", "TAB1TT"), ("0001", "TAB2TT")]
    for number, code in typed:
        assert show(number, "0000", code=code).status_code == 403
    assert appeals_login(event, " 01 ", "0000").status_code == 200  # the appeals page: refused too
    assert misses(event, 1, "10.0.0.1") == pins.PER_CLIENT
    # the right PIN from this address is refused now, at either table and on the appeals page alike
    assert show("1", pin_of(1)).status_code == 429
    assert show("01", pin_of(1), code="TAB2TT").status_code == 429
    assert "appeals.player" not in str(dict(appeals_login(event, 1, pin_of(1)).wsgi_request.session))


def test_a_right_pin_at_the_wrong_table_is_answered_as_a_wrong_pin_and_counted(event):
    elsewhere = show(5, pin_of(5))  # participant 5 plays at table 2
    wrong = show(1, "9999")
    assert elsewhere.status_code == wrong.status_code == 403
    assert error_of(elsewhere) == error_of(wrong) == WRONG
    assert misses(event, 5, "10.0.0.1") == 1
    # the API's player token: the same answer for both
    from tests.table.factory import player_auth  # noqa: PLC0415
    from tournaments.models import Table  # noqa: PLC0415

    table = Table.objects.get(code="TAB1TT")
    answers = [
        Client().get("/api/results/", HTTP_AUTHORIZATION=player_auth(table, n, pin), REMOTE_ADDR="10.0.0.9")
        for n, pin in ((5, pin_of(5)), (2, "9999"))
    ]
    assert [a.status_code for a in answers] == [401, 401]
    assert answers[0].json()["error"] == answers[1].json()["error"]
    # the right PIN at his own table still works
    assert show(5, pin_of(5), code="TAB2TT").status_code == 302


# -- the victim is not locked out --------------------------------------------------------------------------
def test_misses_from_other_addresses_below_the_ceiling_do_not_lock_out_the_victim(event):
    # guessers at many addresses, one miss each, up to one short of participant 3's ceiling
    for i in range(pins.CEILING - 1):
        assert show(3, f"{9000 + i}", ip=f"10.1.0.{i}").status_code == 403
    # the victim, from his own phone's address, with the right PIN: in
    assert show(3, pin_of(3), ip="10.3.0.1").status_code == 302
    # an address with one miss of its own is refused only by its pair: the right PIN gets in (issue 29, N3)
    assert show(3, pin_of(3), ip="10.1.0.0").status_code == 302
    # and everybody else at the guessers' addresses is untouched
    assert show(2, pin_of(2), ip="10.1.0.0").status_code == 302


def test_one_phone_behind_a_shared_address_cannot_lock_the_hall(event):
    hall = "192.0.2.10"  # every phone of the hall behind one NAT address
    for number in (1, 2, 3):  # one phone guesses three players' PINs until refused
        for _ in range(pins.PER_CLIENT):
            show(number, "0000", ip=hall)
        assert show(number, "0000", ip=hall).status_code == 429
    assert show(4, pin_of(4), ip=hall).status_code == 302  # the rest of the hall: in
    assert show(6, pin_of(6), code="TAB2TT", ip=hall).status_code == 302
    assert Client().get(table_url("TAB2TT"), REMOTE_ADDR=hall).status_code == 200  # codes still open


def test_a_hall_behind_one_address_opens_its_tables_after_another_phones_misses(director):
    """One phone behind the hall's NAT types 30 unknown codes; twelve phones at that address still open their own
    tables — page, code box, PIN, the APIs, the pulka sheet — and only a further unknown code is refused."""
    from rest_framework.test import APIClient

    from tests.pulkas.test_table_page import make_table
    from tournaments.ratelimit import UNKNOWN_CODES_PER_WINDOW

    make_event(director=director, tables=12, slug="hall")
    pulka = make_table(director, 3)
    hall = "192.0.2.20"
    for i in range(UNKNOWN_CODES_PER_WINDOW // 2):  # the table pages and the pulka pages count together
        assert Client().get(table_url(f"NOPE{i:02d}"), REMOTE_ADDR=hall).status_code == 404
        assert Client().get(f"/pulka/MISS{i:02d}/", REMOTE_ADDR=hall).status_code == 404
    assert Client().get(table_url("NOPE99"), REMOTE_ADDR=hall).status_code == 429
    assert Client().get("/pulka/MISS99/", REMOTE_ADDR=hall).status_code == 429
    for i in range(1, 13):  # twelve phones, one per table
        code = f"TAB{i}HALL"
        assert Client().get(table_url(code), REMOTE_ADDR=hall).status_code == 200, code
        assert Client().get(f"/table/?code={code.lower()}", REMOTE_ADDR=hall).url == table_url(code)
    assert show(4 * 11 + 1, pin_of(4 * 11 + 1), code="TAB12HALL", ip=hall).status_code == 302
    assert Client().get(f"/pulka/{pulka.code}/", REMOTE_ADDR=hall).status_code == 200
    assert Client().get(f"/table/?code={pulka.code}", REMOTE_ADDR=hall).url == f"/pulka/{pulka.code}/"
    api = APIClient(REMOTE_ADDR=hall, HTTP_ACCEPT_LANGUAGE="en")
    api.credentials(HTTP_AUTHORIZATION=f"Player {pulka.code}:1:1001")
    assert api.get(f"/api/pulka/tables/{pulka.code}/").status_code == 200
    api.credentials(HTTP_AUTHORIZATION="Player NOPE77:1:1001")
    assert api.get("/api/pulka/tables/NOPE77/").status_code == 429


def test_a_right_pin_gives_its_try_back(event):
    for _ in range(pins.PER_CLIENT - 1):
        show(1, "0000")
    for _ in range(3):  # the player then types his PIN right, again and again
        assert show(1, pin_of(1)).status_code == 302
    assert misses(event, 1, "10.0.0.1") == pins.PER_CLIENT - 1


# -- at once ----------------------------------------------------------------------------------------------
postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="a meaningful race needs PostgreSQL's concurrent writers"
)


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_forty_tries_at_once_compare_at_most_the_limit(director, monkeypatch):
    monkeypatch.setattr(pins, "PER_CLIENT", 10)
    make_event(director=director)
    event = Tournament.objects.get(slug="tt")
    answers: list[str] = [""] * 40
    start = threading.Barrier(40)

    def guess(i: int) -> None:
        try:
            start.wait(timeout=30)
            # the body, not ``response.context``: the test client's template signal mixes threads' contexts
            answers[i] = appeals_login(event, 1, f"{5000 + i}").content.decode()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    compared = [a for a in answers if "Wrong participant number or PIN." in a]
    refused = [a for a in answers if "Too many wrong PINs" in a]
    assert len(compared) <= 10 and len(compared) + len(refused) == 40
    assert misses(event, 1, "10.0.0.1") == 10


# -- the client's address -----------------------------------------------------------------------------------
def test_the_address_comes_from_a_proxy_only_when_it_is_trusted(rf, settings):
    spoofed = rf.get("/", REMOTE_ADDR="203.0.113.7", HTTP_X_FORWARDED_FOR="10.9.9.9")
    settings.TRUSTED_PROXIES = ()
    assert client_ip(spoofed) == "203.0.113.7"  # nobody trusted: the header is ignored
    settings.TRUSTED_PROXIES = ("127.0.0.1", "10.0.0.0/8")
    assert client_ip(spoofed) == "203.0.113.7"  # not from a trusted proxy: ignored
    proxied = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.4, 10.0.0.5")
    assert (
        client_ip(proxied) == "198.51.100.4"
    )  # the first address a trusted proxy did not add; 6.6.6.6 is forged
    assert client_ip(rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="junk")) == "127.0.0.1"
    assert client_ip(rf.get("/", REMOTE_ADDR="127.0.0.1")) == "127.0.0.1"


def test_behind_a_trusted_proxy_phones_are_counted_apart(event, settings):
    settings.TRUSTED_PROXIES = ("127.0.0.1",)

    def via_proxy(number, pin, phone):
        return Client().post(
            table_url(),
            {"action": "show", "number": number, "pin": pin},
            REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_FOR=phone,
            **EN,
        )

    for _ in range(pins.PER_CLIENT):
        via_proxy(1, "0000", "198.51.100.1")
    assert via_proxy(1, pin_of(1), "198.51.100.1").status_code == 429
    assert via_proxy(1, pin_of(1), "198.51.100.2").status_code == 302


# -- director and admin logins --------------------------------------------------------------------------------
def login(url, username, password, ip, lang="en"):
    return Client().post(
        url, {"username": username, "password": password}, REMOTE_ADDR=ip, HTTP_ACCEPT_LANGUAGE=lang
    )


@pytest.mark.parametrize("url", ["/accounts/login/", "/admin/login/"])
def test_logins_are_throttled_without_an_oracle_or_a_lockout(db, url, caplog):
    get_user_model().objects.create_user("boss", password="right-pw-1", is_staff=True, is_superuser=True)
    for _ in range(5):
        assert login(url, "boss", "wrong", "10.5.0.1").status_code == 200
    with caplog.at_level(logging.WARNING, logger="preferans.security"):
        refused = login(url, "boss", "right-pw-1", "10.5.0.1")  # the right password, too late: refused alike
    assert refused.status_code == 200 and "_auth_user_id" not in refused.wsgi_request.session
    assert "Too many failed logins. Wait ten minutes and try again." in refused.content.decode()
    assert "too many failures" in caplog.text and "boss" in caplog.text and "10.5.0.1" in caplog.text
    ru = login(url, "boss", "right-pw-1", "10.5.0.1", lang="ru")
    assert "Слишком много неудачных попыток входа" in ru.content.decode()
    # guessers at other addresses use up the username's allowance; the director at his own address gets in
    for i in range(10):
        login(url, "boss", f"guess-{i}", f"10.6.0.{i}")
    assert "Too many failed logins" in login(url, "boss", "right-pw-1", "10.6.0.1").content.decode()
    assert login(url, "boss", "right-pw-1", "10.7.0.1").status_code == 302
