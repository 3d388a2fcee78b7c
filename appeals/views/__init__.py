"""Pages of rulings, appeals and corrections. Views read, check permission and call the services.

The package is split by responsibility: ``_common`` holds the lookups, access checks and the service runner
every page shares; ``dashboard`` the director's list, audit trail and settings; ``appeal_flow`` an appeal
from filing to closing; ``appendix_b`` the printable appeal form and its PDF; ``rulings`` the director's
rulings on irregularities; ``corrections`` the corrections of results; ``player`` the players' own page.
Every view and the names other modules use are re-exported here, so ``appeals.views.X`` keeps working.
"""

from appeals.views.appeal_flow import MAIN_PATH, appeal_action, appeal_detail, appeal_new
from appeals.views.appendix_b import appeal_form, layout_rows
from appeals.views.corrections import correction_detail, correction_new
from appeals.views.dashboard import appeal_list, appeal_settings, audit_trail
from appeals.views.player import (
    PLAYER_KEY,
    player_appeal,
    player_home,
    player_logout,
)
from appeals.views.rulings import ruling_detail, ruling_new

__all__ = [
    "MAIN_PATH",
    "PLAYER_KEY",
    "appeal_action",
    "appeal_detail",
    "appeal_form",
    "appeal_list",
    "appeal_new",
    "appeal_settings",
    "audit_trail",
    "correction_detail",
    "correction_new",
    "layout_rows",
    "player_appeal",
    "player_home",
    "player_logout",
    "ruling_detail",
    "ruling_new",
]
