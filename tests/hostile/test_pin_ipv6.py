"""N2 (issue 29): PIN guesses from many IPv6 addresses. A client is counted per /64 (every address of one
network is one client), and a participant has a ceiling of misses from every address together: past it he is
locked — the right PIN too, from anywhere — until the director clears the lock on the PIN list or dashboard."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from django.urls import reverse

from tests.hostile.pin_http import PROXY, api_login, net64, show
from tests.table.factory import make_event, pin_of
from tournaments import pins
from tournaments.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(director, settings):
    settings.TRUSTED_PROXIES = (PROXY,)
    make_event(director=director)
    return Tournament.objects.get(slug="tt")


def test_forty_addresses_of_one_64_get_the_tries_of_one_client(event):
    answers = [show(1, f"{5000 + i}", f"2001:db8:1:2::{i + 1:x}").status_code for i in range(39)]
    assert answers.count(403) == pins.PER_CLIENT  # compared: one client's tries, no more
    assert answers.count(429) == 39 - pins.PER_CLIENT  # refused before the PIN is looked at
    assert show(1, pin_of(1), "2001:db8:1:2::40").status_code == 429  # the right PIN on the 40th address
    assert api_login(1, pin_of(1), "2001:db8:1:2:ffff::1").status_code == 429  # the API alike
    # another network (the player's own phone) is a client of its own
    assert show(1, pin_of(1), "2001:db8:9:9::1").status_code == 302
    # an IPv4-mapped address is the IPv4 address
    assert pins.client_key("::ffff:192.0.2.1") == "192.0.2.1"
    assert pins.client_key("2001:db8:1:2:aaaa::7") == "2001:db8:1:2::/64"


def test_a_ceiling_no_new_address_lifts_locks_the_participant_until_the_director_clears_it(event, dclient):
    answers = [show(1, f"{5000 + i}", net64(i)).status_code for i in range(39)]
    assert answers.count(403) == pins.CEILING  # compared: the ceiling, from forty networks together
    assert answers.count(429) == 39 - pins.CEILING
    assert show(1, pin_of(1), net64(39)).status_code == 429  # a fresh network, the right PIN: locked
    assert api_login(1, pin_of(1), net64(40)).status_code == 429
    assert show(2, pin_of(2), net64(39)).status_code == 302  # nobody else is locked

    text = f"PIN игрока 1 заблокирован после {pins.CEILING} неверных попыток"
    pins_page = reverse("director:pins", kwargs={"slug": event.slug})
    dashboard = reverse("director:dashboard", kwargs={"slug": event.slug})
    for page in (pins_page, dashboard):
        body = dclient.get(page).content.decode()
        assert text in body and "Снять блокировку" in body
    unlock = reverse("director:pin_unlock", kwargs={"slug": event.slug})
    assert dclient.get(unlock).status_code == 405  # a POST only
    assert dclient.post(unlock, {"number": 1, "back": "dashboard"}).url == dashboard
    assert text not in dclient.get(pins_page).content.decode()
    entry = AuditEntry.objects.get(tournament=event, action="participant.pin_unlock")
    assert entry.actor == "director" and entry.data["number"] == 1 and entry.data["misses"] == pins.CEILING
    assert show(1, pin_of(1), net64(39)).status_code == 302  # the player is in again
    assert api_login(1, pin_of(1), net64(40)).status_code == 200


def test_only_a_director_of_the_event_clears_a_lock(event, client, other_user):
    for i in range(pins.CEILING):
        show(3, "0000", net64(i))
    unlock = reverse("director:pin_unlock", kwargs={"slug": event.slug})
    assert client.post(unlock, {"number": 3}).status_code in (302, 403)  # anonymous: to the login page
    client.force_login(other_user)
    assert client.post(unlock, {"number": 3}).status_code in (403, 404)
    assert show(3, pin_of(3), net64(99)).status_code == 429  # still locked
    assert not AuditEntry.objects.filter(action="participant.pin_unlock").exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a meaningful race needs concurrent writers")
@pytest.mark.django_db(transaction=True)
def test_forty_networks_at_once_compare_at_most_the_ceiling(director, settings):
    settings.TRUSTED_PROXIES = (PROXY,)
    make_event(director=director)
    answers = [0] * 40
    start = threading.Barrier(40)

    def guess(i: int) -> None:
        try:
            start.wait(timeout=30)
            answers[i] = show(1, f"{5000 + i}", net64(i)).status_code
        finally:
            connections.close_all()

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert answers.count(403) <= pins.CEILING and answers.count(403) + answers.count(429) == 40
    assert show(1, pin_of(1), net64(99)).status_code == 429


def test_a_pulka_events_rounds_page_shows_the_lock_and_clears_it(director, settings, dclient):
    """A pulka event's dashboard is its rounds page: the lock of a player guessed at through the pulka API."""
    from rest_framework.test import APIClient  # noqa: PLC0415

    from tests.pulkas.test_table_page import make_table  # noqa: PLC0415

    settings.TRUSTED_PROXIES = (PROXY,)
    table = make_table(director, 3)
    slug = table.round.tournament.slug

    def read(pin: str, i: int) -> int:
        api = APIClient(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=net64(i), HTTP_ACCEPT_LANGUAGE="en")
        api.credentials(HTTP_AUTHORIZATION=f"Player {table.code}:1:{pin}")
        return api.get(f"/api/pulka/tables/{table.code}/").status_code

    assert [read("9999", i) for i in range(pins.CEILING + 5)].count(401) == pins.CEILING
    assert read("1001", 500) == 429
    rounds = reverse("director:pulka_rounds", kwargs={"slug": slug})
    assert f"PIN игрока 1 заблокирован после {pins.CEILING}" in dclient.get(rounds).content.decode()
    unlock = reverse("director:pin_unlock", kwargs={"slug": slug})
    assert dclient.post(unlock, {"number": 1, "back": "pulka_rounds"}).url == rounds
    assert read("1001", 500) == 200
