"""Withdrawing a stored score fact (a protocol row, a penalty): the rules every withdrawal shares.

Only while scores may change, always with a reason, audited with what was there before, and the standings are
recomputed. :func:`scoring.rows.result_delete` and :func:`scoring.penalties.penalty_delete` call it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import models, transaction

from scoring.rescore import mark_changed
from tournaments.audit import log_action
from tournaments.errors import UserError
from tournaments.models import Session


def withdraw(
    obj: models.Model,
    *,
    session: Session,
    action: str,
    data: dict[str, Any],
    reason: str,
    reason_missing: str,
    now: dt.datetime,
    user: Any = None,
    actor: str = "",
    arithmetic: bool = False,
) -> None:
    """Delete ``obj`` of ``session``; ``reason_missing`` is the message when no reason is given."""
    session.tournament.ensure_scores_open(arithmetic=arithmetic)
    if not reason.strip():
        raise UserError(reason_missing, code="reason_missing")
    with transaction.atomic():
        log_action(
            tournament=session.tournament,
            action=action,
            user=user,
            actor=actor,
            obj=obj,
            at=now,
            reason=reason,
            data={"session": session.number, **data},
        )
        obj.delete()
        mark_changed(session, now=now)
