"""Players at a table: who sits there this round, which boards they play, entering and confirming rows.

The table is found by its short code; the player at N fills the protocol row (rules §6) after identifying
with participant number and PIN; the other players of the table confirm the row with theirs, or dispute it.
All writes go through ``scoring.rows`` and ``scoring.confirmation`` (core validation, audit, idempotency, rescoring).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Subquery
from django.utils.translation import gettext as _

from boards.models import Board
from scoring.confirmation import ENTRY_SEAT, Confirmers, confirmers, result_confirm, result_dispute
from scoring.errors import ResultConflict, ResultLocked
from scoring.models import Result
from scoring.row_command import PlayedRow, RowAuthor, RowCommand, RowPlace, RowWriting
from scoring.rows import result_save
from scoring.sqlite import write_transaction
from tournaments import pins, ratelimit
from tournaments.errors import UserError
from tournaments.models import Participant, Round, Seating, Session, Table, Tournament
from tournaments.table_codes import normalise_code

MAX_KEY_LENGTH = 200
MAX_BOARDS_READ = 24  # «Confirm all»: a set has at most 12 boards


class TableRefused(UserError):
    """A request the table cannot accept; ``message`` is for the player (active language)."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message, code=code, status=status)


def find_table(code: str, *, ip: str) -> Table:
    """The table with this code. A known code always opens it; unknown codes count against the client's
    guessing allowance (``tournaments.ratelimit``)."""
    wanted = normalise_code(code)
    try:
        table = ratelimit.look_up(
            ip,
            lambda: (
                Table.objects.select_related("session__tournament").filter(code=wanted).first()
                if wanted
                else None
            ),
        )
    except ratelimit.Limited as exc:
        raise TableRefused(
            "too_many_codes",
            _("Too many unknown table codes from this device. Wait ten minutes or ask the director."),
            429,
        ) from exc
    if table is None:
        raise TableRefused("table_unknown", _("There is no table with this code. Check the table card."), 404)
    return table


@dataclass
class TableState:
    """What a table is doing now: the running round, who sits where, its boards and their rows."""

    table: Table
    session: Session
    tournament: Tournament
    round: Round | None
    next_round: Round | None
    last_round: Round | None
    seating: Seating | None
    boards: list[Board] = field(default_factory=list)
    results: dict[int, Result] = field(default_factory=dict)
    #: False for the API's lean state: boards are then looked up one at a time, and ``results`` is empty.
    boards_loaded: bool = True

    @property
    def players(self) -> int:
        return int(self.tournament.players_per_table)

    @property
    def seats(self) -> dict[str, Participant]:
        return self.seating.seats() if self.seating else {}

    @property
    def seat_numbers(self) -> dict[str, int]:
        return {seat: p.number for seat, p in self.seats.items()}

    def seat_of(self, participant: Participant) -> str | None:
        for seat, p in self.seats.items():
            if p.pk == participant.pk:
                return seat
        return None

    def board(self, number: int) -> Board | None:
        if not self.boards_loaded:
            if self.seating is None:
                return None
            board = Board.objects.filter(session=self.session, number=number).first()
            return board if board is not None and self.seating.plays(board) else None
        return next((b for b in self.boards if b.number == number), None)

    def confirmers(self) -> Confirmers:
        """Who confirms a row here and how many of them close it: the tournament's rule (``scoring.confirmation``)."""
        return confirmers(self.tournament)

    def awaiting(self, result: Result) -> list[str]:
        """The seats that may still confirm the row (none once it is no longer waiting)."""
        if result.status != Result.Status.ENTERED:
            return []
        return self.confirmers().awaiting(result.confirmed_by or [])

    def is_current(self, result: Result) -> bool:
        return (
            self.round is not None
            and result.session_id == self.session.pk
            and result.round_number == self.round.number
            and result.table_number == self.table.number
            and result.room == self.table.room
        )

    @property
    def can_enter(self) -> bool:
        return self.round is not None and self.seating is not None and self.tournament.scores_open()


def table_state(table: Table, *, lean: bool = False) -> TableState:
    """The table's state; ``lean`` (the API's requests) reads only the running round and its seating.

    A lean state has no next/last round, no board list and no rows: two queries instead of six, for the
    requests a table's phones send all round long.
    """
    session = table.session
    if lean:
        return _lean_state(table)
    rounds = list(session.rounds.order_by("number"))
    running = [r for r in rounds if r.status == Round.Status.RUNNING]
    current = running[-1] if running else None
    pending = [r for r in rounds if r.status == Round.Status.PENDING]
    ended = [r for r in rounds if r.status == Round.Status.ENDED]
    state = TableState(
        table=table,
        session=session,
        tournament=session.tournament,
        round=current,
        next_round=pending[0] if pending else None,
        last_round=ended[-1] if ended else None,
        seating=None,
    )
    if current is None:
        return state
    state.seating = _seating(table, current)
    if state.seating is None:
        return state
    state.seating.session = session
    # Rules §4: the deals of a round are played strictly in numerical order.
    state.boards = list(state.seating.set_boards())
    state.results = {
        r.board_number: r
        for r in Result.objects.select_related("seat_n", "seat_e", "seat_s", "seat_w").filter(
            session=session,
            room=table.room,
            table_number=table.number,
            round_number=current.number,
            board_number__in=[b.number for b in state.boards],
        )
    }
    return state


