"""A participant shows who he is with his number and PIN: one check, and one count of wrong guesses, for every
channel that asks (the table page, the API's player token and confirmations, the appeals page).

Wrong guesses are counted in the shared cache (Redis when ``REDIS_CACHE_URL`` is set, so every web process sees
the same counts) per client address and per participant of the tournament — the number as the tournament knows
it, so «01» and «1» are one participant, and a guess at another table or on another page counts the same. A
window opens with the first miss and lasts ``WINDOW`` seconds; after ``WRONG_PINS_PER_WINDOW`` misses on either
count, every try is refused until the window closes, the right PIN too, so the answer tells nothing.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable

from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import gettext as _

from tournaments.errors import TooManyAttempts, UserError
from tournaments.models import Participant, Tournament

WINDOW = 10 * 60  # seconds
WRONG_PINS_PER_WINDOW = 10
MAX_NUMBER = 100_000  # far above any field; a longer «number» is no participant's


class WrongPin(UserError):
    code = "wrong_pin"
    status = 403


def client_ip(request: HttpRequest) -> str:
    """The client's address as the web server saw it (behind a proxy, the proxy sets REMOTE_ADDR)."""
    return str(request.META.get("REMOTE_ADDR") or "unknown")


def note_miss(key: str, window: int = WINDOW) -> int:
    """Count one miss under ``key`` in the shared cache (the window opens with the first); the count now."""
    if cache.add(key, 1, window):
        return 1
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.add(key, 1, window)
        return 1


def participant_number(number: object) -> int | None:
    """The number as typed («7», « 07 ») → 7; anything else → None."""
    text = str(number if number is not None else "").strip()
    if not text.isdigit() or len(text) > 6:
        return None
    value = int(text)
    return value if 0 < value <= MAX_NUMBER else None


def _keys(tournament: Tournament, number: int | None, client: str) -> tuple[str, str]:
    return f"pin-miss:client:{client}", f"pin-miss:{tournament.pk}:{number or 0}"


def pin_holder(
    tournament: Tournament, *, number: object, pin: object, client: str, known: Iterable[Participant] = ()
) -> Participant:
    """The participant of ``tournament`` with this number and PIN; a wrong guess is counted and refused.

    ``known`` are participants already loaded (the players of a table), looked at before the database.
    Raises :class:`TooManyAttempts` (429) once either count is used up, else :class:`WrongPin` (403).
    """
    n = participant_number(number)
    keys = _keys(tournament, n, client)
    counts = cache.get_many(keys)  # one round trip to the shared cache
    if any(int(v or 0) >= WRONG_PINS_PER_WINDOW for v in counts.values()):
        raise TooManyAttempts(
            _("Too many wrong PINs. Wait ten minutes or ask the director."),
            retry_after=WINDOW,
            code="too_many_pins",
        )
    participant = next((p for p in known if p.number == n), None) if n else None
    if participant is None and n:
        participant = Participant.objects.filter(tournament=tournament, number=n).first()
    given = str(pin if pin is not None else "").strip()
    if len(given) > 64:  # no PIN is that long: a wrong guess, compared with nothing
        given = ""
    if (
        participant is None
        or not participant.pin
        or not given
        or not hmac.compare_digest(participant.pin.encode(), given.encode())
    ):
        for key in keys:
            note_miss(key)
        raise WrongPin(_("Wrong participant number or PIN."))
    return participant
