"""The director's changes to results: rows, corrections, fouled boards, adjustments and penalties.

Rows go through ``scoring.results.result_save`` (the one write path: checked by the core, audited, rescored
after the commit); this module adds what a director's entry needs: the seats come from the stored seating,
the board must belong to the table's set, and nothing changes once the results are final.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from boards.models import Board
from preferans.numbers import NumberFormatError, format_fraction, parse_fraction
from scoring.models import Penalty, Result
from scoring.results import mark_changed, penalty_delete, penalty_save, result_delete, result_save
from tournaments.audit import log_action
from tournaments.models import Participant, Seating, Session
from tournaments.services.guards import DirectorError, ensure_results_editable

VERSION_LABELS = ("A", "B", "C", "D", "E", "F")
PENALTY_REASONS = (
    "12.2.1", "12.2.2", "12.2.3", "12.2.4", "12.2.5", "12.2.6", "12.2.7", "12.2.8",
)  # fmt: skip


def seating_of(session: Session, *, round: int, table: int, room: int = 1) -> Seating:
    seating = (
        Seating.objects.filter(session=session, round_number=round, table_number=table, room=room)
        .select_related("seat_n", "seat_e", "seat_s", "seat_w")
        .first()
    )
    if seating is None:
        raise DirectorError(_("Table %(t)s does not play in round %(r)s.") % {"t": table, "r": round})
    return seating


def boards_of_seating(session: Session, seating: Seating) -> list[Board]:
    return list(Board.objects.filter(session=session, set_number=seating.set_number).order_by("number"))


def director_result_save(
    *,
    session: Session,
    board: int,
    round: int,
    table: int,
    user: Any,
    room: int = 1,
    row: Mapping[str, Any] | None = None,
    adjusted: Mapping[str, Any] | None = None,
    assigned: Mapping[str, Any] | None = None,
    version: str | None = None,
    reason: str = "",
    replace: bool = False,
) -> Result:
    """Enter or correct the row of one board at one table in one round (or an adjustment in its place).

    The seats are the seating's. A correction (``replace``) keeps the row's fouled-board version unless
    ``version`` is given. Raises ``ResultRejected`` (the core's reasons), ``ResultConflict`` (a row exists and
    ``replace`` is off) or ``DirectorError``.
    """
    ensure_results_editable(session.tournament)
    seating = seating_of(session, round=round, table=table, room=room)
    numbers = [b.number for b in boards_of_seating(session, seating)]
    if board not in numbers:
        raise DirectorError(
            _("Board %(b)s is not in set %(s)s, which table %(t)s plays in round %(r)s.")
            % {"b": board, "s": seating.set_number, "t": table, "r": round}
        )
    if replace and not reason.strip():
        raise DirectorError(_("Say why the result is changed (it goes into the audit trail)."))
    if version is None:
        existing = Result.objects.filter(
            session=session, room=room, board_number=board, table_number=table, round_number=round
        ).first()
        version = existing.version if existing is not None else "A"
    seats = {seat: p.number for seat, p in seating.seats().items()}
    return result_save(
        session=session, board=board, round=round, table=table, room=room, seats=seats, row=row,
        adjusted=adjusted, assigned=assigned, version=version, status=Result.Status.DIRECTOR, user=user,
        reason=reason, replace=replace,
    )  # fmt: skip


def director_result_delete(*, result: Result, user: Any, reason: str) -> None:
    ensure_results_editable(result.session.tournament)
    if not reason.strip():
        raise DirectorError(_("Say why the result is deleted (it goes into the audit trail)."))
    result_delete(result=result, user=user, reason=reason)


def _resave(result: Result, *, user: Any, version: str, reason: str) -> Result:
    """Store a row again with another version: the same facts, through the one write path."""
    kind: dict[str, Any]
    if result.adjusted is not None:
        kind = {"adjusted": result.adjusted}
    elif result.assigned is not None:
        kind = {"assigned": result.assigned}
    else:
        kind = {"row": result.row}
    return result_save(
        session=result.session, board=result.board_number, round=result.round_number,
        table=result.table_number, room=result.room, seats=result.seats(), version=version,
        status=result.status, user=user, reason=reason, replace=True, **kind,
    )  # fmt: skip


@transaction.atomic
def board_mark_fouled(
    *, board: Board, user: Any, note: str, versions: Mapping[int, str] | None = None
) -> Board:
    """Rules §10: the board is fouled; each result names the version (A = as dealt, B, C…) it was played in.

    ``versions`` maps result ids of this board to labels; results not named keep theirs.
    """
    session = board.session
    ensure_results_editable(session.tournament)
    if not note.strip():
        raise DirectorError(
            _("Describe what happened to the board (which cards were displaced, at which tables).")
        )
    results = {r.pk: r for r in Result.objects.filter(session=session, board_number=board.number).select_related(
        "seat_n", "seat_e", "seat_s", "seat_w")}  # fmt: skip
    versions = dict(versions or {})
    unknown = set(versions) - set(results)
    if unknown:
        raise DirectorError(_("Some of the results are not of board %(b)s.") % {"b": board.number})
    bad = sorted({v for v in versions.values() if v not in VERSION_LABELS})
    if bad:
        raise DirectorError(_("Versions are labelled %(labels)s.") % {"labels": ", ".join(VERSION_LABELS)})
    was = (board.fouled, board.fouled_note)
    board.fouled, board.fouled_note = True, note.strip()
    board.save(update_fields=["fouled", "fouled_note"])
    log_action(
        tournament=session.tournament, action="board.fouled", user=user, obj=board, reason=note,
        data={"session": session.number, "board": board.number, "before": {"fouled": was[0], "note": was[1]},
              "versions": {str(results[k].table_number): v for k, v in versions.items()}},
    )  # fmt: skip
    for pk, label in versions.items():
        if results[pk].version != label:
            _resave(
                results[pk], user=user, version=label, reason=_("fouled board: version %(v)s") % {"v": label}
            )
    mark_changed(session)
    return board


@transaction.atomic
def board_clear_fouled(*, board: Board, user: Any, reason: str) -> Board:
    """The board was not fouled after all: every result goes back to version A."""
    session = board.session
    ensure_results_editable(session.tournament)
    if not reason.strip():
        raise DirectorError(_("Say why the board is no longer fouled."))
    for result in Result.objects.filter(session=session, board_number=board.number).exclude(version="A"):
        _resave(result, user=user, version="A", reason=reason)
    board.fouled, board.fouled_note = False, ""
    board.save(update_fields=["fouled", "fouled_note"])
    log_action(tournament=session.tournament, action="board.unfouled", user=user, obj=board, reason=reason,
               data={"session": session.number, "board": board.number})  # fmt: skip
    mark_changed(session)
    return board


@transaction.atomic
def penalty_add(
    *, session: Session, participant: Participant, matchpoints: str, reason: str, user: Any
) -> Penalty:
    """A procedural penalty (rules §12) in matchpoints (negative), added to the participant's session total."""
    ensure_results_editable(session.tournament)
    if participant.tournament_id != session.tournament_id:
        raise DirectorError(_("This participant is not in this tournament."))
    try:
        value = parse_fraction(matchpoints)
    except NumberFormatError as exc:
        raise DirectorError(_("Write the penalty as a number of matchpoints, e.g. -2 or -1/2.")) from exc
    if value >= 0:
        raise DirectorError(_("A penalty takes matchpoints away: write a negative number, e.g. -2."))
    if not reason.strip():
        raise DirectorError(_("Give the reason for the penalty (rules §12.2)."))
    return penalty_save(session=session, participant=participant, matchpoints=format_fraction(value),
                        reason=reason.strip()[:300], user=user)  # fmt: skip


@transaction.atomic
def penalty_remove(*, penalty: Penalty, user: Any, reason: str) -> None:
    ensure_results_editable(penalty.session.tournament)
    if not reason.strip():
        raise DirectorError(_("Say why the penalty is withdrawn."))
    penalty_delete(penalty=penalty, user=user, reason=reason)
