"""Limits on guessing table codes, counted per client in the shared cache (wrong PINs: ``tournaments.pins``).

The cache is Redis when ``REDIS_CACHE_URL`` is set (every web process sees the same counts), else
process-local memory. A window opens with the first miss and lasts ``WINDOW`` seconds; when a client has
used up its misses, every code lookup (known codes too) is refused until the window closes, so a guesser
cannot tell hits from misses by the answer.
"""

from __future__ import annotations

from django.core.cache import cache

from tournaments.pins import note_miss

WINDOW = 10 * 60  # seconds
UNKNOWN_CODES_PER_WINDOW = 20


class Limited(Exception):
    """Too many misses: wait ``retry_after`` seconds."""

    def __init__(self, retry_after: int = WINDOW) -> None:
        self.retry_after = retry_after
        super().__init__(f"rate limited, retry after {retry_after} s")


def check_code_lookups(ip: str) -> None:
    if int(cache.get(f"table-code-miss:{ip}") or 0) >= UNKNOWN_CODES_PER_WINDOW:
        raise Limited()


def note_unknown_code(ip: str) -> None:
    note_miss(f"table-code-miss:{ip}", WINDOW)
