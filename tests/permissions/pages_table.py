"""Who may open the players' pages at the table (writes need a PIN: test_table_writes_need_the_pin)."""

from __future__ import annotations

from tests.permissions.page import Page, code, garbage
from tests.permissions.world import PUBLIC, TABLE

PAGES: dict[str, Page] = {
    "table:lookup": Page(PUBLIC),
    "table:entry": Page(TABLE, "GP", kwargs=code, post=garbage),
    "table:preview": Page(TABLE, kwargs=code, query="?board={table_board}"),
    "table:qr": Page(TABLE, kwargs=code),
}
