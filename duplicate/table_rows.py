"""The players' rows at a duplicate table: the player at N enters and corrects them, the others confirm them (one
by one or all at once) or dispute them.

Every write goes through ``scoring.rows`` and ``scoring.confirmation`` (core validation, audit, idempotency,
rescoring); who acts and where is checked by ``duplicate.at_table``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from duplicate.at_table import (
    TableRefused,
    TableState,
    actor_name,
    check_row_of_table,
    confirmer_seat,
    seated,
)
from scoring.confirmation import ENTRY_SEAT, result_confirm, result_dispute
from scoring.errors import ResultConflict, ResultLocked
from scoring.models import Result
from scoring.row_command import PlayedRow, RowAuthor, RowCommand, RowPlace, RowWriting
from scoring.rows import result_save
from scoring.sqlite import write_transaction
from tournaments.models import Participant
from tournaments.numbers import whole_number

MAX_KEY_LENGTH = 200
MAX_BOARDS_READ = 24  # «Confirm all»: a set has at most 12 boards


def scoped_key(scope: str, key: str | None) -> str | None:
    """Client keys are scoped (per table, per director), so one client can never replay another's row."""
    if not key:
        return None
    return hashlib.sha256(f"{scope}|{key}".encode()).hexdigest()


def check_key(key: object) -> str | None:
    if key in (None, ""):
        return None
    text = str(key)
    if len(text) > MAX_KEY_LENGTH or not text.isprintable():
        raise TableRefused(
            "idempotency_key", _("The idempotency key must be at most 200 printable characters."), 400
        )
    return text


# -- the workflows --------------------------------------------------------------------------------------
def table_submit(
    *,
    state: TableState,
    participant: Participant,
    board_number: int,
    row: Mapping[str, Any],
    idempotency_key: str | None = None,
    replace: bool = False,
    now: dt.datetime,
    confirmed_by: list[Participant] | tuple[Participant, ...] = (),
    revision: int | None = None,
    bidding: str | None = None,
) -> tuple[Result, bool]:
    """The player at N writes the row of one board (``replace``: corrects it before anyone confirmed; with the
    ``revision`` he read, a row changed since is refused, :class:`~scoring.revisions.RowChanged`).

    ``confirmed_by``: the other players of the table (identified by their PINs on the same device) who
    agree with the row as it is sent, as if each had confirmed it; with all of them it is stored confirmed.
    Returns the row and whether it was created now (False: a retry of an earlier submission).
    Raises ResultRejected (the core's reasons), ResultConflict (another device was first), ResultLocked,
    TableRefused.
    """
    seat = seated(state, participant)
    if seat != ENTRY_SEAT:
        raise TableRefused(
            "not_entry_seat",
            _("The player at N fills in the protocol (rules §6); the others confirm it."),
            403,
        )
    confirmations: list[tuple[str, str]] = []
    for other in confirmed_by:
        other_seat = confirmer_seat(
            state, other, _("The player at N entered this row; the other players of the table confirm it.")
        )
        if any(s == other_seat for s, _who in confirmations):
            raise TableRefused(
                "confirmed_twice",
                _("Participant %(number)s is listed twice among the confirmations.")
                % {"number": other.number},
                400,
            )
        confirmations.append((other_seat, actor_name(state, other, other_seat)))
    key = scoped_key(f"table:{state.table.pk}", check_key(idempotency_key))
    if key:
        again = next(iter(Result.objects.filter(idempotency_key=key).order_by()[:1]), None)
        if again is not None:
            return _replayed(again, board_number), False
    place = RowPlace(
        session=state.session,
        board=board_number,
        round=state.round.number,  # type: ignore[union-attr]
        table=state.table.number,
        room=state.table.room,
        seats=state.seat_numbers,
        loaded_board=state.board(board_number) if state.boards_loaded else None,
        seating=state.seating,
    )
    content = PlayedRow(row=dict(row), bidding=bidding)
    author = RowAuthor(actor=actor_name(state, participant, seat))
    if replace:
        with write_transaction():
            current = (
                Result.objects.select_for_update()
                .filter(
                    session=state.session,
                    room=state.table.room,
                    table_number=state.table.number,
                    round_number=place.round,
                    board_number=board_number,
                )
                .first()
            )
            if current is None:
                raise TableRefused("not_entered", _("This board has not been entered yet."), 404)
            if current.status != Result.Status.ENTERED or current.confirmed_by:
                raise ResultLocked(current)
            correction = RowWriting(
                correction=True,
                revision=revision,
                reason="corrected by the player at N before confirmation",
                status=Result.Status.ENTERED,
                confirmations=confirmations,
                required=state.confirmers(),
            )
            result = result_save(RowCommand(place, content, correction, author), now=now)
        return result, False
    new_row = RowWriting(
        idempotency_key=key,
        key_checked=True,
        status=Result.Status.ENTERED,
        confirmations=confirmations,
        required=state.confirmers(),
    )
    try:
        return result_save(RowCommand(place, content, new_row, author), now=now), True
    except ResultConflict as exc:
        if key and exc.existing.idempotency_key == key:  # the same submission, a moment later
            return exc.existing, False
        raise


