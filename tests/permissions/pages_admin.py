"""Who may open the Django admin: the site's own pages, and the pages of every registered model."""

from __future__ import annotations

from typing import Any

from tests.permissions.page import Page, garbage
from tests.permissions.world import ADMIN, ADMIN_SITE, NOBODY, PUBLIC, World

# Every model registered in the admin: a new registration is a permission decision too.
ADMIN_MODELS = (
    "appeals.appeal",
    "appeals.appealsettings",
    "appeals.committeemember",
    "appeals.correction",
    "appeals.irregularity",
    "appeals.scorechange",
    "tournaments.strike",
    "auth.group",
    "auth.user",
    "authtoken.tokenproxy",
    "boards.board",
    "boards.boardset",
    "players.masterpointaward",
    "players.person",
    "players.ratingentry",
    "players.series",
    "players.seriesevent",
    "results.exportjob",
    "scoring.penalty",
    "scoring.result",
    "scoring.standing",
    "tournaments.auditentry",
    "tournaments.participant",
    "tournaments.room",
    "tournaments.round",
    "tournaments.seating",
    "tournaments.session",
    "tournaments.table",
    "tournaments.tournament",
)
# Written by the services only (a counted try is cleared by deleting it).
ADMIN_READ_ONLY = {"tournaments.auditentry", "appeals.scorechange", "tournaments.strike"}

SITE_PAGES: dict[str, Page] = {
    "admin:index": Page(ADMIN_SITE),
    "admin:login": Page(PUBLIC, "GP", post=garbage),
    "admin:logout": Page(PUBLIC, "P"),  # logging out reveals and changes nothing
    "admin:password_change": Page(ADMIN_SITE, "GP", post=garbage),
    "admin:password_change_done": Page(ADMIN_SITE),
    "admin:jsi18n": Page(ADMIN_SITE),
    # Without a model that declares autocomplete_fields the view refuses every request (403), staff or not.
    "admin:autocomplete": Page(NOBODY),
    "admin:view_on_site": Page(
        ADMIN_SITE, kwargs=lambda w: {"content_type_id": w.content_type, "object_id": w.tournament}
    ),
    "admin:app_list": Page(ADMIN, kwargs=lambda w: {"app_label": "tournaments"}),
    "admin/(?P<url>.*)$": Page(NOBODY, path=lambda w: "/admin/no-such-page/"),
    "admin:auth_user_password_change": Page(
        ADMIN, "GP", kwargs=lambda w: {"id": w.admin_objects["auth.user"]}, post=garbage
    ),
}


def _model_pages(label: str) -> dict[str, Page]:
    """The pages of one registered model ("app.model")."""
    app, model = label.split(".")

    def obj(w: World) -> dict[str, Any]:
        return {"object_id": w.admin_objects[label]}

    read_only = label in ADMIN_READ_ONLY
    return {
        f"admin:{app}_{model}_changelist": Page(ADMIN, "GP", post=garbage),
        f"admin:{app}_{model}_add": Page(NOBODY if read_only else ADMIN, "GP", post=garbage),
        f"admin:{app}_{model}_history": Page(ADMIN, kwargs=obj),
        f"admin:{app}_{model}_delete": Page(ADMIN, "GP", kwargs=obj, post=garbage),
        f"admin:{app}_{model}_change": Page(
            ADMIN, "GP", kwargs=obj, post=garbage, post_access=NOBODY if read_only else None
        ),
        # The old-style object URL: a redirect to …/change/, behind the admin login.
        f"admin/{app}/{model}/<path:object_id>/": Page(
            ADMIN, path=lambda w: f"/admin/{app}/{model}/{obj(w)['object_id']}/"
        ),
    }


PAGES: dict[str, Page] = {**SITE_PAGES}
for _label in ADMIN_MODELS:
    PAGES.update(_model_pages(_label))
