"""Confirmation at the table: the other players agree with the row N entered, or dispute it (rules §6).

A confirmed row is locked for the players; a disputed one waits for the director. Both are audited.

Which seats confirm and how many of them close a row is decided here only (:func:`confirmers`): every
channel (a phone, the table's device, the API, the row stored already agreed) asks the same rule. The
tournament chooses «every opponent» (the default, and what every event created before the setting did) or
«one opponent», as bridge table terminals do.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from preferans.game.seats import table_seats
from scoring.errors import ResultLocked
from scoring.models import Result
from tournaments.audit import log_action
from tournaments.models import Confirmation, Tournament

ENTRY_SEAT = "N"  # rules §6: the player at N takes the protocol out and fills the row; the others confirm


@dataclass(frozen=True)
class Confirmers:
    """The seats that confirm a row the player at N entered, and whether one of them is enough."""

    seats: tuple[str, ...]
    one: bool = False

    def complete(self, agreed: Collection[str]) -> bool:
        """Whether the row closes with these seats' agreement."""
        if self.one:
            return any(s in agreed for s in self.seats)
        return all(s in agreed for s in self.seats)

    def awaiting(self, agreed: Collection[str]) -> list[str]:
        """The seats that may still confirm (in «one opponent» mode: any one of them)."""
        return [] if self.complete(agreed) else [s for s in self.seats if s not in agreed]


def confirmer_seats(players: int) -> tuple[str, ...]:
    """Everybody seated except the player at N who entered the row (the 4-player dealer included)."""
    return tuple(s for s in table_seats(players) if s != ENTRY_SEAT)


def confirmers(tournament: Tournament) -> Confirmers:
    """The tournament's rule: every opponent of the player at N confirms, or one of them is enough."""
    return Confirmers(
        confirmer_seats(int(tournament.players_per_table)), one=tournament.confirmation == Confirmation.ONE
    )


def confirmation_complete(agreed: Collection[str], required: Confirmers | Sequence[str]) -> bool:
    """``required``: the tournament's :class:`Confirmers`, or seats that must all agree."""
    if isinstance(required, Confirmers):
        return required.complete(agreed)
    return all(s in agreed for s in required)


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
    required: Confirmers | Sequence[str] = (),
    now: dt.datetime,
    user: Any = None,
    actor: str = "",
    reason: str = "",
) -> Result:
    """One seat's player agrees with the row (``seat=None``: the director approves it outright).

    The row is confirmed (locked for the players) once ``required`` is satisfied (:func:`confirmers`). Confirming
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
            if confirmation_complete(confirmed, required):
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
            },
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
            data={
                "session": current.session.number,
                "seat": seat,
                # Where and who, so that the dispute counts as the notice of an appeal (rules §1).
                "round": current.round_number,
                "board": current.board_number,
                "table": current.table_number,
                "room": current.room,
                "participant": current.seats().get(seat),
            },
        )
    return current


def current_scores_open(result: Result) -> None:
    """Confirming or disputing changes what the standings rest on: not once the scores are closed."""
    result.session.tournament.ensure_scores_open()
