"""Who may open the public site's pages, the accounts pages and the language switch."""

from __future__ import annotations

from tests.permissions.page import Page, garbage, slug
from tests.permissions.world import LOGIN, PUBLIC

PAGES: dict[str, Page] = {
    "home": Page(PUBLIC),
    "healthz": Page(PUBLIC),
    "tournament-detail": Page(PUBLIC, kwargs=slug),
    # -- accounts and language -------------------------------------------------------------------------------
    "login": Page(PUBLIC, "GP", post=garbage),
    "logout": Page(PUBLIC, "P"),
    "password_change": Page(LOGIN, "GP", post=garbage),
    "password_change_done": Page(LOGIN),
    "password_reset": Page(PUBLIC, "GP", post=garbage),
    "password_reset_done": Page(PUBLIC),
    "password_reset_confirm": Page(
        PUBLIC, "GP", kwargs=lambda w: {"uidb64": "MQ", "token": "bad-token"}, post=garbage
    ),
    "password_reset_complete": Page(PUBLIC),
    "set_language": Page(PUBLIC, "GP", post=lambda w: {"language": "en", "next": "/"}),
}
