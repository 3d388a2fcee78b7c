"""Login throttling for directors (``/accounts/login/``) and the admin (``/admin/login/``).

Failed logins are counted like wrong PINs (``tournaments.pins.admit``: in the database, atomically, before the
password is checked): per (address, username) ``PER_PAIR`` failures in ``WINDOW`` seconds, then that address
is refused for that username; a username with ``PER_USERNAME`` failures from everyone, or an address with
``PER_ADDRESS`` failures on every username, is refused to the addresses that already failed on it — an address
that has not still gets its tries, so a guesser cannot lock the director out from elsewhere. A refused try is
refused before the password is looked at, the right password too (no oracle): the message says to wait. Every
refusal is logged (logger ``preferans.security``, warning) with the username and address. A successful login
gives its tries back. The address is ``tournaments.pins.client_ip`` (trusted proxies only).

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

from tournaments.pins import Limits, admit, client_ip, give_back

PER_PAIR = 5
PER_USERNAME = 10
PER_ADDRESS = 30

log = logging.getLogger("preferans.security")


def login_limits(username: str, address: str) -> Limits:
    user = username.strip().casefold()[:150]
    return Limits(
        pair=(f"login:{user}:from:{address}", PER_PAIR),
        shared=((f"login:{user}", PER_USERNAME), (f"login:from:{address}", PER_ADDRESS)),
    )


class ThrottledMixin:
    """Counts and refuses failed logins before ``AuthenticationForm.clean`` checks the password."""

    error_messages: dict[str, Any]
    request: Any
    cleaned_data: dict[str, Any]

    throttled_message = _("Too many failed logins. Wait ten minutes and try again.")

    def clean(self) -> dict[str, Any]:
        username = str(self.cleaned_data.get("username") or "")
        address = client_ip(self.request) if self.request is not None else "unknown"
        taken = admit(login_limits(username, address))
        if taken is None:
            log.warning("login refused: too many failures (username=%r, address=%s)", username, address)
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
