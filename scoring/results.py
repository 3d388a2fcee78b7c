"""Writing protocol rows: the one path every entry route (director, table, API, import) goes through.

A row is checked by the pure core before anything is stored; the stored vists are the core's. Every change
writes an audit entry and marks the session changed; the standings are recomputed after the commit.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from boards.models import Board
from preferans.bundle.rows import DEAL_FIELDS
from preferans.game import RowInvalid, make_rules, score_row
from preferans.numbers import NumberFormatError, format_fraction, parse_fraction
from scoring.models import Result
from tournaments.audit import audit_entry, log_action
from tournaments.models import AuditEntry, Participant, Session, Tournament

logger = logging.getLogger(__name__)


ARTIFICIAL_GRADES = ("A-", "A", "A+")


@dataclass(frozen=True)
class Refusal:
    """One reason a row was refused: a stable code, the field at fault, English text and its parameters."""

    code: str
    field: str
    message: str
    params: Mapping[str, object]


class ResultRejected(ValueError):
    """The row breaks a rule; nothing was stored. ``refusals`` says which rules, in words a player understands."""

    def __init__(self, refusals: list[Refusal]) -> None:
        self.refusals = tuple(refusals)
        super().__init__("; ".join(r.message for r in self.refusals))


class ResultConflict(ValueError):
    """A row for this board, table and round already exists (another device got there first)."""

    def __init__(self, existing: Result) -> None:
        self.existing = existing
        super().__init__(
            f"board {existing.board_number} at table {existing.table_number} in round "
            f"{existing.round_number} has already been entered"
        )


def table_seats(players: int) -> tuple[str, ...]:
    return ("N", "E", "S", "W") if players == 4 else ("N", "E", "S")


def rules_of(tournament: Tournament) -> Any:
    return make_rules(tournament.variant, tournament.rules or {})


def board_dealer(session: Session, board_number: int) -> str | None:
    board = Board.objects.filter(session=session, number=board_number).only("dealer").first()
    return board.dealer if board else None


def compute_vists(
    *, tournament: Tournament, row: Mapping[str, Any], dealer: str | None
) -> dict[str, Fraction]:
    """The core's vists for a played row (raises ResultRejected with the core's reasons)."""
    try:
        return score_row(row, rules=rules_of(tournament), players=tournament.players_per_table, dealer=dealer)
    except RowInvalid as exc:
        raise ResultRejected(
            [Refusal(e.code, e.field, e.message, dict(e.params)) for e in exc.errors]
        ) from exc


def _check_seats(
    tournament: Tournament, seats: Mapping[str, int], known: Mapping[str, Participant] | None = None
) -> dict[str, Participant]:
    wanted = table_seats(tournament.players_per_table)
    refusals: list[Refusal] = []
    extra = sorted(set(seats) - set(wanted))
    if extra:
        refusals.append(
            Refusal("seat_unknown", "seats", f"no seat {', '.join(extra)} at this table", {"seats": extra})
        )
    missing = [s for s in wanted if s not in seats]
    if missing:
        refusals.append(
            Refusal(
                "seat_missing", "seats", f"seat {', '.join(missing)} has no participant", {"seats": missing}
            )
        )
    numbers = [seats[s] for s in wanted if s in seats]
    twice = sorted({n for n in numbers if numbers.count(n) > 1})
    if twice:
        refusals.append(
            Refusal(
                "seat_twice",
                "seats",
                f"participant {', '.join(map(str, twice))} sits in two seats",
                {"numbers": twice},
            )
        )
    given = {p.number: p for p in (known or {}).values() if p.tournament_id == tournament.pk}
    if set(numbers) <= set(given):
        found = given
    else:
        found = {p.number: p for p in Participant.objects.filter(tournament=tournament, number__in=numbers)}
    unknown = sorted(set(numbers) - set(found))
    if unknown:
        refusals.append(
            Refusal(
                "participant_unknown",
                "seats",
                f"no participant number {', '.join(map(str, unknown))}",
                {"numbers": unknown},
            )
        )
    if refusals:
        raise ResultRejected(refusals)
    return {s: found[seats[s]] for s in wanted}


def _check_adjustment(
    tournament: Tournament, adjusted: Mapping[str, Any] | None, assigned: Mapping[str, Any] | None
) -> tuple[dict[str, str] | None, dict[str, str] | None]:
    seats = table_seats(tournament.players_per_table)
    refusals: list[Refusal] = []
    adj_out = asg_out = None
    if adjusted is not None:
        adj_out = {}
        for seat in seats:
            grade = adjusted.get(seat)
            if grade not in ARTIFICIAL_GRADES:
                refusals.append(
                    Refusal(
                        "adjusted_grade",
                        f"adjusted.{seat}",
                        f"seat {seat} needs an artificial result A-, A or A+",
                        {"seat": seat},
                    )
                )
            else:
                adj_out[seat] = grade
    if assigned is not None:
        asg_out = {}
        for seat in seats:
            try:
                asg_out[seat] = format_fraction(parse_fraction(assigned.get(seat)))
            except NumberFormatError:
                refusals.append(
                    Refusal(
                        "assigned_value",
                        f"assigned.{seat}",
                        f"seat {seat} needs an assigned score in vists",
                        {"seat": seat},
                    )
                )
    if refusals:
        raise ResultRejected(refusals)
    return adj_out, asg_out


def ensure_scores_open(tournament: Tournament, *, final_ok: bool = False) -> None:
    """Refuse score changes once the tournament is locked, or its results final (unless ``final_ok``)."""
    from tournaments.models import Publication, TournamentStatus

    if tournament.status == TournamentStatus.LOCKED:
        raise ResultRejected([Refusal("tournament_locked", "tournament", "the tournament is locked", {})])
    if tournament.publication == Publication.FINAL and not final_ok:
        raise ResultRejected(
            [Refusal("results_final", "tournament",
                     "the results are final: only obvious (arithmetic) errors are corrected now", {})]
        )  # fmt: skip


def _check_not_played_before(
    session: Session,
    *,
    board: int,
    room: int,
    table: int,
    round: int,
    seats: Mapping[str, int],
    participants: Mapping[str, Participant],
) -> None:
    """Nobody plays a board twice (rules §11.6): the director rules on it instead of a second row."""
    numbers = set(seats.values())
    ids = [p.pk for p in participants.values()]
    earlier = (
        Result.objects.filter(session=session, board_number=board)
        .exclude(room=room, table_number=table, round_number=round)
        .filter(Q(seat_n_id__in=ids) | Q(seat_e_id__in=ids) | Q(seat_s_id__in=ids) | Q(seat_w_id__in=ids))
        .order_by()[:1]
    )
    clash = next(iter(earlier), None)  # its seats are read only when there is one
    if clash is not None:
        again = sorted(numbers & set(clash.seats().values()))
        raise ResultRejected(
            [
                Refusal(
                    "board_played_twice",
                    "seats",
                    f"participant {', '.join(map(str, again))} already played board {board} "
                    f"(table {clash.table_number}, round {clash.round_number}): the director rules on it (§11.6)",
                    {
                        "numbers": again,
                        "board": board,
                        "table": clash.table_number,
                        "round": clash.round_number,
                    },
                )
            ]
        )


def result_save(
    *,
    session: Session,
    board: int,
    round: int,
    table: int,
    seats: Mapping[str, int],
    row: Mapping[str, Any] | None = None,
    adjusted: Mapping[str, Any] | None = None,
    assigned: Mapping[str, Any] | None = None,
    version: str = "A",
    room: int = 1,
    status: str = Result.Status.DIRECTOR,
    user: Any = None,
    actor: str = "",
    reason: str = "",
    replace: bool = False,
    idempotency_key: str | None = None,
    final_ok: bool = False,
    at: dt.datetime | None = None,
    board_obj: Board | None = None,
    participants: Mapping[str, Participant] | None = None,
    confirmations: Sequence[tuple[str, str]] = (),
    required: Sequence[str] = (),
    key_checked: bool = False,
) -> Result:
    """Store one protocol row (or an adjustment in its place), checked by the core.

    ``replace=False`` refuses a second row for the same board, table and round (ResultConflict);
    ``replace=True`` (a director's correction) overwrites it and records the old facts in the audit trail.
    A repeated ``idempotency_key`` returns the row stored the first time, unchanged.
    Once the results are final nothing changes unless ``final_ok`` (an obvious arithmetic error, rules §1);
    a locked tournament changes never.

    Callers that already hold them may pass the board (``board_obj``), the seated ``participants`` and
    ``key_checked`` (the key is known to be new), which saves the lookups. ``confirmations`` — (seat, actor)
    pairs — store the row already agreed by those players (a table's device passed round the table); it is
    confirmed once every seat in ``required`` has agreed, and each agreement is audited.
    """
    if idempotency_key and not key_checked:
        existing = Result.objects.filter(idempotency_key=idempotency_key).first()
        if existing is not None:
            return existing
    tournament = session.tournament
    ensure_scores_open(tournament, final_ok=final_ok)
    if sum(x is not None for x in (row, adjusted, assigned)) != 1:
        raise ResultRejected(
            [Refusal("row_kind", "row", "give either a played deal, an artificial or an assigned result", {})]
        )
    participants = _check_seats(tournament, seats, known=participants)
    _check_not_played_before(
        session, board=board, room=room, table=table, round=round, seats=seats, participants=participants
    )
    if board_obj is not None and board_obj.number == board and board_obj.session_id == session.pk:
        dealer: str | None = board_obj.dealer
    else:
        dealer = board_dealer(session, board)
        if dealer is None and session.boards.exists():
            raise ResultRejected(
                [Refusal("board_unknown", "board", f"this session has no board {board}", {"board": board})]
            )
    deal: dict[str, Any] = {}
    vists: dict[str, str] | None = None
    adj, asg = _check_adjustment(tournament, adjusted, assigned)
    if row is not None:
        unknown = sorted(set(row) - set(DEAL_FIELDS) - {"vists"})
        if unknown:
            raise ResultRejected(
                [Refusal("row_field", k, f"unknown field {k!r}", {"field": k}) for k in unknown]
            )
        computed = compute_vists(tournament=tournament, row=row, dealer=dealer)
        deal = {k: row[k] for k in DEAL_FIELDS if k in row}
        vists = {s: format_fraction(v) for s, v in computed.items()}
    elif asg is not None:
        vists = asg
    now = at or timezone.now()
    values = {
        "seat_n": participants["N"],
        "seat_e": participants["E"],
        "seat_s": participants["S"],
        "seat_w": participants.get("W"),
        "dealer": dealer or "",
        "row": deal,
        "adjusted": adj,
        "assigned": asg,
        "version": version or "A",
        "vists": vists,
        "status": status,
    }
    agreed = [seat for seat, _actor in confirmations]
    if agreed:
        values["confirmed_by"] = agreed
        if status == Result.Status.ENTERED and all(s in agreed for s in required):
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
        with transaction.atomic():
            # A new row is simply inserted: the database's unique constraints decide between two devices at
            # once (the loser's transaction is rolled back whole, below). A replacement locks the row first.
            existing = Result.objects.select_for_update().filter(**key).first() if replace else None
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
                    **key, **values, position=position, idempotency_key=idempotency_key or None
                )
                inserting = False
                action, before = "result.create", None
            else:
                before = _facts(existing)
                for name, value in values.items():
                    setattr(existing, name, value)
                existing.matchpoints = None
                existing.top = None
                existing.confirmed_by = agreed
                existing.save()
                result, action = existing, "result.update"
            entries = [
                audit_entry(
                    tournament=tournament, action=action, user=user, actor=actor, obj=result, at=now, reason=reason,
                    data={"session": session.number, "before": before, "after": _facts(result)},
                )
            ]  # fmt: skip
            for n, (seat, who) in enumerate(confirmations, start=1):
                entries.append(
                    audit_entry(
                        tournament=tournament, action="result.confirm", actor=who, obj=result, at=now,
                        data={"session": session.number, "seat": seat,
                              "status": result.status if n == len(confirmations) else Result.Status.ENTERED,
                              "confirmed_by": agreed[:n]},
                    )
                )  # fmt: skip
            AuditEntry.objects.bulk_create(entries)
            mark_changed(session, at=now)
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


def result_delete(
    *,
    result: Result,
    user: Any = None,
    actor: str = "",
    reason: str = "",
    final_ok: bool = False,
    at: dt.datetime | None = None,
) -> None:
    session = result.session
    ensure_scores_open(session.tournament, final_ok=final_ok)
    with transaction.atomic():
        log_action(
            tournament=session.tournament,
            action="result.delete",
            user=user,
            actor=actor,
            obj=result,
            reason=reason,
            at=at,
            data={"session": session.number, "before": _facts(result)},
        )
        result.delete()
        mark_changed(session)


def _facts(result: Result) -> dict[str, Any]:
    return {
        "board": result.board_number,
        "round": result.round_number,
        "table": result.table_number,
        "room": result.room,
        "seats": result.seats(),
        "row": result.row,
        "adjusted": result.adjusted,
        "assigned": result.assigned,
        "version": result.version,
        "vists": result.vists,
        "status": result.status,
    }


def mark_changed(session: Session, *, at: dt.datetime | None = None) -> None:
    """Note that the session's standings are stale, and rescore once the transaction commits."""
    now = at or timezone.now()
    Session.objects.filter(pk=session.pk).update(changed_at=now)
    tournament_id = session.tournament_id
    transaction.on_commit(lambda: request_rescore(tournament_id))


RESCORE_QUEUE_STALE = dt.timedelta(minutes=2)


def request_rescore(tournament_id: int) -> str:
    """Queue a rescore (Celery; in-process when no broker is configured); returns how it ran.

    With a broker, requests coalesce: while one rescore is queued and not yet started, further changes ride on
    it (the task clears the mark when it starts, and recomputes everything stored by then), so a burst of
    rows queues one task, not hundreds. A mark older than two minutes is ignored (a lost task cannot block
    rescoring). If the broker cannot be reached the rescore runs here and now, so standings never wait on a
    broken queue.
    """
    from django.conf import settings

    from scoring.rescore import rescore_tournament
    from scoring.tasks import rescore_tournament_task

    eager = getattr(settings, "CELERY_TASK_ALWAYS_EAGER", True)
    if not eager:
        now = timezone.now()
        claimed = (
            Tournament.objects.filter(pk=tournament_id)
            .filter(Q(rescore_queued_at__isnull=True) | Q(rescore_queued_at__lt=now - RESCORE_QUEUE_STALE))
            .update(rescore_queued_at=now)
        )
        if not claimed:
            return "coalesced"
    # A short delay lets a burst of rows (the end of a round) share one rescore instead of running them back
    # to back; the standings are at most RESCORE_DELAY seconds plus one rescore behind.
    delay = 0.0 if eager else float(getattr(settings, "RESCORE_DELAY", 0) or 0)
    try:
        if delay > 0:
            rescore_tournament_task.apply_async((tournament_id,), countdown=delay)
        else:
            rescore_tournament_task.delay(tournament_id)
    except BrokerError:
        logger.warning("broker unavailable: rescoring tournament %s in-process", tournament_id, exc_info=True)
        Tournament.objects.filter(pk=tournament_id).update(rescore_queued_at=None)
        try:
            rescore_tournament(tournament_id=tournament_id)
        except Exception:
            logger.exception("rescoring tournament %s failed", tournament_id)
            return "failed"
        return "inline"
    except Exception:
        # Eager mode runs the task here; a failure must not undo or hide the stored row.
        logger.exception("rescoring tournament %s failed", tournament_id)
        return "failed"
    return "queued"


# -- confirmation at the table ------------------------------------------------------------------------------
class ResultLocked(ValueError):
    """The row is confirmed, disputed or the director's: players can no longer change or confirm it."""

    def __init__(self, result: Result) -> None:
        self.result = result
        super().__init__(
            f"board {result.board_number} at table {result.table_number} is {result.status}: "
            "only the director can change it now"
        )


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
    user: Any = None,
    actor: str = "",
    at: dt.datetime | None = None,
) -> Result:
    """One seat's player agrees with the row (``seat=None``: the director approves it outright).

    The row is confirmed (locked for the players) once every seat in ``required`` has agreed. Confirming
    twice is harmless; a disputed, director's or already-locked row cannot be confirmed by a player.
    """
    now = at or timezone.now()
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
    user: Any = None,
    actor: str = "",
    at: dt.datetime | None = None,
) -> Result:
    """A player at the table does not agree: the row waits for the director (status ``disputed``)."""
    now = at or timezone.now()
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


