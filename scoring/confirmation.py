"""Confirmation at the table: the other players agree with the row N entered, or dispute it (rules §6).

A confirmed row is locked for the players; a disputed one waits for the director. Both are audited.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction

from scoring.errors import ResultLocked
from scoring.models import Result
from tournaments.audit import log_action


def reuse_relations(fresh: Result, loaded: Result) -> Result:
    """Give a freshly read row the session and seats ``loaded`` already holds (saves their queries)."""
    for name in ("session", "seat_n", "seat_e", "seat_s", "seat_w"):
        field = Result._meta.get_field(name)
        if field.is_cached(loaded) and getattr(fresh, field.attname) == getattr(loaded, field.attname):  # type: ignore[union-attr]
            field.set_cached_value(fresh, field.get_cached_value(loaded))  # type: ignore[union-attr]
    return fresh


def result_confirm(
    *,
    result: Result,
    seat: str | None,
    required: tuple[str, ...] | list[str] = (),
    now: dt.datetime,
    user: Any = None,
    actor: str = "",
    reason: str = "",
) -> Result:
    """One seat's player agrees with the row (``seat=None``: the director approves it outright).

    The row is confirmed (locked for the players) once every seat in ``required`` has agreed. Confirming
    twice is harmless; a disputed, director's or already-locked row cannot be confirmed by a player. ``reason``
    goes into the audit entry (the director accepting a disputed row as entered names the dispute he settles).
    """
    current_scores_open(result)
    with transaction.atomic():
        current = reuse_relations(Result.objects.select_for_update().get(pk=result.pk), result)
        confirmed = list(current.confirmed_by or [])
        if seat is None:
            if current.status == Result.Status.CONFIRMED:
                return current
            current.status = Result.Status.CONFIRMED
        else:
            if seat in confirmed and current.status in (Result.Status.ENTERED, Result.Status.CONFIRMED):
                return current
            if current.status != Result.Status.ENTERED:
                raise ResultLocked(current)
            confirmed.append(seat)
            current.confirmed_by = confirmed
            if all(s in confirmed for s in required):
                current.status = Result.Status.CONFIRMED
        current.save(update_fields=["confirmed_by", "status", "updated_at"])
        log_action(
            tournament=current.session.tournament,
            action="result.confirm",
            user=user,
            actor=actor,
            obj=current,
            at=now,
            reason=reason,
            data={
                "session": current.session.number,
                "seat": seat,
                "status": current.status,
                "confirmed_by": confirmed,
            },  # fmt: skip
        )
    return current


def result_dispute(
    *,
    result: Result,
    seat: str,
    reason: str,
    now: dt.datetime,
    user: Any = None,
    actor: str = "",
) -> Result:
    """A player at the table does not agree: the row waits for the director (status ``disputed``)."""
    current_scores_open(result)
    line = f"{seat}: {reason.strip()}"
    with transaction.atomic():
        current = reuse_relations(Result.objects.select_for_update().get(pk=result.pk), result)
        if current.status == Result.Status.DISPUTED and line in current.dispute.splitlines():
            return current
        if current.status not in (Result.Status.ENTERED, Result.Status.DISPUTED):
            raise ResultLocked(current)
        current.status = Result.Status.DISPUTED
        current.dispute = f"{current.dispute}\n{line}".strip() if current.dispute else line
        current.save(update_fields=["status", "dispute", "updated_at"])
        log_action(
            tournament=current.session.tournament,
            action="result.dispute",
            user=user,
            actor=actor,
            obj=current,
            at=now,
            reason=reason,
            data={"session": current.session.number, "seat": seat},
        )
    return current


def current_scores_open(result: Result) -> None:
    """Confirming or disputing changes what the standings rest on: not once the scores are closed."""
    result.session.tournament.ensure_scores_open()
