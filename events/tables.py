"""A table of either form, found by the code on its table card: the one lookup every channel calls (the players'
phone pages of both forms, the API's player login and its pulka table views), and who may answer with a PIN there.

A code is unique across both forms (``tournaments.table_codes.unused_table_code``), so the code alone says which
table it opens, a duplicate ``Table`` or a ``PulkaTable``; the channel then opens that form's page. The code is
normalised one way (``normalise_code``: case, spaces and dashes do not matter); a known code always opens its
table, and each unknown code is counted once against the client's allowance (``tournaments.ratelimit``), whichever
channel it came through. The refusals are the same words everywhere: ``table_unknown`` (404) and
``too_many_codes`` (429).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from duplicate.at_table import players_now
from pulkas.models import PulkaTable
from tournaments import pins, ratelimit
from tournaments.errors import TooManyAttempts, UserError
from tournaments.models import Participant, Table, Tournament
from tournaments.numbers import participant_number
from tournaments.table_codes import normalise_code

AnyTable = Table | PulkaTable


class TableUnknown(UserError):
    """No table of either form has this code."""

    code = "table_unknown"
    status = 404


def find_table(code: object, *, client: str) -> AnyTable:
    """The table of either form with this code (a duplicate table with its session and tournament, a pulka table
    with its round, tournament and players loaded). Raises :class:`TableUnknown` for a code no table has, and
    :class:`~tournaments.errors.TooManyAttempts` once ``client`` has sent too many of those.

    Codes are drawn unique across both forms, but no database constraint spans the two tables: a code that two
    tables got before that rule (about one chance in 10⁹ per pair) opens the duplicate table."""
    wanted = normalise_code(code)

    def known() -> AnyTable | None:
        if not wanted:
            return None
        duplicate = Table.objects.select_related("session__tournament").filter(code=wanted).first()
        if duplicate is not None:
            return duplicate
        return (
            PulkaTable.objects.select_related("round__tournament", "seat_n", "seat_e", "seat_s", "seat_w")
            .filter(code=wanted)
            .first()
        )

    try:
        table = ratelimit.look_up(client, known)
    except ratelimit.Limited as exc:
        raise TooManyAttempts(
            _("Too many unknown table codes from this device. Wait ten minutes or ask the director."),
            retry_after=exc.retry_after,
            code="too_many_codes",
        ) from exc
    if table is None:
        raise TableUnknown(_("There is no table with this code. Check the table card."))
    return table


def tournament_of(table: AnyTable) -> Tournament:
    return table.round.tournament if isinstance(table, PulkaTable) else table.session.tournament


def players_at(table: AnyTable) -> list[Participant] | None:
    """Who plays at the table now: a pulka table's players, or those seated at a duplicate table in the running
    round (None when no round runs there: then any participant of the tournament answers, and the channel
    decides what he may do)."""
    if isinstance(table, PulkaTable):
        return [p for p in table.seats().values() if isinstance(p, Participant)]
    return players_now(table)


def player_at(table: AnyTable, *, number: object, pin: object, client: str) -> Participant:
    """The player of this table with this number and PIN, by the one PIN check (``tournaments.pins.pin_holder``:
    wrong guesses counted). While somebody plays there, a right PIN of anybody else is counted and answered as a
    wrong one, so the answer never tells a right PIN at the wrong table."""
    players = players_at(table)
    return pins.pin_holder(
        tournament_of(table),
        number=participant_number(number),
        pin=pin,
        client=client,
        known=players or (),
        among=players,
    )
