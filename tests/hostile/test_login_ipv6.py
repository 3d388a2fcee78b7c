"""N2 for logins (issue 29): failed director/admin logins are counted per /64 network, and a username has a
ceiling of failures from every address together: past it the username is locked (the right password too)
for an hour, or until an administrator deletes the lock in the admin (``tournaments.Strike``)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from config import login_throttle
from tests.hostile.pin_http import PROXY, net64
from tournaments.models import Strike

pytestmark = pytest.mark.django_db

WRONG = "correct username and password"
LOCKED = "Too many failed logins for this account"


@pytest.fixture
def boss(settings):
    settings.TRUSTED_PROXIES = (PROXY,)
    return get_user_model().objects.create_user("boss", password="right-pw-1", is_staff=True)


def login(password: str, phone: str, url: str = "/accounts/login/"):
    return Client().post(
        url,
        {"username": "boss", "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=phone,
        HTTP_ACCEPT_LANGUAGE="en",
    )


def logged_in(response) -> bool:
    return response.status_code == 302 and "_auth_user_id" in response.wsgi_request.session


@pytest.mark.parametrize("url", ["/accounts/login/", "/admin/login/"])
def test_forty_addresses_of_one_64_get_the_tries_of_one_address(boss, url):
    bodies = [login(f"guess-{i}", f"2001:db8:5:6::{i + 1:x}", url).content.decode() for i in range(39)]
    assert sum(WRONG in b for b in bodies) == login_throttle.PER_PAIR
    assert not logged_in(login("right-pw-1", "2001:db8:5:6::40", url))  # refused, the right password too
    assert logged_in(login("right-pw-1", "2001:db8:7:7::1", url))  # the director's own network


def test_a_ceiling_no_new_address_lifts_locks_the_username_until_an_admin_clears_it(boss):
    bodies = [login(f"guess-{i}", net64(i)).content.decode() for i in range(60)]
    assert sum(WRONG in b for b in bodies) == login_throttle.CEILING
    refused = login("right-pw-1", net64(1000))
    assert not logged_in(refused) and LOCKED in refused.content.decode()
    # an administrator deletes the lock in the admin; then the director gets in
    admin = Client()
    admin.force_login(get_user_model().objects.create_superuser("root", password="root-pw-1"))
    lock = Strike.objects.get(key="login-lock:boss")
    assert admin.post(f"/admin/tournaments/strike/{lock.pk}/delete/", {"post": "yes"}).status_code == 302
    assert logged_in(login("right-pw-1", net64(1001)))
