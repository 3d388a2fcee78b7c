"""Who may change a table's sheet, and when: the rules every write of ``pulkas.services.sheet`` asks.

- A director's entry or correction is final for the players: they may not correct a deal the director wrote or
  corrected (the director rules on the sheet; a player who disagrees appeals).
- A finished pulka (its final deal confirmed, or written by the director) and a stopped table reopen only by the
  director (a correction or ``reopen_table``, with a reason, audited).
- Confirmations come only while the round runs and the table is not stopped.
- The time limit (004 fn 32: «Для всех столов устанавливается лимит времени»): after it the deal in progress may
  still be written (Code fn 94: «сдачу необходимо доиграть при любых обстоятельствах»), then the players are
  refused further deals until the director extends the limit or stops the table.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _

from pulkas.models import PulkaDeal, PulkaRound, PulkaTable
from tournaments.errors import Conflict, NotAllowed

# What only the director writes into a deal: penalties (extra entries, penalty tricks) and breaks in the dealing
# order (a deal dealt out of turn, a deal not written). A player's correction keeps
# those already on the deal.
DIRECTOR_ONLY = ("extra_entries", "penalty_tricks", "wrong_cards", "dealt_by", "not_written")


def players_write_no_penalties(row: Mapping[str, Any], keep: Mapping[str, Any] | None = None) -> None:
    """A player's row carries no extra entries or penalty tricks of its own (only those ``keep`` already has)."""
    for key in DIRECTOR_ONLY:
        if key in row and row[key] != (keep or {}).get(key):
            raise NotAllowed(
                _("Extra entries and penalty tricks are written by the director."), code="director_only"
            )


def _hhmm(moment: dt.datetime) -> str:
    return time_format(timezone.localtime(moment), "H:i")


def check_player_confirms(table: PulkaTable) -> None:
    """A confirmation is a player's write: refused once the director stopped the table or the round ended."""
    if table.stopped_at is not None:
        raise Conflict(
            _("The director stopped this table: confirmations are no longer accepted. Ask the director."),
            code="table_stopped",
        )
    if table.round.status != PulkaRound.Status.RUNNING:
        raise Conflict(
            _("The round is not running: confirmations are no longer accepted. Ask the director."),
            code="round_not_running",
        )


def check_player_corrects(table: PulkaTable, deal: PulkaDeal, *, ended: bool) -> None:
    """A player's correction: never of the director's entry; never of a finished pulka's confirmed final deal."""
    if deal.status == PulkaDeal.Status.DIRECTOR:
        raise NotAllowed(
            _(
                "Deal %(n)s was written or corrected by the director: his entry is final for the players. If "
                "you disagree, call the director or appeal."
            )
            % {"n": deal.number},
            code="director_entry_final",
        )
    if ended and deal.status == PulkaDeal.Status.CONFIRMED:
        raise Conflict(
            _(
                "The pulka is finished: its last deal is confirmed. Only the director can reopen it (with a "
                "reason)."
            ),
            code="pulka_finished",
        )


def time_over(table: PulkaTable, now: dt.datetime) -> bool:
    limit = table.time_limit
    return limit is not None and now >= limit


def check_time_limit(table: PulkaTable, number: int, now: dt.datetime, *, director: bool) -> bool:
    """Deal ``number`` may be written at ``now``? Returns True when it is the deal in progress at the limit
    (the caller records it on the table); refuses a player's later deal."""
    if not time_over(table, now):
        return False
    if table.overtime_deal is None:
        return True
    if number > table.overtime_deal and not director:
        limit = table.time_limit
        assert limit is not None
        raise Conflict(
            _(
                "The time limit passed at %(t)s and the deal in progress then (deal %(n)s) is written: no "
                "further deal may start. Ask the director to extend the time or to stop the table."
            )
            % {"t": _hhmm(limit), "n": table.overtime_deal},
            code="time_limit",
        )
    return False


def time_words(table: PulkaTable, now: dt.datetime) -> str:
    """The time limit in words for the phone page and the director's page ("" while time is left)."""
    if table.finished or table.round.status != PulkaRound.Status.RUNNING or not time_over(table, now):
        return ""
    limit = table.time_limit
    assert limit is not None
    if table.overtime_deal is not None and table.deals_count >= table.overtime_deal:
        return _(
            "The time limit passed at %(t)s; deal %(n)s, in progress then, is written. No further deal may "
            "start until the director extends the time or stops the table."
        ) % {"t": _hhmm(limit), "n": table.overtime_deal}
    return _(
        "The time limit passed at %(t)s: finish and write the deal in progress (Code, fn 94); then the table "
        "waits for the director."
    ) % {"t": _hhmm(limit)}
