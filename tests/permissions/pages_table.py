"""Who may open the players' pages at the table (writes need a PIN: test_table_writes_need_the_pin)."""

from __future__ import annotations

from typing import Any

from tests.permissions.page import Page, code, garbage
from tests.permissions.world import PUBLIC, TABLE, World
from tournaments.models import Participant
from tournaments.personal_links import personal_token


def own_link(w: World) -> dict[str, Any]:
    """The appellant's own link (the QR code of his PIN slip): it opens his table, for anybody who has it."""
    return {"token": personal_token(Participant.objects.get(pk=w.appellant))}


PAGES: dict[str, Page] = {
    "table:lookup": Page(PUBLIC),
    "table:entry": Page(TABLE, "GP", kwargs=code, post=garbage),
    "table:preview": Page(TABLE, kwargs=code, query="?board={table_board}"),
    "table:qr": Page(TABLE, kwargs=code),
    "table:personal": Page(PUBLIC, kwargs=own_link),
}
