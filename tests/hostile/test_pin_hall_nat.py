"""N3 (issue 29): one phone behind a hall's shared address must not lock the hall out. Only the pair (this
address on this participant) refuses: after one phone's misses on unknown numbers and one miss on every
participant, each participant's right PIN from the same address is accepted."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.hostile.pin_http import PROXY, api_login, show
from tests.table.factory import make_event, pin_of
from tournaments import pins
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

PLAYERS = range(1, 9)  # make_event: two tables of four


@pytest.fixture
def event(director, settings):
    settings.TRUSTED_PROXIES = (PROXY,)
    make_event(director=director)
    return Tournament.objects.get(slug="tt")


@pytest.mark.parametrize(
    ("phones", "proxied"),
    [
        (["192.0.2.30"], False),  # a NAT: every phone has the hall's one IPv4 address
        ([f"2001:db8:77:1::{i:x}" for i in range(1, 200)], True),  # the hall's IPv6 /64 through the proxy
    ],
)
def test_one_phones_misses_do_not_lock_the_hall_out(event, phones, proxied):
    def phone(i: int) -> str:
        return phones[i % len(phones)]

    for i in range(30):  # unknown numbers
        assert show(100 + i, "0000", phone(i), proxied=proxied, code="TAB1TT").status_code in (403, 429)
    for n in PLAYERS:  # then one miss on each participant
        assert show(n, "0000", phone(n), proxied=proxied).status_code == 403
    for n in PLAYERS:  # each player's right PIN from the same address: in
        assert show(n, pin_of(n), phone(n + 50), proxied=proxied).status_code == 302, n
        assert api_login(n, pin_of(n), phone(n + 90), proxied=proxied).status_code == 200, n


def test_the_pair_still_refuses_the_right_pin_and_the_director_sees_and_clears_it(event, dclient):
    hall = "192.0.2.31"
    for _ in range(pins.PER_CLIENT):
        assert show(4, "0000", hall, proxied=False).status_code == 403
    assert show(4, pin_of(4), hall, proxied=False).status_code == 429  # the pair is over: not compared
    assert show(5, pin_of(5), hall, proxied=False).status_code == 302  # the rest of the hall is in
    page = reverse("director:pins", kwargs={"slug": event.slug})
    body = dclient.get(page).content.decode()
    assert "неверных попыток за сутки: 5" in body  # the PIN list shows the participant's misses
    dclient.post(reverse("director:pin_unlock", kwargs={"slug": event.slug}), {"number": 4})
    assert show(4, pin_of(4), hall, proxied=False).status_code == 302
