"""A participant shows who he is with his number and PIN: one check, and one count of wrong guesses, for every
channel that asks (the table page, the API's player token and confirmations, the appeals page).

Counting (``take``/``give_back``): failed tries are counted in the database (``tournaments.Strike``), so every web
process counts together, and each try is taken by one conditional ``UPDATE … SET count = count + 1 WHERE count
< limit`` *before* the PIN is compared: forty tries sent at once against a limit of ten compare at most ten. A
right PIN gives its tries back. A window opens with the first try and lasts its ``window`` seconds.

Who is counted: the participant as the tournament knows him (tournament and ``int(number)``: «01», «001» and
«1» are one participant, whichever table or page the guess comes from) and the client (``client_ip``: the
proxy's ``X-Forwarded-For`` entry only when ``settings.TRUSTED_PROXIES`` lists the proxy), keyed by
``client_key``: an IPv4 address as it is, an IPv6 address by its /64 network (one household, phone or server
has a whole /64, so forty addresses of it are one client). A try is compared only while

* this client has fewer than ``PER_CLIENT`` misses on this participant in ``WINDOW`` seconds (the pair), and
* the participant has fewer than ``CEILING`` misses from every client together in ``LOCK`` seconds.

Past the ceiling the participant is *locked*: no new address lifts it, the right PIN is refused too, from
anywhere, until the director clears the lock (``unlock``: the PIN list or the dashboard, audited) or ``LOCK``
seconds after it began. Nothing else refuses: an address's misses on other participants or on unknown numbers
do not, so one phone behind a hall's NAT cannot lock the hall out — it only uses up its own pairs. Refused
tries all get the same answer (the right PIN too), so the answer tells nothing about the PIN
(docs/deployment.md, «Guessing limits»).
"""

from __future__ import annotations

import datetime as dt
import hmac
import ipaddress
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import numbers
from tournaments.audit import log_action
from tournaments.errors import TooManyAttempts, UserError
from tournaments.models import Participant, Strike, Tournament

WINDOW = 10 * 60  # seconds
PER_CLIENT = 5  # misses from one client (address, IPv6 /64) on one participant in WINDOW
CEILING = 20  # misses on one participant from every client in LOCK: then he is locked
LOCK = 24 * 60 * 60  # seconds: the ceiling's window, and how long a lock lasts unless the director clears it
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


def client_key(address: str) -> str:
    """Whom tries from ``address`` are counted under: an IPv4 address as it is (an IPv4-mapped IPv6 address
    too), an IPv6 address by its /64 network; anything else («unknown») as it is."""
    addr = _address(address)
    if addr is None:
        return address
    if isinstance(addr, ipaddress.IPv6Address):
        if addr.ipv4_mapped is not None:
            return str(addr.ipv4_mapped)
        return str(ipaddress.IPv6Network((addr, 64), strict=False))
    return str(addr)


# -- counting -------------------------------------------------------------------------------------------
def take(key: str, limit: int, window: int = WINDOW, *, hold: bool = False) -> int | None:
    """Take one try under ``key`` (atomically, across processes): the count with it, or None when ``limit``
    tries were already taken in the window. ``hold``: the try that reaches the limit restarts the window, so a
    lock lasts ``window`` seconds from when it began."""
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
    count = int(Strike.objects.filter(key=key).values_list("count", flat=True).first() or 1)
    if hold and count >= limit:
        Strike.objects.filter(key=key).update(started=now)
    return count


def give_back(*keys: str) -> None:
    """Return tries taken under ``keys`` (the guess was right)."""
    for key in keys:
        Strike.objects.filter(key=key[:200], count__gt=0).update(count=F("count") - 1)


def counts(*keys: str, window: int = WINDOW) -> dict[str, int]:
    """The counts under ``keys`` in their open windows (a key without one is left out)."""
    since = timezone.now() - dt.timedelta(seconds=window)
    return dict(Strike.objects.filter(key__in=keys, started__gt=since).values_list("key", "count"))


@dataclass(frozen=True)
class Ceiling:
    """A hard limit on a target from every client together, over a long ``window``: reached, the target is
    locked (for every client, the right answer too) until the window restarted by the lock ends or the lock
    is cleared."""

    key: str
    limit: int
    window: int


@dataclass(frozen=True)
class Limits:
    """A guesser's allowance: ``pair`` (this client on this target) is hard; ``ceiling`` (the target from
    everyone) is hard and locks; each of ``shared`` (the target from everyone, the client on every target)
    holds only for a client that has already missed this target."""

    pair: tuple[str, int]
    shared: Sequence[tuple[str, int]] = ()
    window: int = WINDOW
    ceiling: Ceiling | None = None


