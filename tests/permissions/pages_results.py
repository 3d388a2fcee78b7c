"""Who may open the published results (scoring/reports) and the director's exports."""

from __future__ import annotations

from typing import Any

from tests.permissions.page import Page, director_writes, player_1, slug
from tests.permissions.world import DIRECTOR_ONLY, HIDDEN_BOARD, IN_PLAY, PUBLIC, RESULTS, World


def board_number(w: World) -> dict[str, Any]:
    return {"slug": w.slug, "number": w.round_board}


def export(w: World) -> dict[str, Any]:
    return {"slug": w.slug, "pk": w.export}


PAGES: dict[str, Page] = {
    "results:standings": Page(RESULTS, kwargs=slug),
    "results:boards": Page(RESULTS, kwargs=slug),
    "results:board": Page(RESULTS, kwargs=board_number),
    "results:board-chart": Page(HIDDEN_BOARD, kwargs=board_number),
    "results:player": Page(RESULTS, kwargs=player_1),
    # The running percentage is a total: not while round 4 is being played (visibility, §12.2.4).
    "results:player-chart": Page(IN_PLAY, kwargs=player_1),
    "results:frequencies": Page(RESULTS, kwargs=slug),
    # The hall's projector: no login; its standings appear only when the public pages show them (§12.2.4).
    "results:projector": Page(PUBLIC, kwargs=slug),
    "results:projector-data": Page(PUBLIC, kwargs=slug),
    "results:exports": director_writes(slug, lambda w: {"kind": "standings", "format": "csv"}),
    "results:export-status": Page(DIRECTOR_ONLY, kwargs=export),
    "results:export-download": Page(DIRECTOR_ONLY, kwargs=export),
    # MEDIA_ROOT is not served (test_generated_files_are_served_only_to_directors).
}
