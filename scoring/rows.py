"""Writing protocol rows: the one path every channel goes through (director's pages, table, API, rulings,
the appeals committee). A caller says what it asks for in a :class:`~scoring.row_command.RowCommand`; every rule
of a row is checked here or in :mod:`scoring.row_checks`:

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

import dataclasses
import datetime as dt
from typing import Any

from django.db import IntegrityError
from django.utils.translation import gettext as _

from preferans.bundle.rows import DEAL_FIELDS
from preferans.numbers import format_fraction
from scoring.confirmation import confirmation_complete
from scoring.errors import ResultConflict
from scoring.models import Result
from scoring.rescore import mark_changed
from scoring.revisions import check_revision
from scoring.row_checks import (
    board_of,
    check_adjustment,
    check_bidding,
    check_not_played_before,
    check_plays_boards,
    check_seats,
    compute_vists,
    seating_at,
)
from scoring.row_command import (
    ArtificialAdjustment,
    AssignedAdjustment,
    PlayedRow,
    RowAuthor,
    RowCommand,
    RowContent,
    RowPlace,
    RowWriting,
)
from scoring.seat_adjustments import check_seat_adjustments, kept_seat_adjustments
from scoring.sqlite import write_transaction
from scoring.withdraw import withdraw
from tournaments.audit import audit_entry
from tournaments.models import AuditEntry
from tournaments.refusals import Refusal, ResultRejected


def result_save(command: RowCommand, *, now: dt.datetime) -> Result:
    """Store one protocol row (or an adjustment in its place) as ``command`` asks, checked against every rule of
    the module; returns the row stored.

    A new row where one is stored already is refused (:class:`~scoring.errors.ResultConflict`, also when another
    device stored it a moment earlier); a correction overwrites it, unless the row changed since its author read
    it (:class:`~scoring.revisions.RowChanged`, which says who changed it and when). Every change adds one to the
    row's revision. A repeated idempotency key returns the row stored the first time, unchanged."""
    place, content, writing = command.place, command.content, command.writing
    session = place.session
    if writing.idempotency_key and not writing.key_checked:
        existing = Result.objects.filter(idempotency_key=writing.idempotency_key).first()
        if existing is not None:
            return existing
    tournament = session.tournament
    tournament.ensure_scores_open(arithmetic=writing.arithmetic)
    seating = place.seating
    if seating is None or (seating.session_id, seating.room, seating.round_number, seating.table_number) != (
        session.pk,
        place.room,
        place.round,
        place.table,
    ):
        seating = seating_at(session, round=place.round, table=place.table, room=place.room)
    seats = place.seats
    if seats is None:
        if seating is None:
            raise ResultRejected.one(
                "seat_missing",
                "seats",
                f"nobody is seated at table {place.table} in round {place.round}: give the seats",
                table=place.table,
                round=place.round,
            )
        seats = {seat: p.number for seat, p in seating.seats().items()}
    check_plays_boards(seating)
    participants = check_seats(tournament, seats, known=seating.seats() if seating is not None else None)
    annulled, percent = content.annulled, content.percent
    if writing.correction and (annulled is None or percent is None):
        # a correction keeps a ruling's per-seat adjustments
        annulled, percent = kept_seat_adjustments(
            session,
            room=place.room,
            board=place.board,
            table=place.table,
            round=place.round,
            annulled=annulled,
            percent=percent,
            kind=content.kind,
        )
    annulled = annulled or ()
    check_not_played_before(
        session,
        board=place.board,
        room=place.room,
        table=place.table,
        round=place.round,
        seats=seats,
        participants=participants,
        annulled=annulled,
    )
    found = board_of(
        session,
        place.board,
        seating=seating,
        given=place.loaded_board,
        outside_set=writing.board_outside_set,
    )
    dealer = found.dealer if found is not None else None
    deal: dict[str, Any] = {}
    vists: dict[str, str] | None = None
    bidding: str | None = None if isinstance(content, PlayedRow) else ""
    adj, asg = check_adjustment(
        tournament,
        content.grades if isinstance(content, ArtificialAdjustment) else None,
        content.vists if isinstance(content, AssignedAdjustment) else None,
    )
    seat_adjustments = check_seat_adjustments(tournament, seats, adj, annulled, percent)
    if isinstance(content, PlayedRow):
        row = content.row
        unknown = sorted(set(row) - set(DEAL_FIELDS) - {"vists"})
        if unknown:
            raise ResultRejected(
                Refusal("row_field", k, f"unknown field {k!r}", {"field": k}) for k in unknown
            )
        computed = compute_vists(tournament=tournament, row=row, dealer=dealer)
        deal = {k: row[k] for k in DEAL_FIELDS if k in row}
        vists = {s: format_fraction(v) for s, v in computed.items()}
        if content.bidding is not None:
            bidding = check_bidding(tournament, content.bidding)
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
        "status": writing.status,
        **seat_adjustments,
        **({} if bidding is None else {"bidding": bidding}),
    }
    agreed = [seat for seat, _actor in writing.confirmations]
    if agreed:
        values["confirmed_by"] = agreed
        if writing.status == Result.Status.ENTERED and confirmation_complete(agreed, writing.required):
            values["status"] = Result.Status.CONFIRMED
    return _write(command, values, agreed=agreed, now=now)


