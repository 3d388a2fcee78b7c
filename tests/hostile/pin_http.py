"""Helpers for the PIN and login tests over HTTP: a phone's try at a table page or the API, directly or through
the trusted proxy (``settings.TRUSTED_PROXIES`` lists the test client's ``REMOTE_ADDR``)."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from tests.table.factory import player_auth
from tournaments.models import Table

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
PROXY = "127.0.0.1"


def table_of(number: int) -> str:
    """The table code participant ``number`` plays at in ``make_event`` (four players a table)."""
    return f"TAB{(number - 1) // 4 + 1}TT"


def _where(phone: str, proxied: bool) -> dict[str, str]:
    return {"REMOTE_ADDR": PROXY, "HTTP_X_FORWARDED_FOR": phone} if proxied else {"REMOTE_ADDR": phone}


def show(number: int, pin: str, phone: str, *, proxied: bool = True, code: str | None = None):
    """«Show the rows» on the table page: the participant identifies with his number and PIN."""
    url = reverse("table:entry", kwargs={"code": code or table_of(number)})
    return Client().post(
        url, {"action": "show", "number": number, "pin": pin}, **_where(phone, proxied), **EN
    )


def api_login(number: int, pin: str, phone: str, *, proxied: bool = True):
    """The API's player login (``Authorization: Player code:number:PIN``) on a read of the results."""
    table = Table.objects.get(code=table_of(number))
    return Client().get(
        "/api/results/",
        HTTP_AUTHORIZATION=player_auth(table, number, pin),
        **_where(phone, proxied),
        **EN,
    )


def net64(i: int) -> str:
    """An address of the i-th /64 network (one per household, phone or VPS)."""
    return f"2001:db8:{i // 65536:x}:{i % 65536:x}::1"