def locked(limits: Limits) -> bool:
    """Whether the ceiling of ``limits`` is reached (its target is locked)."""
    c = limits.ceiling
    return c is not None and counts(c.key, window=c.window).get(c.key, 0) >= c.limit


def admit(limits: Limits) -> list[str] | None:
    """Take one try under every key of ``limits``: the keys taken (give them back on success), or None when
    this try may not be made (nothing is kept taken then)."""
    key, limit = limits.pair
    mine = take(key, limit, limits.window)
    if mine is None:
        return None
    taken = [key]
    c = limits.ceiling
    if c is not None:
        if take(c.key, c.limit, c.window, hold=True) is None:
            give_back(*taken)
            return None
        taken.append(c.key)
    for shared_key, shared_limit in limits.shared:
        if take(shared_key, shared_limit, limits.window) is not None:
            taken.append(shared_key)
        elif mine > 1:  # the shared count is used up and this client has missed here already
            give_back(*taken)
            return None
    return taken


# -- the PIN check --------------------------------------------------------------------------------------
def participant_number(number: object) -> int | None:
    """The number as typed («7», « 07 ») → 7; anything else («¹», «①», «٣», 0) → None (one rule:
    :func:`tournaments.numbers.participant_number`)."""
    return numbers.participant_number(number if isinstance(number, int) else str(number or ""))


def _who(tournament: Tournament, number: int | None) -> str:
    return f"pin:{tournament.pk}:{number or 0}"


def pin_limits(tournament: Tournament, number: int | None, client: str) -> Limits:
    """The counts a PIN try for participant ``number`` of ``tournament`` from ``client`` is taken under."""
    who = _who(tournament, number)
    return Limits(
        pair=(f"{who}:from:{client_key(client)}", PER_CLIENT),
        ceiling=Ceiling(who, CEILING, LOCK),
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
    limits = pin_limits(tournament, n, client)
    taken = admit(limits)
    if taken is None and locked(limits):
        raise TooManyAttempts(
            _(
                "This participant's PIN is locked after too many wrong guesses. Ask the director to unlock it."
            ),
            retry_after=LOCK,
            code="too_many_pins",
        )
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


# -- what the director sees and clears ----------------------------------------------------------------------
@dataclass(frozen=True)
class PinStrikes:
    """A participant's wrong PINs from everyone in the ceiling's open window; ``locked`` past the ceiling."""

    number: int
    misses: int

    @property
    def locked(self) -> bool:
        return self.misses >= CEILING


def pin_strikes(tournament: Tournament) -> list[PinStrikes]:
    """The participants of ``tournament`` with wrong PINs counted now, by number."""
    prefix = f"pin:{tournament.pk}:"
    since = timezone.now() - dt.timedelta(seconds=LOCK)
    rows = Strike.objects.filter(key__startswith=prefix, started__gt=since, count__gt=0)
    found: dict[int, int] = {}
    for key, count in rows.values_list("key", "count"):
        rest = key[len(prefix) :]
        number = numbers.whole_number(rest)
        if number is not None:
            found[number] = count
    known = set(tournament.participants.filter(number__in=found).values_list("number", flat=True))
    return [PinStrikes(n, c) for n, c in sorted(found.items()) if n in known]


def pin_locks(tournament: Tournament) -> list[PinStrikes]:
    """The participants of ``tournament`` locked by the ceiling."""
    return [s for s in pin_strikes(tournament) if s.locked]


def unlock(*, tournament: Tournament, number: object, user: object, now: dt.datetime) -> PinStrikes:
    """The director clears participant ``number``'s wrong PINs: the lock and every client's count on him
    (audited as ``participant.pin_unlock``)."""
    n = participant_number(number)
    participant = Participant.objects.filter(tournament=tournament, number=n).first() if n else None
    if participant is None:
        raise UserError(_("There is no participant with this number."))
    who = _who(tournament, participant.number)
    misses = counts(who, window=LOCK).get(who, 0)
    with transaction.atomic():
        Strike.objects.filter(Q(key=who) | Q(key__startswith=f"{who}:from:")).delete()
        log_action(
            tournament=tournament,
            action="participant.pin_unlock",
            user=user,
            obj=participant,
            data={"number": participant.number, "misses": misses},
            at=now,
        )
    return PinStrikes(participant.number, misses)
