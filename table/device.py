"""Who this device is: the signed cookie that remembers a participant seated at this table in this round.

The player at N types his PIN once per round; the cookie then remembers him on that device for this table
and round only (``remember``), so he need not type it again for every row. A player who confirms or disputes
a row, or who identifies himself with «Show the rows», is remembered the same way (``viewer``): the page
shows the contents of the rows only to such a device (rules §12.2.4, ``table.page``).
"""

from __future__ import annotations

from django.core import signing
from django.http import HttpRequest, HttpResponse

from duplicate import at_table
from duplicate.at_table import TableState
from tournaments.models import Participant

COOKIE_SALT = "scoring.table.player"
COOKIE_AGE = 6 * 3600


def cookie_name(state: TableState) -> str:
    return f"table-player-{state.table.pk}"


def viewer(request: HttpRequest, state: TableState) -> Participant | None:
    """The participant this device remembers for this table and round, if seated here in it (any seat)."""
    if state.round is None:
        return None
    try:
        value = request.get_signed_cookie(cookie_name(state), salt=COOKIE_SALT, max_age=COOKIE_AGE)
        participant_pk, round_pk = (int(x) for x in str(value).split(":"))
    except (KeyError, signing.BadSignature, ValueError):
        return None
    if round_pk != state.round.pk:
        return None
    return next((p for p in state.seats.values() if p.pk == participant_pk), None)


def remembered(request: HttpRequest, state: TableState) -> Participant | None:
    """The player at N this device remembers for this table and round, if still seated at N."""
    participant = viewer(request, state)
    if participant is None or state.seat_of(participant) != at_table.ENTRY_SEAT:
        return None
    return participant


def remember(
    request: HttpRequest, response: HttpResponse, state: TableState, participant: Participant
) -> None:
    assert state.round is not None
    response.set_signed_cookie(
        cookie_name(state),
        f"{participant.pk}:{state.round.pk}",
        salt=COOKIE_SALT,
        max_age=COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )


def forget(response: HttpResponse, state: TableState) -> None:
    """«Not you?»: this device remembers nobody at this table any more."""
    response.delete_cookie(cookie_name(state))
