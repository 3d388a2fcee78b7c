"""A duplicate table as its players see it: the running round, who sits where, its boards and their rows, and who
is acting there (number and PIN, the seat, the audit's name for him).

The table is found by its code (``events.tables.find_table``, either form); the player at N fills the protocol
row (rules §6) after identifying with participant number and PIN; the other players of the table confirm the row
with theirs, or dispute it (the workflows: ``duplicate.table_rows``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Subquery
from django.utils.translation import gettext as _

from boards.models import Board
from scoring.confirmation import ENTRY_SEAT, Confirmers, confirmers
from scoring.models import Result
from tournaments import pins
from tournaments.audit import player_actor
from tournaments.errors import UserError
from tournaments.models import Participant, Round, Seating, Session, Table, Tournament
from tournaments.numbers import participant_number


class TableRefused(UserError):
    """A request the table cannot accept; ``message`` is for the player (active language)."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message, code=code, status=status)


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
        """A row may be entered here now: a round runs, the table plays in it (not only duplicating its boards,
        §2) and the scores are open."""
        return (
            self.round is not None
            and self.seating is not None
            and not self.seating.duplicates_only
            and self.tournament.scores_open()
        )


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


def players_now(table: Table) -> list[Participant] | None:
    """The players seated at ``table`` in the running round (None: no round runs, or nobody sits there)."""
    seating = _lean_state(table).seating
    return list(seating.seats().values()) if seating is not None else None


# -- who is acting --------------------------------------------------------------------------------------
def identify(*, state: TableState, number: object, pin: object, ip: str) -> Participant:
    """The participant with this number and PIN (``tournaments.pins``: wrong PINs are counted and limited).

    While a round runs, only the players seated at this table answer here: a right PIN of anybody else is
    counted and answered as a wrong one, so the answer never tells a right PIN at the wrong table.
    """
    seats = list(state.seating.seats().values()) if state.seating is not None else None
    try:
        return pins.pin_holder(
            state.tournament,
            number=participant_number(number),
            pin=pin,
            client=ip,
            known=seats or (),
            among=seats,
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
    """Who acted at the table, as the audit stores a player of either form (``tournaments.audit.player_actor``)."""
    return player_actor(participant, table=state.table.number, seat=seat)


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
