"""§11.6 А.2 «Судья может потребовать, чтобы позднее все игроки сыграли правильную сдачу друг против друга»: the
director records a board a table is to play later; its row is written at the table's place in the round it was
due (the same players, against one another: their seating) by the director on the table's page of that round, which
accepts it after that round ended too; the late board is played once that row exists. The dashboard lists the open ones, the gaps name them.

The software's choices: the row goes to the round the board was due in (so the players' movement does not matter);
the director records it (from a §11.6 ruling that says so, or by hand); it must be a board of the table's set in
that round with no row yet.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from boards.models import Board
from duplicate.session_facts import SessionFacts
from scoring.models import LateBoard, Result
from tournaments.audit import log_action
from tournaments.errors import UserError
from tournaments.models import Seating, Session

REASON_MAX = 300
# The reason a §11.6 ruling writes (the code's words; tournaments.audit.SYSTEM_REASONS translates them).
LATE_REASON = "the director's ruling on a wrong board (§11.6 A.2)"


@transaction.atomic
def late_board_record(
    *,
    session: Session,
    round: int,
    table: int,
    board: int,
    room: int = 1,
    reason: str = "",
    user: Any,
    now: dt.datetime,
) -> LateBoard:
    """The table at ``table`` in ``round`` is to play ``board`` later (§11.6 А.2); audited."""
    tournament = session.tournament
    tournament.ensure_scores_open()
    reason = (reason or "").strip()
    if len(reason) > REASON_MAX:
        raise UserError(_("The reason is at most 300 characters."), code="reason_too_long")
    seating = Seating.objects.filter(
        session=session, round_number=round, table_number=table, room=room
    ).first()
    if seating is None:
        raise UserError(
            _("Nobody is seated at table %(t)s in round %(r)s.") % {"t": table, "r": round},
            code="seating_missing",
            status=404,
        )
    found = Board.objects.filter(session=session, number=board).first()
    if found is None or not seating.plays(found):
        raise UserError(
            _("Board %(b)s is not one the table plays in round %(r)s.") % {"b": board, "r": round},
            code="board_not_in_set",
        )
    if seating.duplicates_only:
        raise UserError(
            _("Table %(t)s only duplicates its boards in round %(r)s.") % {"t": table, "r": round},
            code="table_duplicates_only",
        )
    if Result.objects.filter(
        session=session, round_number=round, table_number=table, room=room, board_number=board
    ).exists():
        raise UserError(
            _("Board %(b)s already has a result at table %(t)s in round %(r)s.")
            % {"b": board, "t": table, "r": round},
            code="late_board_played",
            status=409,
        )
    try:
        with transaction.atomic():
            late = LateBoard.objects.create(
                session=session,
                room=room,
                round_number=round,
                table_number=table,
                board_number=board,
                reason=reason,
                created_at=now,
            )
    except IntegrityError as exc:
        raise UserError(
            _("Board %(b)s is already to be played later at table %(t)s.") % {"b": board, "t": table},
            code="late_board_twice",
            status=409,
        ) from exc
    log_action(
        tournament=tournament,
        action="round.late_board",
        user=user,
        obj=late,
        at=now,
        reason=reason,
        data={"session": session.number, "round": round, "table": table, "room": room, "board": board},
    )
    return late


@dataclass(frozen=True)
class LateBoardState:
    late: LateBoard
    played: bool


def late_boards(session: Session, facts: SessionFacts | None = None) -> list[LateBoardState]:
    """The session's boards to play later, each with whether its row is written."""
    facts = facts or SessionFacts(session)
    return [
        LateBoardState(
            late, (late.round_number, late.room, late.table_number, late.board_number) in facts.row_places
        )
        for late in facts.late
    ]


def late_places(session: Session, facts: SessionFacts | None = None) -> set[tuple[int, int, int, int]]:
    """(round, room, table, board) of every board to play later that has no row yet."""
    return {
        (s.late.round_number, s.late.room, s.late.table_number, s.late.board_number)
        for s in late_boards(session, facts)
        if not s.played
    }