def _write(command: RowCommand, values: dict[str, Any], *, agreed: list[str], now: dt.datetime) -> Result:
    """Insert the checked row, or overwrite the stored one for a correction; audit it and mark the session
    changed, all in one transaction."""
    place, content, writing, author = command.place, command.content, command.writing, command.author
    session = place.session
    tournament = session.tournament
    key = {
        "session": session,
        "room": place.room,
        "board_number": place.board,
        "table_number": place.table,
        "round_number": place.round,
    }
    inserting = False
    try:
        with write_transaction():
            # A new row is simply inserted: the database's unique constraints decide between two devices at
            # once (the loser's transaction is rolled back whole, below). A correction locks the row first
            # (on SQLite the whole write transaction holds the lock from its start).
            existing = (
                Result.objects.select_for_update().filter(**key).first() if writing.correction else None
            )
            if writing.correction:
                check_revision(
                    existing,
                    writing.revision,
                    session=session,
                    board=place.board,
                    table=place.table,
                    round=place.round,
                )
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
                    version=content.version or "A",
                    position=position,
                    idempotency_key=writing.idempotency_key or None,
                )
                inserting = False
                action, before = "result.create", None
            else:
                before = result_facts(existing)
                for name, value in values.items():
                    setattr(existing, name, value)
                existing.version = content.version or existing.version or "A"
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
                    user=author.user,
                    actor=author.actor,
                    obj=result,
                    at=now,
                    reason=writing.reason,
                    data={"session": session.number, "before": before, "after": result_facts(result)},
                )
            ]
            for n, (seat, who) in enumerate(writing.confirmations, start=1):
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
                            "status": result.status
                            if n == len(writing.confirmations)
                            else Result.Status.ENTERED,
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
        if writing.idempotency_key:
            again = Result.objects.filter(idempotency_key=writing.idempotency_key).first()
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
        RowCommand(
            RowPlace(
                session=result.session,
                board=result.board_number,
                round=result.round_number,
                table=result.table_number,
                room=result.room,
                seats=result.seats(),
            ),
            dataclasses.replace(result_content(result), version=version),
            RowWriting(correction=True, reason=reason, status=result.status, board_outside_set=True),
            RowAuthor(user=user),
        ),
        now=now,
    )


def result_content(result: Result) -> RowContent:
    """What a stored row holds, as a command carries it: its played deal, artificial or assigned result and its
    per-seat adjustments (the version is left to the command: None keeps the row's)."""
    extra: dict[str, Any] = {"annulled": list(result.annulled or ()), "percent": result.percent}
    if result.adjusted:
        return ArtificialAdjustment(grades=dict(result.adjusted), **extra)
    if result.assigned:
        return AssignedAdjustment(vists=dict(result.assigned), **extra)
    return PlayedRow(row=dict(result.row or {}), **extra)  # bidding None: a correction keeps the stored one


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
        **({"bidding": result.bidding} if result.bidding else {}),
        "status": result.status,
    }