def _replayed(result: Result, board_number: int) -> Result:
    if result.board_number != board_number:
        raise TableRefused(
            "idempotency_key_reused",
            _("This idempotency key was already used for another board; send a new key."),
            409,
        )
    return result


def table_confirm(*, state: TableState, result: Result, participant: Participant, now: dt.datetime) -> Result:
    seat = _other_player(
        state,
        result,
        participant,
        _("The player at N entered this row; the other players of the table confirm it."),
    )
    return result_confirm(
        result=result,
        seat=seat,
        required=state.confirmers(),
        actor=actor_name(state, participant, seat),
        now=now,
    )


@dataclass
class ConfirmedAll:
    """What «Confirm all» did: the boards confirmed now, and those skipped with the reason in words."""

    confirmed: list[int] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)


def row_stamp(result: Result) -> str:
    """Which version of a row a player read: a row corrected since then is not confirmed unseen."""
    return f"{result.board_number}:{result.pk}:{int(result.updated_at.timestamp() * 1_000_000)}"


def pending_for(state: TableState, seat: str | None = None) -> list[Result]:
    """The rows of the running round waiting for a confirmation (by ``seat``, if given), in board order."""
    return [
        r
        for b in state.boards
        if (r := state.results.get(b.number)) is not None
        and (awaiting := state.awaiting(r))
        and (seat is None or seat in awaiting)
    ]


def table_confirm_all(
    *, state: TableState, participant: Participant, read: list[str], now: dt.datetime
) -> ConfirmedAll:
    """One player confirms every row he read (``read``: their :func:`row_stamp`) in one go, PIN typed once.

    Each row is confirmed and audited on its own, by the same rule as one confirmation; a row disputed,
    locked, corrected since it was read or already confirmed by him is skipped and named.
    """
    seat = confirmer_seat(
        state,
        participant,
        _("The player at N entered these rows; the other players of the table confirm them."),
    )
    done = ConfirmedAll()
    for stamp in list(dict.fromkeys(read))[:MAX_BOARDS_READ]:
        board = whole_number(stamp.split(":", 1)[0], digits=4)
        if board is None:
            continue
        result = state.results.get(board)
        if result is not None and seat in (result.confirmed_by or []):
            done.skipped.append((board, _("you have already confirmed it")))
        elif result is not None and result.status != Result.Status.ENTERED:
            done.skipped.append((board, _not_open(result)))
        elif result is None or row_stamp(result) != stamp:
            done.skipped.append(
                (board, _("the row was changed after you read it: open it and read it again"))
            )
        else:
            try:
                table_confirm(state=state, result=result, participant=participant, now=now)
            except ResultLocked as exc:
                done.skipped.append((board, _not_open(exc.result)))
            else:
                done.confirmed.append(board)
    return done


def _not_open(result: Result) -> str:
    """Why a row can no longer be confirmed, as the player reads it."""
    if result.status == Result.Status.DISPUTED:
        return _("it is disputed: the director decides")
    if result.status == Result.Status.CONFIRMED:
        return _("the table has already confirmed it")
    return _("it is locked: only the director changes it")


def table_dispute(
    *, state: TableState, result: Result, participant: Participant, reason: str, now: dt.datetime
) -> Result:
    seat = _other_player(
        state, result, participant, _("The player at N can correct the row until somebody confirms it.")
    )
    if not reason.strip():
        raise TableRefused("reason_missing", _("Say briefly what is wrong with the row."), 400)
    return result_dispute(
        result=result,
        seat=seat,
        reason=reason.strip()[:500],
        actor=actor_name(state, participant, seat),
        now=now,
    )


def _other_player(state: TableState, result: Result, participant: Participant, own_row: str) -> str:
    """The seat of a player of this table other than N, answering for a row of the table's running round."""
    seat = confirmer_seat(state, participant, own_row)
    check_row_of_table(state, result)
    return seat
