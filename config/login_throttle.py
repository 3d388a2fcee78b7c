"""Login throttling for directors (``/accounts/login/``) and the admin (``/admin/login/``).

Failed logins are counted like wrong PINs (``tournaments.pins.admit``: in the database, atomically, before the
password is checked). The address is ``tournaments.pins.client_ip`` (trusted proxies only) keyed by
``tournaments.pins.client_key`` (an IPv6 address by its /64 network). Per (address, username) ``PER_PAIR``
failures in ``WINDOW`` seconds, then that address is refused for that username; a username with
``PER_USERNAME`` failures from everyone, or an address with ``PER_ADDRESS`` failures on every username, is
refused to the addresses that already failed on it — an address that has not still gets one try. That try is
bounded by the username's ``CEILING``: ``CEILING`` failures from every address together within ``LOCK`` seconds
lock the username for ``LOCK`` seconds from the lock (the right password too, from anywhere). There is no
director over accounts, so the lock ends by time; an administrator ends it sooner by deleting the counted try
``login-lock:<username>`` in the admin (Strikes). A refused try is refused before the password is looked at,
the right password too (no oracle): the message says to wait. Every refusal is logged (logger
``preferans.security``, warning) with the username and address. A successful login gives its tries back.

Wired by ``config.urls``, which includes this module for ``/accounts/`` (Django's auth URLs, the login view
with :class:`ThrottledAuthenticationForm`); importing this module gives the admin site
:class:`ThrottledAdminAuthenticationForm`.
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import urls as auth_urls
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.urls import path
from django.utils.translation import gettext_lazy as _

from tournaments.pins import Ceiling, Limits, admit, client_ip, client_key, give_back, locked

PER_PAIR = 5
PER_USERNAME = 10
PER_ADDRESS = 30
CEILING = 30  # failures on one username from every address in LOCK: then it is locked
LOCK = 60 * 60  # seconds

log = logging.getLogger("preferans.security")


def login_limits(username: str, address: str) -> Limits:
    user = username.strip().casefold()[:150]
    client = client_key(address)
    return Limits(
        pair=(f"login:{user}:from:{client}", PER_PAIR),
        shared=((f"login:{user}", PER_USERNAME), (f"login:from:{client}", PER_ADDRESS)),
        ceiling=Ceiling(f"login-lock:{user}", CEILING, LOCK),
    )


class ThrottledMixin:
    """Counts and refuses failed logins before ``AuthenticationForm.clean`` checks the password."""

    error_messages: dict[str, Any]
    request: Any
    cleaned_data: dict[str, Any]

    throttled_message = _("Too many failed logins. Wait ten minutes and try again.")
    locked_message = _(
        "Too many failed logins for this account from everywhere: it is locked for an hour. "
        "An administrator can unlock it sooner."
    )

    def clean(self) -> dict[str, Any]:
        username = str(self.cleaned_data.get("username") or "")
        address = client_ip(self.request) if self.request is not None else "unknown"
        limits = login_limits(username, address)
        taken = admit(limits)
        if taken is None:
            log.warning("login refused: too many failures (username=%r, address=%s)", username, address)
            if locked(limits):
                raise ValidationError(self.locked_message, code="locked")
            raise ValidationError(self.throttled_message, code="throttled")
        cleaned: dict[str, Any] = super().clean()  # type: ignore[misc]
        give_back(*taken)  # the right password: nothing was guessed
        return cleaned


class ThrottledAuthenticationForm(ThrottledMixin, AuthenticationForm):
    pass


class ThrottledAdminAuthenticationForm(ThrottledMixin, AdminAuthenticationForm):
    pass


admin.site.login_form = ThrottledAdminAuthenticationForm

# django.contrib.auth.urls with its login view given the throttled form (one pattern a name)
urlpatterns = [
    path(
        "login/",
        auth_views.LoginView.as_view(authentication_form=ThrottledAuthenticationForm),
        name="login",
    ),
    *(p for p in auth_urls.urlpatterns if getattr(p, "name", None) != "login"),
]
