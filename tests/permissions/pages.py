"""``PAGES``: the permission decision of every URL pattern outside the REST API, from the per-app tables."""

from __future__ import annotations

from tests.permissions import (
    pages_admin,
    pages_appeals,
    pages_director,
    pages_players,
    pages_pulkas,
    pages_results,
    pages_site,
    pages_table,
)
from tests.permissions.page import Page
from tests.permissions.world import HIDDEN_BOARD, RESULTS


def _merge(*tables: dict[str, Page]) -> dict[str, Page]:
    out: dict[str, Page] = {}
    for table in tables:
        twice = sorted(out.keys() & table.keys())
        assert not twice, f"URL patterns decided in two tables: {twice}"
        out.update(table)
    return out


PAGES = _merge(
    pages_site.PAGES,
    pages_results.PAGES,
    pages_director.PAGES,
    pages_pulkas.PAGES,
    pages_appeals.PAGES,
    pages_table.PAGES,
    pages_admin.PAGES,
    pages_players.PAGES,
)
RESULT_PAGES = [k for k, p in PAGES.items() if p.access in (RESULTS, HIDDEN_BOARD)]
