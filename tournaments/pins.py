"""A participant shows who he is with his number and PIN: one check, and one count of wrong guesses, for every
channel that asks (the table page, the API's player token and confirmations, the appeals page).

Counting (``take``/``give_back``): failed tries are counted in the database (``tournaments.Strike``), so every web
process counts together, and each try is taken by one conditional ``UPDATE … SET count = count + 1 WHERE count
< limit`` *before* the PIN is compared: forty tries sent at once against a limit of ten compare at most ten. A
right PIN gives its tries back. A window opens with the first try and lasts ``WINDOW`` seconds.

Who is counted: the participant as the tournament knows him (tournament and ``int(number)``: «01», «001» and
«1» are one participant, whichever table or page the guess comes from) and the client's address
(``client_ip``: the proxy's ``X-Forwarded-For`` entry only when ``settings.TRUSTED_PROXIES`` lists the proxy).
A try is compared only while

* this address has fewer than ``PER_CLIENT`` misses on this participant (a hard limit, for this pair only), and
* the participant has fewer than ``PER_PARTICIPANT`` misses from everyone, *or* this address has none on him,
* this address has fewer than ``PER_ADDRESS`` misses in the tournament, *or* none on this participant.

So a guesser is slowed (five tries a participant, then one try from each new address), but the victim with the
right PIN from another address still gets in, and one phone behind a hall's NAT cannot lock the whole hall out.
Refused tries all get the same answer (the right PIN too), so the answer tells nothing (docs/deployment.md,
«Guessing limits»).
"""

from __future__ import annotations

import datetime as dt
import hmac
import ipaddress
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import TooManyAttempts, UserError
from tournaments.models import Participant, Strike, Tournament

WINDOW = 10 * 60  # seconds
PER_CLIENT = 5  # misses from one address on one participant
PER_PARTICIPANT = 10  # misses on one participant from every address
PER_ADDRESS = 30  # misses from one address on all participants of a tournament
MAX_NUMBER = 100_000  # far above any field; a longer «number» is no participant's
KEEP = dt.timedelta(days=1)  # counts older than this are deleted


class WrongPin(UserError):
    code = "wrong_pin"
    status = 403


# -- who the client is ----------------------------------------------------------------------------------
def _networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    nets = []
    for entry in getattr(settings, "TRUSTED_PROXIES", ()) or ():
        try:
            nets.append(ipaddress.ip_network(str(entry).strip(), strict=False))
        except ValueError:
            continue
    return nets


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def client_ip(request: HttpRequest) -> str:
    """The client's address: ``REMOTE_ADDR``, or, when that is a proxy listed in ``settings.TRUSTED_PROXIES``
    (addresses or networks), the address that proxy put into ``X-Forwarded-For`` — read from the right,
    skipping the trusted proxies of a chain, so a client cannot choose his address by sending the header."""
    remote = str(request.META.get("REMOTE_ADDR") or "unknown")
    nets = _networks()

    def trusted(addr: ipaddress.IPv4Address | ipaddress.IPv6Address | None) -> bool:
        return addr is not None and any(addr in net for net in nets)

    if not nets or not trusted(_address(remote)):
        return remote
    hops = [h.strip() for h in str(request.META.get("HTTP_X_FORWARDED_FOR") or "").split(",") if h.strip()]
    for hop in reversed(hops):
        addr = _address(hop)
        if addr is None:
            return remote  # a malformed entry: trust nothing the proxy passed on
        if not trusted(addr):
            return str(addr)
    return remote


# -- counting -------------------------------------------------------------------------------------------
def take(key: str, limit: int, window: int = WINDOW) -> int | None:
    """Take one try under ``key`` (atomically, across processes): the count with it, or None when ``limit``
    tries were already taken in the window."""
    now = timezone.now()
    key = key[:200]
    try:
        with transaction.atomic():
            _row, created = Strike.objects.get_or_create(key=key, defaults={"count": 0, "started": now})
    except IntegrityError:  # created by another process meanwhile
        created = False
    if created:
        Strike.objects.filter(started__lt=now - KEEP).delete()
    Strike.objects.filter(key=key, started__lte=now - dt.timedelta(seconds=window)).update(
        count=0, started=now
    )
    if not Strike.objects.filter(key=key, count__lt=limit).update(count=F("count") + 1):
        return None
    return int(Strike.objects.filter(key=key).values_list("count", flat=True).first() or 1)