# -- procedural penalties (rules §12) -----------------------------------------------------------------------
def penalty_save(
    *,
    session: Session,
    participant: Participant,
    matchpoints: str,
    reason: str,
    penalty: Any = None,
    user: Any = None,
    actor: str = "",
    final_ok: bool = False,
    at: dt.datetime | None = None,
) -> Any:
    """Give (or change) a procedural penalty in matchpoints; audited; the standings are recomputed.

    The one write path for penalties: the director's pages, the API and the appeals committee all come here.
    """
    from scoring.models import Penalty

    ensure_scores_open(session.tournament, final_ok=final_ok)
    try:
        value = format_fraction(parse_fraction(matchpoints))
    except NumberFormatError as exc:
        raise ResultRejected(
            [Refusal("penalty_value", "matchpoints", f"{matchpoints!r} is not a number of matchpoints", {})]
        ) from exc
    if participant.tournament_id != session.tournament_id:
        raise ResultRejected(
            [Refusal("participant_unknown", "participant", "no such participant in this tournament", {})]
        )
    now = at or timezone.now()
    with transaction.atomic():
        before = None
        if penalty is None:
            penalty = Penalty.objects.create(
                session=session, participant=participant, matchpoints=value, reason=reason
            )
            action = "penalty.create"
        else:
            before = _penalty_facts(penalty)
            penalty.session, penalty.participant = session, participant
            penalty.matchpoints, penalty.reason = value, reason
            penalty.save()
            action = "penalty.update"
        log_action(
            tournament=session.tournament, action=action, user=user, actor=actor, obj=penalty, at=now,
            reason=reason,
            data={"session": session.number, "participant": participant.number, "matchpoints": value,
                  "before": before, "after": _penalty_facts(penalty)},
        )  # fmt: skip
        mark_changed(session, at=now)
    return penalty


def penalty_delete(
    *,
    penalty: Any,
    user: Any = None,
    actor: str = "",
    reason: str = "",
    final_ok: bool = False,
    at: dt.datetime | None = None,
) -> None:
    session = penalty.session
    ensure_scores_open(session.tournament, final_ok=final_ok)
    now = at or timezone.now()
    with transaction.atomic():
        facts = _penalty_facts(penalty)
        log_action(
            tournament=session.tournament, action="penalty.delete", user=user, actor=actor, obj=penalty, at=now,
            reason=reason, data={"session": session.number, "participant": facts["participant"],
                                 "matchpoints": facts["matchpoints"], "before": facts},
        )  # fmt: skip
        penalty.delete()
        mark_changed(session, at=now)


def _penalty_facts(penalty: Any) -> dict[str, Any]:
    return {
        "participant": penalty.participant.number,
        "matchpoints": penalty.matchpoints,
        "reason": penalty.reason,
    }