def _lean_state(table: Table) -> TableState:
    """The running round's seating at this table in one query (the round found by a subquery)."""
    session = table.session
    running = Round.objects.filter(session_id=table.session_id, status=Round.Status.RUNNING).order_by(
        "-number"
    )
    seating = (
        Seating.objects.select_related("seat_n", "seat_e", "seat_s", "seat_w")
        .filter(
            session_id=table.session_id,
            room=table.room,
            table_number=table.number,
            round_number=Subquery(running.values("number")[:1]),
        )
        .annotate(running_round_id=Subquery(running.values("pk")[:1]))
        .first()
    )
    if seating is not None:
        seating.session = session
        current: Round | None = Round(
            pk=seating.running_round_id,  # type: ignore[attr-defined]
            session=session,
            number=seating.round_number,
            status=Round.Status.RUNNING,
        )
    else:  # nobody seated here, or no round running: say which
        current = running.first()
    return TableState(
        table=table,
        session=session,
        tournament=session.tournament,
        round=current,
        next_round=None,
        last_round=None,
        seating=seating,
        boards_loaded=False,
    )


def _seating(table: Table, current: Round) -> Seating | None:
    return (
        Seating.objects.select_related("seat_n", "seat_e", "seat_s", "seat_w")
        .filter(
            session_id=table.session_id,
            room=table.room,
            table_number=table.number,
            round_number=current.number,
        )
        .first()
    )


# -- who is acting --------------------------------------------------------------------------------------
def identify(*, state: TableState, number: object, pin: object, ip: str) -> Participant:
    """The participant with this number and PIN (``tournaments.pins``: wrong PINs are counted and limited).

    While a round runs, only the players seated at this table answer here: a right PIN of anybody else is
    counted and answered as a wrong one, so the answer never tells a right PIN at the wrong table. (The API's
    token names no round: its state has no seating, and the running round's is read here.)
    """
    seating = state.seating
    if seating is None and state.round is None:
        seating = _lean_state(state.table).seating
    seats = list(seating.seats().values()) if seating is not None else None
    try:
        return pins.pin_holder(
            state.tournament, number=number, pin=pin, client=ip, known=seats or (), among=seats
        )
    except UserError as exc:
        raise TableRefused(exc.code, exc.message, exc.status) from exc


def seated(state: TableState, participant: Participant) -> str:
    """The participant's seat at this table in the running round (else refused)."""
    require_round(state)
    seat = state.seat_of(participant)
    if seat is None:
        raise TableRefused(
            "not_seated",
            _("Participant %(number)s does not sit at this table in this round.")
            % {"number": participant.number},
            403,
        )
    return seat


def require_round(state: TableState) -> None:
    if state.round is None:
        raise TableRefused("no_round", _("No round is running at the moment."), 409)
    if state.seating is None:
        raise TableRefused("no_seating", _("Nobody is seated at this table in this round."), 409)
    state.tournament.ensure_scores_open()


def actor_name(state: TableState, participant: Participant, seat: str) -> str:
    """Who acted at the table, as the audit stores it: «3 Ivanov · 1/S» (number, name · table/seat), in no
    language; the audit pages say it in the reader's words (``ui.templatetags.words.actor_words``)."""
    return f"{participant.number} {participant.name}".strip() + f" · {state.table.number}/{seat}"


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
    content = PlayedRow(row=dict(row))
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
        head = stamp.split(":", 1)[0]
        if not head.isdigit() or len(head) > 4:
            continue
        board = int(head)
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


def confirmer_seat(state: TableState, participant: Participant, own_row: str) -> str:
    """The seat of a player of this table other than N (``own_row``: why N is refused, in words)."""
    seat = seated(state, participant)
    if seat == ENTRY_SEAT:
        raise TableRefused("own_row", own_row, 403)
    return seat


def check_row_of_table(state: TableState, result: Result) -> None:
    """The row is one of this table's running round (a player answers only for those)."""
    if not state.is_current(result):
        raise TableRefused("not_this_table", _("This row is not from this table's current round."), 403)
