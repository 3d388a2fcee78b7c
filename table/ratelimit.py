"""Limits on guessing table codes, counted per client address in the database (``tournaments.pins.take``:
every web process counts together; wrong PINs are counted there too).

A window opens with the first unknown code and lasts ``WINDOW`` seconds. Each unknown code takes one try by an
atomic update, so however many are sent at once, at most ``UNKNOWN_CODES_PER_WINDOW`` are answered «no such
table»; after that, every code lookup from the address (known codes too) is refused until the window closes,
so a guesser cannot tell hits from misses by the answer. The address is the client's own when the proxy is
listed in ``settings.TRUSTED_PROXIES`` (``tournaments.pins.client_ip``).
"""

from __future__ import annotations

from tournaments.pins import WINDOW, counts, take

UNKNOWN_CODES_PER_WINDOW = 30


class Limited(Exception):
    """Too many misses: wait ``retry_after`` seconds."""

    def __init__(self, retry_after: int = WINDOW) -> None:
        self.retry_after = retry_after
        super().__init__(f"rate limited, retry after {retry_after} s")


def _key(ip: str) -> str:
    return f"table-code-miss:{ip}"


def check_code_lookups(ip: str) -> None:
    """Refused (``Limited``) once the address has used up its unknown codes in the window."""
    if counts(_key(ip)).get(_key(ip), 0) >= UNKNOWN_CODES_PER_WINDOW:
        raise Limited()


def note_unknown_code(ip: str) -> bool:
    """Count one unknown code; False when the allowance was already used up (answer it as refused)."""
    return take(_key(ip), UNKNOWN_CODES_PER_WINDOW, WINDOW) is not None
