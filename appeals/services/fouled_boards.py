"""A fouled board (rules §10): the director's finding, and the version (A = as dealt, B, C…) each result was
played in. The results are stored again through the one write path (:func:`scoring.rows.result_resave`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from boards.models import Board
from scoring.models import Result
from scoring.rescore import mark_changed
from scoring.rows import result_resave
from tournaments.audit import log_action
from tournaments.errors import UserError

VERSION_LABELS = ("A", "B", "C", "D", "E", "F")


@transaction.atomic
def board_mark_fouled(
    *, board: Board, user: Any, note: str, now: dt.datetime, versions: Mapping[int, str] | None = None
) -> Board:
    """Rules §10: the board is fouled; each result names the version (A = as dealt, B, C…) it was played in.

    ``versions`` maps result ids of this board to labels; results not named keep theirs.
    """
    session = board.session
    session.tournament.ensure_scores_open()
    if not note.strip():
        raise UserError(
            _("Describe what happened to the board (which cards were displaced, at which tables).")
        )
    results = {
        r.pk: r
        for r in Result.objects.filter(session=session, board_number=board.number).select_related(
            "seat_n", "seat_e", "seat_s", "seat_w"
        )
    }
    versions = dict(versions or {})
    if set(versions) - set(results):
        raise UserError(_("Some of the results are not of board %(b)s.") % {"b": board.number})
    if any(v not in VERSION_LABELS for v in versions.values()):
        raise UserError(_("Versions are labelled %(labels)s.") % {"labels": ", ".join(VERSION_LABELS)})
    was = (board.fouled, board.fouled_note)
    board.fouled, board.fouled_note = True, note.strip()
    board.save(update_fields=["fouled", "fouled_note"])
    log_action(
        tournament=session.tournament,
        action="board.fouled",
        user=user,
        obj=board,
        reason=note,
        at=now,
        data={
            "session": session.number,
            "board": board.number,
            "before": {"fouled": was[0], "note": was[1]},
            "versions": {_table_key(results[k]): v for k, v in versions.items()},
        },
    )
    for pk, label in versions.items():
        if results[pk].version != label:
            result_resave(
                results[pk],
                user=user,
                version=label,
                now=now,
                reason=_("fouled board: version %(v)s") % {"v": label},
            )
    mark_changed(session, now=now)
    return board


@transaction.atomic
def board_clear_fouled(*, board: Board, user: Any, reason: str, now: dt.datetime) -> Board:
    """The board was not fouled after all: every result goes back to version A."""
    session = board.session
    session.tournament.ensure_scores_open()
    if not reason.strip():
        raise UserError(_("Say why the board is no longer fouled."))
    for result in Result.objects.filter(session=session, board_number=board.number).exclude(version="A"):
        result_resave(result, user=user, version="A", reason=reason, now=now)
    board.fouled, board.fouled_note = False, ""
    board.save(update_fields=["fouled", "fouled_note"])
    log_action(
        tournament=session.tournament,
        action="board.unfouled",
        user=user,
        obj=board,
        reason=reason,
        at=now,
        data={"session": session.number, "board": board.number},
    )
    mark_changed(session, now=now)
    return board


def _table_key(result: Result) -> str:
    """A table in the audit trail: «3», or «2/3» for table 3 of room 2 (rules §2: rooms number their tables from 1)."""
    return f"{result.room}/{result.table_number}" if result.room != 1 else str(result.table_number)
