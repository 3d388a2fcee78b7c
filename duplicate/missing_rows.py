"""General provisions «При отсутствии записей в протоколе судья не принимает (может, но не обязан) никаких
претензий и назначает присужденный результат»: a row missing from a table's protocol once its round ended gets a
proposed artificial result (§11.2 Б.1: A− for a side at fault, A for one partly at fault, A+ for one not at fault),
which the director accepts in one step; the row is then written through the one write path
(:func:`scoring.rows.result_save`) and audited with its reason.

The software's choices: a proposal is made only for an ended round (while it runs the table may still write the
row) and never for a table that only duplicates its boards (§2) or for a board it is to play later (§11.6 А.2); by
default every seat is partly at fault (A): the whole table keeps the protocol; the director says otherwise seat by
seat when he accepts it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from duplicate.late_boards import late_places
from duplicate.session_facts import SessionFacts
from preferans.duplicate.rulings import Fault, grades_by_fault
from scoring.models import Result
from scoring.row_command import ArtificialAdjustment, RowAuthor, RowCommand, RowPlace, RowWriting
from scoring.rows import result_save
from tournaments.errors import UserError
from tournaments.models import Participant, Round, Session

# The reason the audit trail keeps (the code's words; tournaments.audit.SYSTEM_REASONS translates them).
REASON = "missing protocol row: assigned result (general provisions)"
DEFAULT_FAULT = Fault.PARTLY


@dataclass(frozen=True)
class MissingRow:
    """A board a table should have played in an ended round and has no row for, with the proposed grades."""

    round: int
    room: int
    table: int
    board: int
    seats: dict[str, Participant]
    grades: dict[str, str]


def missing_rows(session: Session, facts: SessionFacts | None = None) -> list[MissingRow]:
    """Every row missing in the ended rounds of the session, each with its proposed artificial result."""
    ended = set(session.rounds.filter(status=Round.Status.ENDED).values_list("number", flat=True))
    if not ended:
        return []
    facts = facts or SessionFacts(session)
    later = late_places(session, facts)
    out: list[MissingRow] = []
    for s in facts.seatings:
        if s.round_number not in ended or s.duplicates_only:
            continue
        seats = s.seats()
        for board in facts.boards_of.get(s.set_number, []):
            place = (s.round_number, s.room, s.table_number, board)
            if place in facts.row_places or place in later:
                continue
            fault = {seat: str(DEFAULT_FAULT) for seat in seats}
            out.append(
                MissingRow(
                    s.round_number, s.room, s.table_number, board, seats, grades_by_fault(list(seats), fault)
                )
            )
    return out


def missing_row_assign(
    *,
    session: Session,
    round: int,
    table: int,
    board: int,
    room: int = 1,
    fault: Mapping[str, str] | None = None,
    user: Any,
    now: dt.datetime,
) -> Result:
    """The director accepts the proposed result of a missing row (``fault``: seat → offending, partly or none;
    a seat not named keeps the proposal's). Refused when the row is no longer missing."""
    found = next(
        (
            m
            for m in missing_rows(session)
            if (m.round, m.room, m.table, m.board) == (round, room, table, board)
        ),
        None,
    )
    if found is None:
        raise UserError(
            _(
                "Board %(b)s at table %(t)s in round %(r)s is not missing a result (any more): reload the page."
            )
            % {"b": board, "t": table, "r": round},
            code="row_not_missing",
            status=409,
        )
    chosen = {seat: str(DEFAULT_FAULT) for seat in found.seats}
    for seat, value in (fault or {}).items():
        if seat not in chosen or value not in {str(f) for f in Fault}:
            raise UserError(
                _("Say for each seat whether the player is at fault, partly at fault or not at fault."),
                code="fault_invalid",
            )
        chosen[seat] = value
    grades = grades_by_fault(list(found.seats), chosen)
    return result_save(
        RowCommand(
            RowPlace(session=session, board=board, round=round, table=table, room=room),
            ArtificialAdjustment(grades=grades),
            RowWriting(status=Result.Status.DIRECTOR, reason=REASON),
            RowAuthor(user=user),
        ),
        now=now,
    )
