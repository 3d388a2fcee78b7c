"""Limits on guessing table codes, counted per client in the database (``tournaments.pins.take``: every web
process counts together; wrong PINs are counted there too). A client is ``tournaments.pins.client_key`` of its
address: an IPv6 address counts by its /64 network.

A known code always opens its table: the phones of a hall often share one address (a NAT without
``settings.TRUSTED_PROXIES``), and one phone's typos must not lock the others out of their own tables. Only
unknown codes are counted: a window opens with the first and lasts ``WINDOW`` seconds; each takes one try by an
atomic update, so however many are sent at once, at most ``UNKNOWN_CODES_PER_WINDOW`` are answered «no such
table», and the rest are refused until the window closes.

A guesser can therefore tell a hit (the table) from a refusal. That is accepted: codes are six characters of 31
(about 9·10⁸), so 30 tries per ten minutes find one table of a 50-table event in about eleven years, and a
table's page shows nothing private and does nothing without a player's PIN, whose tries are limited per
participant.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from tournaments.pins import WINDOW, client_key, take

UNKNOWN_CODES_PER_WINDOW = 30

T = TypeVar("T")


class Limited(Exception):
    """Too many misses: wait ``retry_after`` seconds."""

    def __init__(self, retry_after: int = WINDOW) -> None:
        self.retry_after = retry_after
        super().__init__(f"rate limited, retry after {retry_after} s")


def _key(ip: str) -> str:
    return f"table-code-miss:{client_key(ip)}"


def look_up(ip: str, find: Callable[[], T | None]) -> T | None:
    """What ``find`` finds for a code, always; when it finds nothing, one unknown code is counted for ``ip``:
    None within the allowance («no such table»), ``Limited`` past it."""
    found = find()
    if found is not None:
        return found
    if take(_key(ip), UNKNOWN_CODES_PER_WINDOW, WINDOW) is None:
        raise Limited()
    return None
