"""Who this device is, at a table of either form: the signed cookie that remembers a participant who showed his
number and PIN here, for this table and its round only.

The player at N of a duplicate table types his PIN once per round; the cookie then remembers him on that device,
so he need not type it again for every row (``remembered``). A player who confirms or disputes a row, writes or
confirms a pulka deal, or identifies himself with «Show the rows» / «Show the sheet», is remembered the same way
(``viewer``): the page shows the contents of the rows or the sheet only to such a device (rules §12.2.4,
``table.page``, ``table.pulka_page``).

Both forms give the device memory the same three things, a :class:`DeviceTable`: a key of the table (its cookie's
name, apart from every other table's of either form), the round it remembers for (another round forgets him) and
who sits where now.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.core import signing
from django.http import HttpRequest, HttpResponse

from duplicate.at_table import TableState
from pulkas.models import PulkaTable
from tournaments.models import Participant

COOKIE_SALT = "scoring.table.player"
COOKIE_AGE = 6 * 3600


@dataclass(frozen=True)
class DeviceTable:
    """A table as the device memory reads it, either form."""

    key: str  # in the cookie's name: a duplicate table's pk, «pulka-<pk>» for a pulka table
    round_pk: int | None  # the round he is remembered for; None: no round runs, nobody is remembered
    seats: Mapping[str, Participant]  # who sits where in that round

    @classmethod
    def duplicate(cls, state: TableState) -> DeviceTable:
        """A duplicate table in its running round."""
        return cls(str(state.table.pk), state.round.pk if state.round else None, state.seats)

    @classmethod
    def pulka(cls, table: PulkaTable, seats: Mapping[str, Participant]) -> DeviceTable:
        """A pulka table: its players are its round's (a pulka table exists only in its round)."""
        return cls(f"pulka-{table.pk}", table.round_id, seats)

    @property
    def cookie(self) -> str:
        return f"table-player-{self.key}"

    def seat_of(self, participant: Participant) -> str | None:
        return next((seat for seat, p in self.seats.items() if p.pk == participant.pk), None)


def viewer(request: HttpRequest, table: DeviceTable) -> Participant | None:
    """The participant this device remembers for this table and round, if seated here in it (any seat)."""
    if table.round_pk is None:
        return None
    try:
        value = request.get_signed_cookie(table.cookie, salt=COOKIE_SALT, max_age=COOKIE_AGE)
        participant_pk, round_pk = (int(x) for x in str(value).split(":"))
    except (KeyError, signing.BadSignature, ValueError):
        return None
    if round_pk != table.round_pk:
        return None
    return next((p for p in table.seats.values() if p.pk == participant_pk), None)


def remembered(request: HttpRequest, table: DeviceTable, seat: str) -> Participant | None:
    """The participant this device remembers for this table and round, if he still sits at ``seat``."""
    participant = viewer(request, table)
    if participant is None or table.seat_of(participant) != seat:
        return None
    return participant


def remember(
    request: HttpRequest, response: HttpResponse, table: DeviceTable, participant: Participant
) -> None:
    """This device remembers ``participant`` at this table for this round (he showed his number and PIN)."""
    assert table.round_pk is not None
    response.set_signed_cookie(
        table.cookie,
        f"{participant.pk}:{table.round_pk}",
        salt=COOKIE_SALT,
        max_age=COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )


def forget(response: HttpResponse, table: DeviceTable) -> None:
    """«Not you?»: this device remembers nobody at this table any more."""
    response.delete_cookie(table.cookie)
