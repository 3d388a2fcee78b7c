"""Limits on guessing: unknown table codes and wrong PINs, counted per client in the shared cache.

The cache is Redis when ``REDIS_CACHE_URL`` is set (every web process sees the same counts), else
process-local memory. A window opens with the first miss and lasts ``WINDOW`` seconds; when a client has
used up its misses, every code lookup (known codes too) is refused until the window closes, so a guesser
cannot tell hits from misses by the answer.
"""

from __future__ import annotations

from django.core.cache import cache
from django.http import HttpRequest

WINDOW = 10 * 60  # seconds
UNKNOWN_CODES_PER_WINDOW = 20
WRONG_PINS_PER_WINDOW = 10


class Limited(Exception):
    """Too many misses: wait ``retry_after`` seconds."""

    def __init__(self, retry_after: int = WINDOW) -> None:
        self.retry_after = retry_after
        super().__init__(f"rate limited, retry after {retry_after} s")


def client_ip(request: HttpRequest) -> str:
    """The client's address as the web server saw it (behind a proxy, the proxy sets REMOTE_ADDR)."""
    return str(request.META.get("REMOTE_ADDR") or "unknown")


def _count(key: str) -> int:
    return int(cache.get(key) or 0)


def _note(key: str) -> int:
    if cache.add(key, 1, WINDOW):
        return 1
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.add(key, 1, WINDOW)
        return 1


def check_code_lookups(ip: str) -> None:
    if _count(f"table-code-miss:{ip}") >= UNKNOWN_CODES_PER_WINDOW:
        raise Limited()


def note_unknown_code(ip: str) -> None:
    _note(f"table-code-miss:{ip}")


def _pin_keys(ip: str, table_id: int, number: object) -> tuple[str, str]:
    return f"table-pin-miss:{ip}", f"table-pin-miss:{table_id}:{number}"


def check_pin_attempts(ip: str, table_id: int, number: object) -> None:
    counts = cache.get_many(_pin_keys(ip, table_id, number))  # one round trip to the shared cache
    if any(int(v or 0) >= WRONG_PINS_PER_WINDOW for v in counts.values()):
        raise Limited()


def note_wrong_pin(ip: str, table_id: int, number: object) -> None:
    for key in _pin_keys(ip, table_id, number):
        _note(key)