def give_back(*keys: str) -> None:
    """Return tries taken under ``keys`` (the guess was right)."""
    for key in keys:
        Strike.objects.filter(key=key[:200], count__gt=0).update(count=F("count") - 1)


def counts(*keys: str, window: int = WINDOW) -> dict[str, int]:
    """The counts under ``keys`` in their open windows (a key without one is left out)."""
    since = timezone.now() - dt.timedelta(seconds=window)
    return dict(Strike.objects.filter(key__in=keys, started__gt=since).values_list("key", "count"))


@dataclass(frozen=True)
class Limits:
    """A guesser's allowance: ``pair`` (this client on this target) is hard; each of ``shared`` (the target
    from everyone, the client on every target) holds only for a client that has already missed this target."""

    pair: tuple[str, int]
    shared: Sequence[tuple[str, int]]
    window: int = WINDOW


def admit(limits: Limits) -> list[str] | None:
    """Take one try under every key of ``limits``: the keys taken (give them back on success), or None when
    this try may not be made (nothing is kept taken then)."""
    key, limit = limits.pair
    mine = take(key, limit, limits.window)
    if mine is None:
        return None
    taken = [key]
    for shared_key, shared_limit in limits.shared:
        if take(shared_key, shared_limit, limits.window) is not None:
            taken.append(shared_key)
        elif mine > 1:  # the shared count is used up and this client has missed here already
            give_back(*taken)
            return None
    return taken


# -- the PIN check --------------------------------------------------------------------------------------
def participant_number(number: object) -> int | None:
    """The number as typed («7», « 07 ») → 7; anything else → None."""
    text = str(number if number is not None else "").strip()
    if not text.isdigit() or len(text) > 6:
        return None
    value = int(text)
    return value if 0 < value <= MAX_NUMBER else None


def pin_limits(tournament: Tournament, number: int | None, client: str) -> Limits:
    """The counts a PIN try for participant ``number`` of ``tournament`` from ``client`` is taken under."""
    who = f"pin:{tournament.pk}:{number or 0}"
    return Limits(
        pair=(f"{who}:from:{client}", PER_CLIENT),
        shared=((who, PER_PARTICIPANT), (f"pin:{tournament.pk}:from:{client}", PER_ADDRESS)),
    )


def pin_holder(
    tournament: Tournament,
    *,
    number: object,
    pin: object,
    client: str,
    known: Iterable[Participant] = (),
    among: Iterable[Participant] | None = None,
) -> Participant:
    """The participant of ``tournament`` with this number and PIN; a wrong guess is counted and refused.

    ``known`` are participants already loaded (the players of a table), looked at before the database.
    ``among``: only these may answer here (the players seated at a table): a right PIN of anybody else is a
    wrong guess, counted and answered as one, so the answer does not tell a right PIN at the wrong table.
    Raises :class:`TooManyAttempts` (429) when the try may not be made (see the module), else
    :class:`WrongPin` (403).
    """
    n = participant_number(number)
    taken = admit(pin_limits(tournament, n, client))
    if taken is None:
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
    right = (
        participant is not None
        and bool(participant.pin)
        and bool(given)
        and hmac.compare_digest(participant.pin.encode(), given.encode())
    )
    if right and among is not None:
        right = any(p.pk == participant.pk for p in among)  # type: ignore[union-attr]
    if not right or participant is None:
        raise WrongPin(
            _("Wrong participant number or PIN.")
            if among is None
            else _("Wrong number or PIN, or this participant does not play at this table in this round.")
        )
    give_back(*taken)
    return participant
