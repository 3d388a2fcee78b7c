"""Writing protocol rows: the one path every channel goes through (director's pages, table, API, rulings,
the appeals committee). Every rule of a row lives here:

* scores may change (not locked; once final only an obvious arithmetic error, rules §1) — the tournament's own
  rule, :meth:`~tournaments.models.Tournament.ensure_scores_open`;
* the seats are the table's: given, or the seating's of that round (rules §5);
* the board is one of the session's, and one of the set the table plays in that round (rules §4) — unless the
  director rules on a wrong board (§11.6), which may let a result on another board stand;
* nobody plays a board twice (§11.6);
* the row is legal and its vists are the core's (:mod:`preferans.game`); an adjustment is A-/A/A+ per seat or
  vists per seat (§11.2);
* a correction says why (it goes into the audit trail);
* a correction made on a stale read is refused: it carries the ``revision`` it read (:mod:`scoring.revisions`).

Every change writes an audit entry and marks the session changed; the standings are recomputed after the commit.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import IntegrityError
from django.utils.translation import gettext as _

from boards.models import Board
from preferans.bundle.rows import DEAL_FIELDS
from preferans.numbers import format_fraction
from scoring.confirmation import Confirmers, confirmation_complete
from scoring.errors import ResultConflict
from scoring.models import Result
from scoring.rescore import mark_changed
from scoring.revisions import check_revision
from scoring.row_checks import (
    board_of,
    check_adjustment,
    check_not_played_before,
    check_seats,
    compute_vists,
    seating_at,
)
from scoring.seat_adjustments import check_seat_adjustments, kept_seat_adjustments
from scoring.sqlite import write_transaction
from scoring.withdraw import withdraw
from tournaments.audit import audit_entry
from tournaments.errors import UserError
from tournaments.models import AuditEntry, Seating, Session
from tournaments.refusals import Refusal, ResultRejected


def result_save(
    *,
    session: Session,
    board: int,
    round: int,
    table: int,
    now: dt.datetime,
    seats: Mapping[str, int] | None = None,
    row: Mapping[str, Any] | None = None,
    adjusted: Mapping[str, Any] | None = None,
    assigned: Mapping[str, Any] | None = None,
    version: str | None = None,
    room: int = 1,
    status: str = Result.Status.DIRECTOR,
    user: Any = None,
    actor: str = "",
    reason: str = "",
    replace: bool = False,
    idempotency_key: str | None = None,
    arithmetic: bool = False,
    board_outside_set: bool = False,
    board_obj: Board | None = None,
    annulled: Sequence[str] | None = None,
    percent: Mapping[str, Any] | None = None,
    seating: Seating | None = None,
    confirmations: Sequence[tuple[str, str]] = (),
    required: Confirmers | Sequence[str] = (),
    key_checked: bool = False,
    revision: int | None = None,
) -> Result:
    """Store one protocol row (or an adjustment in its place), checked against every rule of the module.

    ``seats`` default to the seating's of that round. ``replace=False`` refuses a second row for the same board,
    table and round (ResultConflict); ``replace=True`` (a correction) overwrites it, needs a ``reason`` and keeps
    the row's fouled-board version unless ``version`` is given. A repeated ``idempotency_key`` returns the row
    stored the first time, unchanged. ``arithmetic``: an obvious arithmetic error, which may be corrected even
    once the results are final (rules §1). ``board_outside_set``: the director's ruling on a wrong board (§11.6)
    lets a row on a board outside the table's set stand. ``annulled`` and ``percent`` are a ruling's per-seat
    adjustments (:mod:`scoring.seat_adjustments`); a replacement that does not give them keeps the row's, as long
    as it stays the same kind (played, artificial or assigned).

    Callers that already hold them may pass the board (``board_obj``), the ``seating`` (loaded with its seats)
    and ``key_checked`` (the key is known to be new), which saves the lookups. ``confirmations`` — (seat, actor)
    pairs — store the row already agreed by those players (a table's device passed round the table); it is
    confirmed once ``required`` is satisfied (``scoring.confirmation``), and each agreement is audited.

    ``revision``: the revision of the row its author read (a correction from a form or the API); if the row has
    changed or gone since, nothing is stored and :class:`~scoring.revisions.RowChanged` says who changed it
    and when. Every change adds one to the row's revision.
    """
    if idempotency_key and not key_checked:
        existing = Result.objects.filter(idempotency_key=idempotency_key).first()
        if existing is not None:
            return existing
    tournament = session.tournament
    tournament.ensure_scores_open(arithmetic=arithmetic)
    if sum(x is not None for x in (row, adjusted, assigned)) != 1:
        raise ResultRejected.one(
            "row_kind", "row", "give either a played deal, an artificial or an assigned result"
        )
    if replace and not reason.strip():
        raise UserError(
            _("Say why the result is changed (it goes into the audit trail)."), code="reason_missing"
        )
    if seating is None or (seating.session_id, seating.room, seating.round_number, seating.table_number) != (
        session.pk,
        room,
        round,
        table,
    ):
        seating = seating_at(session, round=round, table=table, room=room)
    if seats is None:
        if seating is None:
            raise ResultRejected.one(
                "seat_missing",
                "seats",
                f"nobody is seated at table {table} in round {round}: give the seats",
                table=table,
                round=round,
            )
        seats = {seat: p.number for seat, p in seating.seats().items()}
    participants = check_seats(tournament, seats, known=seating.seats() if seating is not None else None)
    if replace and (
        annulled is None or percent is None
    ):  # a correction keeps a ruling's per-seat adjustments
        annulled, percent = kept_seat_adjustments(
            session,
            room=room,
            board=board,
            table=table,
            round=round,
            annulled=annulled,
            percent=percent,
            kind="adjusted" if adjusted is not None else "assigned" if assigned is not None else "row",
        )
    annulled = annulled or ()
    check_not_played_before(
        session,
        board=board,
        room=room,
        table=table,
        round=round,
        seats=seats,
        participants=participants,
        annulled=annulled,
    )
    found = board_of(session, board, seating=seating, given=board_obj, outside_set=board_outside_set)
    dealer = found.dealer if found is not None else None
    deal: dict[str, Any] = {}
    vists: dict[str, str] | None = None
    adj, asg = check_adjustment(tournament, adjusted, assigned)
    seat_adjustments = check_seat_adjustments(tournament, seats, adj, annulled, percent)
    if row is not None:
        unknown = sorted(set(row) - set(DEAL_FIELDS) - {"vists"})
        if unknown:
            raise ResultRejected(
                Refusal("row_field", k, f"unknown field {k!r}", {"field": k}) for k in unknown
            )
        computed = compute_vists(tournament=tournament, row=row, dealer=dealer)
        deal = {k: row[k] for k in DEAL_FIELDS if k in row}
        vists = {s: format_fraction(v) for s, v in computed.items()}
    elif asg is not None:
        vists = asg
    values: dict[str, Any] = {
        "seat_n": participants["N"],
        "seat_e": participants["E"],
        "seat_s": participants["S"],
        "seat_w": participants.get("W"),
        "dealer": dealer or "",
        "row": deal,
        "adjusted": adj,
        "assigned": asg,
        "vists": vists,
        "status": status,
        **seat_adjustments,
    }
    agreed = [seat for seat, _actor in confirmations]
    if agreed:
        values["confirmed_by"] = agreed
        if status == Result.Status.ENTERED and confirmation_complete(agreed, required):
            values["status"] = Result.Status.CONFIRMED
    key = {
        "session": session,
        "room": room,
        "board_number": board,
        "table_number": table,
        "round_number": round,
    }
    inserting = False
    try:
        with write_transaction():
            # A new row is simply inserted: the database's unique constraints decide between two devices at
            # once (the loser's transaction is rolled back whole, below). A replacement locks the row first
            # (on SQLite the whole write transaction holds the lock from its start).
            existing = Result.objects.select_for_update().filter(**key).first() if replace else None
            if replace:
                check_revision(existing, revision, session=session, board=board, table=table, round=round)
            if existing is None:
                position = (
                    Result.objects.filter(session=session)
                    .order_by("-position")
                    .values_list("position", flat=True)
                    .first()
                    or 0
                ) + 1
                inserting = True
                result = Result.objects.create(
                    **key,
                    **values,
                    version=version or "A",
                    position=position,
                    idempotency_key=idempotency_key or None,
                )
                inserting = False
                action, before = "result.create", None
            else:
                before = result_facts(existing)
                for name, value in values.items():
                    setattr(existing, name, value)
                existing.version = version or existing.version or "A"
                existing.matchpoints = None
                existing.top = None
                existing.confirmed_by = agreed
                existing.revision += 1
                existing.save()
                result, action = existing, "result.update"
            entries = [
                audit_entry(
                    tournament=tournament,
                    action=action,
                    user=user,
                    actor=actor,
                    obj=result,
                    at=now,
                    reason=reason,
                    data={"session": session.number, "before": before, "after": result_facts(result)},
                )
            ]
            for n, (seat, who) in enumerate(confirmations, start=1):
                entries.append(
                    audit_entry(
                        tournament=tournament,
                        action="result.confirm",
                        actor=who,
                        obj=result,
                        at=now,
                        data={
                            "session": session.number,
                            "seat": seat,
                            "status": result.status if n == len(confirmations) else Result.Status.ENTERED,
                            "confirmed_by": agreed[:n],
                        },
                    )
                )
            AuditEntry.objects.bulk_create(entries)
            mark_changed(session, now=now)
    except IntegrityError as exc:
        if not inserting:
            raise
        # Two devices at once: nothing of this call was written; the loser is told which row won.
        if idempotency_key:
            again = Result.objects.filter(idempotency_key=idempotency_key).first()
            if again is not None:
                return again
        winner = Result.objects.filter(**key).first()
        if winner is None:
            raise
        raise ResultConflict(winner) from exc
    return result


def result_resave(result: Result, *, version: str, user: Any, reason: str, now: dt.datetime) -> Result:
    """Store a row again with another fouled-board version: the same facts, through :func:`result_save`."""
    return result_save(
        session=result.session,
        board=result.board_number,
        round=result.round_number,
        table=result.table_number,
        room=result.room,
        seats=result.seats(),
        version=version,
        status=result.status,
        user=user,
        reason=reason,
        replace=True,
        board_outside_set=True,
        now=now,
        **result_content(result),
    )


def result_content(result: Result) -> dict[str, Any]:
    """What a row holds, as :func:`result_save` takes it: ``row``, ``adjusted`` or ``assigned``."""
    extra: dict[str, Any] = {"annulled": list(result.annulled or ()), "percent": result.percent}
    if result.adjusted:
        return {"adjusted": dict(result.adjusted), **extra}
    if result.assigned:
        return {"assigned": dict(result.assigned), **extra}
    return {"row": dict(result.row or {}), **extra}


def result_delete(
    *,
    result: Result,
    now: dt.datetime,
    user: Any = None,
    actor: str = "",
    reason: str = "",
    arithmetic: bool = False,
) -> None:
    """Delete a row (it says why; audited; the standings are recomputed)."""
    withdraw(
        result,
        session=result.session,
        action="result.delete",
        reason=reason,
        now=now,
        user=user,
        actor=actor,
        arithmetic=arithmetic,
        data={"before": result_facts(result)},
        reason_missing=_("Say why the result is deleted (it goes into the audit trail)."),
    )


def result_facts(result: Result) -> dict[str, Any]:
    return {
        "board": result.board_number,
        "round": result.round_number,
        "table": result.table_number,
        "room": result.room,
        "seats": result.seats(),
        "row": result.row,
        "adjusted": result.adjusted,
        "assigned": result.assigned,
        **({"annulled": result.annulled} if result.annulled else {}),
        **({"percent": result.percent} if result.percent else {}),
        "version": result.version,
        "vists": result.vists,
        "status": result.status,
    }
