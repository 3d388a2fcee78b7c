"""The director's control of a table's time and state: stopping a table (the time limit, 004 fn 32; the deal in
progress is finished first, Code fn 94), reopening it, and extending its time limit — each audited with a reason.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from pulkas.models import PulkaRound, PulkaTable
from pulkas.services.sheet import load_sheet, locked_table, refresh_cache
from tournaments.audit import log_action
from tournaments.errors import Conflict, Detail, UserError

MAX_EXTENSION_MINUTES = 600


@transaction.atomic
def stop_table(*, table: PulkaTable, user: Any, now: dt.datetime, reason: str = "") -> PulkaTable:
    """The director stops the table (time limit, 004 fn[32]): the deal in progress is finished first (fn94),
    then the sheet is closed by Code 4.2.3 — every unplayed pool point goes on the mountain."""
    table = locked_table(table)
    sheet = load_sheet(table)
    sheet.tournament.ensure_scores_open()
    if table.finished:
        return table
    table.stopped_at = now
    table.version += 1
    table.save(update_fields=["stopped_at"])
    refresh_cache(sheet)
    log_action(
        tournament=sheet.tournament,
        action="pulka_table_stopped",
        obj=table,
        at=now,
        user=user,
        reason=reason,
        data={"table": table.number, "round": table.round.number, "deals": len(sheet.deals)},
    )
    return table


@transaction.atomic
def reopen_table(*, table: PulkaTable, user: Any, now: dt.datetime, reason: str) -> PulkaTable:
    """Undo a stop made in error (the director, with a reason)."""
    table = locked_table(table)
    sheet = load_sheet(table)
    sheet.tournament.ensure_scores_open()
    if not reason.strip():
        raise UserError(_("Say why the table is reopened."), code="reason_required")
    table.stopped_at = None
    table.version += 1
    table.save(update_fields=["stopped_at"])
    refresh_cache(sheet)
    log_action(
        tournament=sheet.tournament,
        action="pulka_table_reopened",
        obj=table,
        at=now,
        user=user,
        reason=reason,
        data={"table": table.number, "round": table.round.number},
    )
    return table


@transaction.atomic
def extend_time(*, table: PulkaTable, user: Any, now: dt.datetime, minutes: int, reason: str) -> PulkaTable:
    """The director gives a table more time (a new limit ``minutes`` from now, audited with a reason): the
    players may write deals again until it passes (004 fn 32; the table was waiting for him)."""
    table = locked_table(table)
    sheet = load_sheet(table)
    sheet.tournament.ensure_scores_open()
    if not reason.strip():
        raise UserError(_("Say why the time is extended."), code="reason_required")
    if not 1 <= minutes <= MAX_EXTENSION_MINUTES:
        words = _("Extend by 1 to %(m)s minutes.") % {"m": MAX_EXTENSION_MINUTES}
        raise UserError(
            words, code="extension_minutes", details=[Detail("minutes", "extension_minutes", words)]
        )
    if table.round.status != PulkaRound.Status.RUNNING or table.finished:
        raise Conflict(
            _("Only a table still playing in a running round gets more time."), code="table_not_playing"
        )
    old = table.time_limit
    table.ends_at = now + dt.timedelta(minutes=minutes)
    table.overtime_deal = None
    table.version += 1
    table.save(update_fields=["ends_at", "overtime_deal", "version"])
    log_action(
        tournament=sheet.tournament,
        action="pulka_time_extended",
        obj=table,
        at=now,
        user=user,
        reason=reason[:500],
        data={
            "table": table.number,
            "round": table.round.number,
            "old": old.isoformat() if old else None,
            "new": table.ends_at.isoformat(),
        },
    )
    return table
