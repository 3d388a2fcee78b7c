"""Workflows of rulings, appeals and corrections: one keyword-only function each, in a transaction.

Time is passed in (``now``); every state change writes an audit entry; every score change is a
:class:`~appeals.models.ScoreChange` applied through ``scoring.results`` (the one write path for results,
which audits it and rescores after the commit) and linked to the audit entry it wrote.

Errors a user can fix raise :class:`AppealsError` (and its subclasses) with a message in the active language;
anything else is a bug.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Max, Q
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from appeals import deadlines, rulings
from appeals.models import (
    OPEN_APPEAL_STATES,
    Appeal,
    AppealMember,
    AppealSettings,
    CommitteeMember,
    Correction,
    Irregularity,
    ScoreChange,
)
from scoring.models import Penalty, Result
from scoring.numbers import NumberFormatError, format_fraction, parse_fraction
from scoring.results import (
    ResultRejected,
    penalty_delete,
    penalty_save,
    result_delete,
    result_save,
    table_seats,
)
from tournaments.models import AuditEntry, Participant, Publication, Round, Seating, Session, Tournament
from tournaments.services.audit import log_action

__all__ = [
    "AppealsError",
    "DeadlineMissed",
    "TransitionRefused",
    "appeal_admit",
    "appeal_apply",
    "appeal_close",
    "appeal_comment",
    "appeal_decide",
    "appeal_file",
    "appeal_hear",
    "appeal_notice",
    "appeal_sign",
    "appeal_withdraw",
    "correction_apply",
    "correction_refuse",
    "correction_request",
    "irregularity_apply",
    "irregularity_dismiss",
    "irregularity_record",
    "open_matters",
    "penalty_add",
    "penalty_remove",
    "settings_for",
]


class AppealsError(ValueError):
    """Something the user can fix or must be told about; nothing was changed."""

    def __init__(self, message: str, *, code: str = "invalid") -> None:
        self.code = code
        self.message = message
        super().__init__(message)


class TransitionRefused(AppealsError):
    """The object is not in a state that allows this step."""


class DeadlineMissed(AppealsError):
    """A deadline of the rules (§1) has passed."""

    def __init__(self, message: str, *, check: deadlines.Check) -> None:
        self.check = check
        super().__init__(message, code=check.code)


# --- settings and facts ------------------------------------------------------------------------------------


def settings_for(tournament: Tournament) -> AppealSettings:
    """The tournament's deadlines (created with the rules' defaults the first time)."""
    obj, _created = AppealSettings.objects.get_or_create(tournament=tournament)
    return obj


def _local(moment: dt.datetime | None) -> str:
    if moment is None:
        return "—"
    return formats.date_format(timezone.localtime(moment), "H:i")


def deal_seats(
    *, session: Session, board: int | None, round: int, table: int, room: int = 1
) -> dict[str, int]:
    """Who sat where at the deal: from the protocol row if entered, else from the seating."""
    if board is not None:
        result = (
            Result.objects.filter(
                session=session, room=room, board_number=board, round_number=round, table_number=table
            )
            .select_related("seat_n", "seat_e", "seat_s", "seat_w")
            .first()
        )
        if result is not None:
            return result.seats()
    seating = (
        Seating.objects.filter(session=session, room=room, round_number=round, table_number=table)
        .select_related("seat_n", "seat_e", "seat_s", "seat_w")
        .first()
    )
    if seating is None:
        return {}
    return {seat: p.number for seat, p in seating.seats().items()}


def next_deal_started_at(
    *, session: Session, board: int, round: int, table: int, room: int = 1
) -> dt.datetime | None:
    """The earliest moment the next deal at that table is known to have started (§1 notice deadline): a later
    board of the round entered at that table, or the next round started."""
    moments: list[dt.datetime] = []
    later = (
        Result.objects.filter(
            session=session, room=room, round_number=round, table_number=table, board_number__gt=board
        )
        .order_by("created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    if later is not None:
        moments.append(later)
    nxt = Round.objects.filter(session=session, number=round + 1).values_list("started_at", flat=True).first()
    if nxt is not None:
        moments.append(nxt)
    return min(moments) if moments else None


def _reason_text(tournament: Tournament, obj: Irregularity | Appeal | Correction) -> str:
    """Why a score changed, in the tournament's language (players read it)."""
    with translation.override(tournament.language):
        if isinstance(obj, Appeal):
            head = _("Appeal No. %(n)s") % {"n": obj.number}
            body = obj.decision or obj.get_outcome_display()
        elif isinstance(obj, Irregularity):
            head = _("Director's ruling: %(kind)s") % {"kind": obj.get_kind_display()}
            body = obj.ruling or obj.proposal.get("text", "")
        else:
            head = _("Correction: %(kind)s") % {"kind": obj.get_kind_display()}
            body = obj.description
    return f"{head}. {body}".strip()


def _guard_not_final(tournament: Tournament, *, arithmetic: bool = False) -> None:
    if tournament.publication == Publication.FINAL and not arithmetic:
        raise AppealsError(
            _("The results are final: they are not revised except for obvious (arithmetic) errors (§1)."),
            code="results_final",
        )


def _check_transition(obj: Appeal | Irregularity | Correction, allowed: Iterable[str], step: str) -> None:
    if obj.status not in set(allowed):
        raise TransitionRefused(
            _("Cannot %(step)s: the state is “%(state)s”.")
            % {"step": step, "state": obj.get_status_display()},
            code="state",
        )


def _lock(model: type, pk: int) -> Any:
    return model.objects.select_for_update().get(pk=pk)


# --- score changes -----------------------------------------------------------------------------------------


def _row_facts(result: Result | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "seats": result.seats(),
        "row": result.row,
        "adjusted": result.adjusted,
        "assigned": result.assigned,
        "version": result.version,
        "vists": result.vists,
        "status": result.status,
    }


def _plan(
    reason: Irregularity | Appeal | Correction,
    *,
    kind: str,
    board: int | None,
    round: int | None,
    table: int | None,
    room: int = 1,
    seats: Mapping[str, int] | None = None,
    values: Mapping[str, Any] | None = None,
    participant: Participant | None = None,
    matchpoints: str = "",
    before: Any = None,
) -> ScoreChange:
    link: dict[str, Any] = {
        Irregularity: {"irregularity": reason},
        Appeal: {"appeal": reason},
        Correction: {"correction": reason},
    }[type(reason)]
    return ScoreChange.objects.create(
        tournament=reason.tournament,
        session=reason.session,
        kind=kind,
        board_number=board,
        round_number=round,
        table_number=table,
        room=room,
        seats=dict(seats or {}),
        values=dict(values or {}),
        participant=participant,
        matchpoints=matchpoints,
        before=before,
        **link,
    )


def _latest_entry(tournament: Tournament, action_prefix: str) -> AuditEntry | None:
    return (
        AuditEntry.objects.filter(tournament=tournament, action__startswith=action_prefix)
        .order_by("-id")
        .first()
    )


def _apply_change(change: ScoreChange, *, reason: str, user: Any, now: dt.datetime) -> None:
    """Carry out one planned change through the result write path and link the audit entry it wrote."""
    session = change.session
    tournament = change.tournament
    kind = change.kind
    K = ScoreChange.Kind
    if kind in (K.PENALTY, K.PENALTY_REMOVE):
        if kind == K.PENALTY:
            if change.participant is None:
                raise AppealsError(_("The penalty names no participant."), code="penalty_participant")
            change.penalty = penalty_add(
                session=session,
                participant=change.participant,
                matchpoints=change.matchpoints,
                reason=reason,
                user=user,
                now=now,
            )
        else:
            penalty = change.penalty or Penalty.objects.filter(pk=change.values.get("penalty")).first()
            if penalty is not None:
                change.before = {"participant": penalty.participant.number, "matchpoints": penalty.matchpoints,
                                 "reason": penalty.reason}  # fmt: skip
                penalty_remove(penalty=penalty, reason=reason, user=user, now=now)
                change.penalty = None
        change.audit_entry = _latest_entry(tournament, "penalty.")
    else:
        key = {
            "session": session,
            "room": change.room,
            "board_number": change.board_number,
            "round_number": change.round_number,
            "table_number": change.table_number,
        }
        existing = Result.objects.filter(**key).select_related("seat_n", "seat_e", "seat_s", "seat_w").first()
        if change.before is None:
            change.before = _row_facts(existing)
        target = change.values if kind == K.RESTORE else None
        if kind == K.ANNUL or (kind == K.RESTORE and not target):
            if existing is None:
                raise AppealsError(_("There is no result to annul at that table."), code="no_result")
            result_delete(result=existing, user=user, reason=reason, final_ok=True, at=now)
            change.result = None
        else:
            seats = dict(change.seats or (existing.seats() if existing else {}))
            if target and target.get("seats"):
                seats = dict(target["seats"])
            if not seats:
                raise AppealsError(_("Nobody is seated at that table in that round."), code="no_seats")
            content: dict[str, Any]
            version = existing.version if existing is not None else "A"
            if kind == K.ARTIFICIAL:
                content = {"adjusted": dict(change.values)}
            elif kind == K.ASSIGNED:
                content = {"assigned": dict(change.values)}
            elif kind == K.ROW:
                content = {"row": dict(change.values)}
            elif kind == K.VERSION:
                if existing is None:
                    raise AppealsError(
                        _("There is no result at that table to put in a version."), code="no_result"
                    )
                content = _content_of(existing.row, existing.adjusted, existing.assigned)
                version = str(change.values.get("version") or "A")
            else:  # RESTORE with facts
                assert target is not None
                content = _content_of(target.get("row"), target.get("adjusted"), target.get("assigned"))
                version = str(target.get("version") or "A")
            try:
                change.result = result_save(
                    session=session,
                    board=change.board_number,
                    round=change.round_number,
                    table=change.table_number,
                    room=change.room,
                    seats=seats,
                    version=version,
                    replace=True,
                    user=user,
                    reason=reason,
                    at=now,
                    final_ok=True,  # this module's own guard allows only arithmetic corrections once final
                    **content,
                )
            except ResultRejected as exc:
                raise AppealsError(
                    _("The result write path refused the change: %(why)s") % {"why": exc}, code="rejected"
                ) from exc
        change.audit_entry = _latest_entry(tournament, "result.")
    change.status = ScoreChange.Status.APPLIED
    change.applied_at = now
    change.save()


def _content_of(row: Any, adjusted: Any, assigned: Any) -> dict[str, Any]:
    if adjusted:
        return {"adjusted": dict(adjusted)}
    if assigned:
        return {"assigned": dict(assigned)}
    return {"row": dict(row or {})}


def _apply_all(reason: Irregularity | Appeal | Correction, *, user: Any, now: dt.datetime) -> int:
    text = _reason_text(reason.tournament, reason)
    planned = list(reason.changes.filter(status=ScoreChange.Status.PLANNED).order_by("id"))
    for change in planned:
        _apply_change(change, reason=text, user=user, now=now)
    return len(planned)


def _plan_from_proposal(
    reason: Irregularity | Appeal,
    proposal: rulings.Proposal,
    *,
    round: int,
    table: int,
    room: int,
    seats: Mapping[str, int],
) -> None:
    tournament = reason.tournament
    for c in proposal.changes:
        participant = None
        if c.kind == "penalty":
            participant = Participant.objects.filter(tournament=tournament, number=c.participant).first()
            if participant is None:
                raise AppealsError(
                    _("There is no participant number %(n)s.") % {"n": c.participant}, code="participant"
                )
        intended_elsewhere = c.board is not None and c.board != getattr(reason, "board_number", None)
        change_seats = {} if c.kind == "penalty" else dict(seats)
        if intended_elsewhere:
            change_seats = deal_seats(session=reason.session, board=None, round=round, table=table, room=room)
        _plan(
            reason,
            kind=c.kind,
            board=c.board,
            round=c.round or round if c.kind != "penalty" else None,
            table=c.table or table if c.kind != "penalty" else None,
            room=room,
            seats=change_seats,
            values=c.values,
            participant=participant,
            matchpoints=_clean_matchpoints(c.matchpoints) if c.kind == "penalty" else "",
        )


def _clean_matchpoints(value: str) -> str:
    try:
        return format_fraction(parse_fraction(value))
    except NumberFormatError as exc:
        raise AppealsError(
            _("“%(value)s” is not a number of matchpoints (e.g. -2 or -1/2).") % {"value": value},
            code="matchpoints",
        ) from exc


# --- penalties (§12) ---------------------------------------------------------------------------------------


def penalty_add(
    *, session: Session, participant: Participant, matchpoints: str, reason: str, user: Any, now: dt.datetime
) -> Penalty:
    """A procedural penalty in matchpoints (§12), through the scoring write path (audited, rescored)."""
    value = _clean_matchpoints(matchpoints)
    if not reason.strip():
        raise AppealsError(_("Say why the penalty is given."), code="reason")
    # final_ok: this module's own guard (_guard_not_final) has already decided.
    return penalty_save(session=session, participant=participant, matchpoints=value, reason=reason[:300],
                        user=user, at=now, final_ok=True)  # fmt: skip


def penalty_remove(*, penalty: Penalty, reason: str, user: Any, now: dt.datetime) -> None:
    penalty_delete(penalty=penalty, reason=reason, user=user, at=now, final_ok=True)


# --- irregularities and rulings (§10–§12) ------------------------------------------------------------------


def _played_before(
    session: Session, board: int, round: int, table: int, seats: Mapping[str, int]
) -> list[str]:
    """Seats whose participant has another result on this board (§11.6 B)."""
    out = []
    others = Result.objects.filter(session=session, board_number=board).exclude(
        round_number=round, table_number=table
    )
    for seat, number in seats.items():
        if others.filter(
            Q(seat_n__number=number)
            | Q(seat_e__number=number)
            | Q(seat_s__number=number)
            | Q(seat_w__number=number)
        ).exists():
            out.append(seat)
    return out


def _fouled_version(session: Session, irregularity: Irregularity) -> str | None:
    """Label the layout this table played among the board's recorded fouled layouts (§10)."""
    from boards.deal import BoardError, board_from_dict
    from boards.fouled import version_labels
    from boards.models import Board as BoardRow

    played = irregularity.facts.get("played")
    if not played or irregularity.board_number is None:
        return None
    row = BoardRow.objects.filter(session=session, number=irregularity.board_number).first()
    if row is None or not row.has_layout:
        raise AppealsError(
            _("Board %(n)s has no layout stored: enter it before comparing.")
            % {"n": irregularity.board_number},
            code="no_layout",
        )
    board = board_from_dict(
        {
            "number": row.number,
            "set": row.set_number,
            "dealer": row.dealer,
            "hands": row.hands,
            "prikup": row.prikup,
        }
    )
    earlier = Irregularity.objects.filter(
        session=session, board_number=irregularity.board_number, kind__in=["fouled", "missing_card"]
    ).exclude(pk=irregularity.pk)
    layouts = [_played_layout(i.facts.get("played")) for i in earlier.order_by("id") if i.facts.get("played")]
    try:
        labels = version_labels(board, [*layouts, _played_layout(played)])
    except BoardError as exc:
        raise AppealsError(str(exc), code="layout") from exc
    return labels[-1]


def _played_layout(data: Mapping[str, Any]) -> Any:
    from boards.deal import Seat
    from boards.deck import parse_card, parse_hand
    from boards.fouled import PlayedLayout

    hands = {Seat(seat): parse_hand(text) for seat, text in data["hands"].items()}
    return PlayedLayout(hands=hands, prikup=tuple(parse_card(c) for c in data["prikup"]))


def _propose(irregularity: Irregularity) -> rulings.Proposal:
    tournament = irregularity.tournament
    seats = [s for s in table_seats(tournament.players_per_table) if s in irregularity.seats]
    facts = dict(irregularity.facts)
    if irregularity.kind == Irregularity.Kind.WRONG_BOARD and irregularity.board_number:
        facts["played_before"] = _played_before(
            irregularity.session,
            irregularity.board_number,
            irregularity.round_number,
            irregularity.table_number,
            irregularity.seats,
        )
    if irregularity.kind in (Irregularity.Kind.FOULED, Irregularity.Kind.MISSING_CARD) and facts.get(
        "played"
    ):
        facts["version"] = _fouled_version(irregularity.session, irregularity)
    current = None
    if irregularity.board_number:
        result = Result.objects.filter(
            session=irregularity.session,
            room=irregularity.room,
            board_number=irregularity.board_number,
            round_number=irregularity.round_number,
            table_number=irregularity.table_number,
        ).first()
        current = result.vists if result is not None else None
    irregularity.facts = facts
    return rulings.propose(
        irregularity.kind,
        board=irregularity.board_number,
        seats=seats,
        fault=irregularity.fault,
        facts=facts,
        current_vists=current,
    )


def _proposal_dict(p: rulings.Proposal) -> dict[str, Any]:
    return {
        "rule": p.rule,
        "code": p.code,
        "text": p.text,
        "params": dict(p.params),
        "changes": [
            {
                "kind": c.kind,
                "board": c.board,
                "values": dict(c.values),
                "participant": c.participant,
                "matchpoints": c.matchpoints,
            }
            for c in p.changes
        ],
    }


def irregularity_record(
    *,
    session: Session,
    kind: str,
    round: int,
    table: int,
    board: int | None = None,
    room: int = 1,
    fault: Mapping[str, str] | None = None,
    facts: Mapping[str, Any] | None = None,
    description: str = "",
    user: Any,
    now: dt.datetime,
) -> Irregularity:
    """Record an irregularity at a table and compute the remedy the rules prescribe (not yet applied)."""
    tournament = session.tournament
    if kind not in Irregularity.Kind.values:
        raise AppealsError(_("Unknown kind of irregularity."), code="kind")
    seats = deal_seats(session=session, board=board, round=round, table=table, room=room)
    if not seats:
        raise AppealsError(
            _("Nobody is seated at table %(t)s in round %(r)s.") % {"t": table, "r": round}, code="no_seats"
        )
    if board is not None and not session.boards.filter(number=board).exists() and session.boards.exists():
        raise AppealsError(_("This session has no board %(n)s.") % {"n": board}, code="board")
    with transaction.atomic():
        irregularity = Irregularity(
            tournament=tournament,
            session=session,
            kind=kind,
            round_number=round,
            table_number=table,
            room=room,
            board_number=board,
            seats=seats,
            fault={k: v for k, v in (fault or {}).items() if k in seats and v},
            facts=dict(facts or {}),
            description=description,
            recorded_at=now,
            recorded_by=user if getattr(user, "is_authenticated", False) else None,
        )
        irregularity.save()
        proposal = _propose(irregularity)
        irregularity.proposal = _proposal_dict(proposal)
        irregularity.save(update_fields=["facts", "proposal"])
        _plan_from_proposal(irregularity, proposal, round=round, table=table, room=room, seats=seats)
        log_action(
            tournament=tournament,
            action="irregularity.record",
            user=user,
            obj=irregularity,
            at=now,
            reason=description,
            data={"irregularity": irregularity.pk, "kind": kind, "session": session.number, "board": board,
                  "round": round, "table": table, "proposal": irregularity.proposal},
        )  # fmt: skip
    return irregularity


def irregularity_revise(
    *,
    irregularity: Irregularity,
    fault: Mapping[str, str] | None = None,
    facts: Mapping[str, Any] | None = None,
    user: Any,
    now: dt.datetime,
) -> Irregularity:
    """Change the findings (fault, facts, the director's choice of remedy) before the ruling is applied."""
    with transaction.atomic():
        irregularity = _lock(Irregularity, irregularity.pk)
        _check_transition(irregularity, [Irregularity.Status.RECORDED], _("revise the ruling"))
        if fault is not None:
            irregularity.fault = {k: v for k, v in fault.items() if k in irregularity.seats and v}
        if facts is not None:
            irregularity.facts = {**irregularity.facts, **facts}
        proposal = _propose(irregularity)
        irregularity.proposal = _proposal_dict(proposal)
        irregularity.save(update_fields=["fault", "facts", "proposal"])
        irregularity.changes.filter(status=ScoreChange.Status.PLANNED).delete()
        _plan_from_proposal(
            irregularity,
            proposal,
            round=irregularity.round_number,
            table=irregularity.table_number,
            room=irregularity.room,
            seats=irregularity.seats,
        )
        log_action(
            tournament=irregularity.tournament,
            action="irregularity.revise",
            user=user,
            obj=irregularity,
            at=now,
            data={
                "irregularity": irregularity.pk,
                "fault": irregularity.fault,
                "proposal": irregularity.proposal,
            },
        )
    return irregularity


def irregularity_apply(
    *, irregularity: Irregularity, ruling: str = "", user: Any, now: dt.datetime
) -> Irregularity:
    """The director confirms the ruling: its score changes are applied and the standings rescored."""
    with transaction.atomic():
        irregularity = _lock(Irregularity, irregularity.pk)
        _check_transition(irregularity, [Irregularity.Status.RECORDED], _("apply the ruling"))
        if irregularity.changes.filter(status=ScoreChange.Status.PLANNED).exists():
            _guard_not_final(irregularity.tournament)
        irregularity.ruling = ruling or irregularity.proposal.get("text", "")
        irregularity.status = Irregularity.Status.APPLIED
        irregularity.decided_at = now
        irregularity.decided_by = user if getattr(user, "is_authenticated", False) else None
        irregularity.save()
        count = _apply_all(irregularity, user=user, now=now)
        log_action(
            tournament=irregularity.tournament,
            action="irregularity.apply",
            user=user,
            obj=irregularity,
            at=now,
            reason=irregularity.ruling,
            data={"irregularity": irregularity.pk, "changes": count},
        )
    return irregularity


def irregularity_dismiss(
    *, irregularity: Irregularity, ruling: str, user: Any, now: dt.datetime
) -> Irregularity:
    with transaction.atomic():
        irregularity = _lock(Irregularity, irregularity.pk)
        _check_transition(irregularity, [Irregularity.Status.RECORDED], _("close without action"))
        irregularity.ruling = ruling
        irregularity.status = Irregularity.Status.DISMISSED
        irregularity.decided_at = now
        irregularity.save()
        irregularity.changes.filter(status=ScoreChange.Status.PLANNED).update(
            status=ScoreChange.Status.DROPPED
        )
        log_action(
            tournament=irregularity.tournament,
            action="irregularity.dismiss",
            user=user,
            obj=irregularity,
            at=now,
            reason=ruling,
            data={"irregularity": irregularity.pk},
        )
    return irregularity


# --- appeals (§1, Appendix B) ------------------------------------------------------------------------------


def _next_number(tournament: Tournament) -> int:
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    return (Appeal.objects.filter(tournament=tournament).aggregate(m=Max("number"))["m"] or 0) + 1


def _where_played(
    session: Session, appellant: Participant, round: int, board: int, table: int | None
) -> tuple[int, dict[str, int]]:
    """The table at which the appellant played (or was seated for) the board in that round."""
    rows = Result.objects.filter(session=session, round_number=round, board_number=board)
    if table is not None:
        rows = rows.filter(table_number=table)
    for r in rows.select_related("seat_n", "seat_e", "seat_s", "seat_w"):
        if appellant.number in r.seats().values():
            return r.table_number, r.seats()
    seatings = Seating.objects.filter(session=session, round_number=round)
    board_set = session.boards.filter(number=board).values_list("set_number", flat=True).first()
    if board_set is not None:
        seatings = seatings.filter(set_number=board_set)
    if table is not None:
        seatings = seatings.filter(table_number=table)
    for s in seatings.select_related("seat_n", "seat_e", "seat_s", "seat_w"):
        numbers = {seat: p.number for seat, p in s.seats().items()}
        if appellant.number in numbers.values():
            return s.table_number, numbers
    raise AppealsError(
        _("Participant %(p)s did not play board %(b)s in round %(r)s.")
        % {"p": appellant.number, "b": board, "r": round},
        code="not_played",
    )


def appeal_notice(
    *,
    session: Session,
    appellant: Participant,
    round: int,
    board: int,
    table: int | None = None,
    ruling: Irregularity | None = None,
    user: Any,
    now: dt.datetime,
    late_note: str = "",
) -> Appeal:
    """Record that a player warned the director of an appeal (§1: before the start of the next deal)."""
    tournament = session.tournament
    table, seats = _where_played(session, appellant, round, board, table)
    check = deadlines.check_notice(
        notice_at=now,
        next_deal_started_at=next_deal_started_at(session=session, board=board, round=round, table=table),
    )
    if not check and not late_note.strip():
        raise DeadlineMissed(
            _(
                "Notice too late: the next deal at table %(t)s had started by %(at)s (§1). Admit it with a note."
            )
            % {"t": table, "at": _local(check.deadline)},
            check=check,
        )
    if Appeal.objects.filter(
        session=session,
        appellant=appellant,
        board_number=board,
        round_number=round,
        status=Appeal.Status.NOTICE,
    ).exists():
        raise AppealsError(_("This notice is already recorded."), code="duplicate")
    with transaction.atomic():
        appeal = Appeal.objects.create(
            tournament=tournament,
            session=session,
            number=_next_number(tournament),
            ruling=ruling,
            appellant=appellant,
            round_number=round,
            board_number=board,
            table_number=table,
            seats=seats,
            notice_at=now,
            late_note=late_note if not check else "",
            status=Appeal.Status.NOTICE,
            filed_via=Appeal.Via.DIRECTOR,
        )
        log_action(
            tournament=tournament,
            action="appeal.notice",
            user=user,
            obj=appeal,
            at=now,
            reason=late_note,
            data={"appeal": appeal.pk, "number": appeal.number, "participant": appellant.number,
                  "board": board, "round": round, "table": table, "in_time": bool(check)},
        )  # fmt: skip
    return appeal


def appeal_file(
    *,
    session: Session,
    appellant: Participant,
    round: int,
    board: int,
    claim: str,
    table: int | None = None,
    bidding: str = "",
    play: str = "",
    ruling: Irregularity | None = None,
    via: str = Appeal.Via.PLAYER,
    late_note: str = "",
    user: Any = None,
    now: dt.datetime,
) -> Appeal:
    """File an appeal (Appendix B). A late filing is stored as refused, with the reason; a director filing for a
    player may admit it at once with a written note (``late_note``)."""
    tournament = session.tournament
    if not claim.strip():
        raise AppealsError(_("Say what the claim is."), code="claim")
    conf = settings_for(tournament)
    if via == Appeal.Via.PLAYER and not conf.online_filing:
        raise AppealsError(_("Appeals are filed with the director at this tournament."), code="offline")
    table, seats = _where_played(session, appellant, round, board, table)
    check = deadlines.check_filing(
        now=now,
        session_ended_at=session.ended_at,
        minutes=conf.filing_minutes,
        publication=tournament.publication,
    )
    admitted = (
        not check and check.code != "results_final" and via == Appeal.Via.DIRECTOR and late_note.strip()
    )
    with transaction.atomic():
        appeal = (
            Appeal.objects.select_for_update()
            .filter(
                session=session,
                appellant=appellant,
                board_number=board,
                round_number=round,
                status=Appeal.Status.NOTICE,
            )
            .first()
        )
        if appeal is None:
            appeal = Appeal(
                tournament=tournament, session=session, number=_next_number(tournament), appellant=appellant
            )
        appeal.ruling = ruling or appeal.ruling
        appeal.round_number, appeal.board_number, appeal.table_number = round, board, table
        appeal.seats = seats
        appeal.claim, appeal.bidding, appeal.play = claim, bidding, play
        appeal.filed_at = now
        appeal.filed_via = via
        appeal.filed_by = user if getattr(user, "is_authenticated", False) else None
        appeal.deadline = check.deadline
        if check or admitted:
            appeal.status = Appeal.Status.FILED
            appeal.refusal = ""
            appeal.late_note = late_note if admitted else appeal.late_note
        else:
            appeal.status = Appeal.Status.REFUSED
            appeal.refusal = _refusal_text(check)
        appeal.save()
        log_action(
            tournament=tournament,
            action="appeal.file" if appeal.status == Appeal.Status.FILED else "appeal.refuse",
            user=user,
            actor="" if user is not None else f"participant {appellant.number}",
            obj=appeal,
            at=now,
            reason=appeal.refusal or late_note,
            data={"appeal": appeal.pk, "number": appeal.number, "participant": appellant.number, "board": board,
                  "round": round, "table": table, "via": via, "deadline": check.code, "admitted": bool(admitted)},
        )  # fmt: skip
    return appeal


def _refusal_text(check: deadlines.Check) -> str:
    if check.code == "filing_late":
        return _(
            "Filed at %(now)s: appeals close %(minutes)s minutes after the end of the session, at %(deadline)s (§1)."
        ) % {
            "now": check.params.get("now"),
            "minutes": check.params.get("minutes"),
            "deadline": _local(check.deadline),
        }
    if check.code == "results_final":
        return _("The results are final: they are not revised except for obvious (arithmetic) errors (§1).")
    return check.message


def appeal_admit(*, appeal: Appeal, note: str, user: Any, now: dt.datetime) -> Appeal:
    """The director admits a late filing with a written note."""
    if not note.strip():
        raise AppealsError(_("Write why the late appeal is admitted."), code="note")
    with transaction.atomic():
        appeal = _lock(Appeal, appeal.pk)
        _check_transition(appeal, [Appeal.Status.REFUSED], _("admit the appeal"))
        _guard_not_final(appeal.tournament)
        appeal.status = Appeal.Status.FILED
        appeal.late_note = note
        appeal.save()
        _log(appeal, "appeal.admit", user, now, reason=note, refusal=appeal.refusal)
    return appeal


def _log(appeal: Appeal, action: str, user: Any, now: dt.datetime, *, reason: str = "", **data: Any) -> None:
    log_action(
        tournament=appeal.tournament,
        action=action,
        user=user,
        obj=appeal,
        at=now,
        reason=reason,
        data={"appeal": appeal.pk, "number": appeal.number, "status": appeal.status, **data},
    )


def appeal_comment(
    *, appeal: Appeal, comment: str, notice_at: dt.datetime | None = None, user: Any, now: dt.datetime
) -> Appeal:
    """Appendix B item 9: the director's comment (and, if not yet recorded, when he was warned)."""
    if not comment.strip():
        raise AppealsError(_("Write the director's comment."), code="comment")
    with transaction.atomic():
        appeal = _lock(Appeal, appeal.pk)
        _check_transition(appeal, [Appeal.Status.FILED, Appeal.Status.COMMENTED], _("comment"))
        if notice_at is not None and appeal.notice_at is None:
            check = deadlines.check_notice(
                notice_at=notice_at,
                next_deal_started_at=next_deal_started_at(
                    session=appeal.session,
                    board=appeal.board_number,
                    round=appeal.round_number,
                    table=appeal.table_number,
                    room=appeal.room,
                ),
                filed_at=appeal.filed_at,
            )
            if not check:
                raise DeadlineMissed(
                    _("That notice was too late or after the filing (§1): %(why)s") % {"why": check.message},
                    check=check,
                )
            appeal.notice_at = notice_at
        appeal.director_comment = comment
        appeal.commented_at = now
        appeal.status = Appeal.Status.COMMENTED
        appeal.save()
        _log(appeal, "appeal.comment", user, now, reason=comment)
    return appeal


def appeal_hear(
    *, appeal: Appeal, members: Sequence[CommitteeMember], notes: str = "", user: Any, now: dt.datetime
) -> Appeal:
    """The committee hears the appeal. A member who took part in the deal (or is the appellant) may not sit."""
    if not members:
        raise AppealsError(_("Choose the committee members who hear the appeal."), code="members")
    with transaction.atomic():
        appeal = _lock(Appeal, appeal.pk)
        _check_transition(appeal, [Appeal.Status.COMMENTED], _("hear the appeal"))
        involved = set(appeal.seats.values()) | {appeal.appellant.number}
        for m in members:
            if m.tournament_id != appeal.tournament_id:
                raise AppealsError(_("%(name)s is not on this tournament's committee.") % {"name": m.name})
            if m.participant is not None and m.participant.number in involved:
                raise AppealsError(
                    _("%(name)s took part in the deal and may not sit on this appeal.") % {"name": m.name},
                    code="conflict",
                )
        appeal.panel.all().delete()
        AppealMember.objects.bulk_create(AppealMember(appeal=appeal, member=m) for m in members)
        appeal.heard_at = now
        appeal.hearing_notes = notes
        appeal.status = Appeal.Status.HEARD
        appeal.save()
        _log(appeal, "appeal.hear", user, now, reason=notes, members=[m.name for m in members])
    return appeal


def appeal_decide(
    *,
    appeal: Appeal,
    outcome: str,
    decision: str,
    adjustment: Mapping[str, Any] | None = None,
    user: Any,
    now: dt.datetime,
) -> Appeal:
    """Appendix B item 10: the committee's decision and the score changes it makes (applied later).

    ``outcome``: ``upheld`` (no change), ``cancelled`` (the appealed ruling's changes are undone), ``adjusted``
    with ``adjustment`` = ``{"kind": "artificial", "values": {"N": "A+", ...}}`` or ``{"kind": "assigned",
    "values": {"N": "12", ...}}`` for the appealed deal, optionally ``"penalty": {"participant": 3,
    "matchpoints": "-1"}``.
    """
    if outcome not in Appeal.Outcome.values:
        raise AppealsError(_("Choose the outcome."), code="outcome")
    if not decision.strip():
        raise AppealsError(_("Write the committee's decision."), code="decision")
    with transaction.atomic():
        appeal = _lock(Appeal, appeal.pk)
        _check_transition(appeal, [Appeal.Status.HEARD, Appeal.Status.DECIDED], _("decide"))
        appeal.changes.filter(status=ScoreChange.Status.PLANNED).delete()
        appeal.panel.update(signed_at=None, signed_by=None)
        key = {"board": appeal.board_number, "round": appeal.round_number, "table": appeal.table_number,
               "room": appeal.room}  # fmt: skip
        if outcome == Appeal.Outcome.CANCELLED:
            if appeal.ruling is None:
                raise AppealsError(_("This appeal names no ruling to cancel."), code="no_ruling")
            applied = appeal.ruling.changes.filter(status=ScoreChange.Status.APPLIED).order_by("-id")
            if not applied.exists():
                raise AppealsError(
                    _("The ruling changed no score; there is nothing to undo."), code="nothing"
                )
            for c in applied:
                _plan_undo(appeal, c)
        elif outcome == Appeal.Outcome.ADJUSTED:
            adj = dict(adjustment or {})
            kind = adj.get("kind")
            seats = list(appeal.seats)
            values = {s: str(v) for s, v in (adj.get("values") or {}).items() if s in seats}
            if kind not in ("artificial", "assigned") and not adj.get("penalty"):
                raise AppealsError(_("Say how the score is adjusted."), code="adjustment")
            if kind == "artificial":
                if set(values) != set(seats) or any(
                    v not in rulings.FAULT_GRADE.values() for v in values.values()
                ):
                    raise AppealsError(_("Give every seat an artificial result: A-, A or A+."), code="grades")
                _plan(appeal, kind="artificial", seats=appeal.seats, values=values, **key)
            elif kind == "assigned":
                if set(values) != set(seats):
                    raise AppealsError(_("Give every seat an assigned result in vists."), code="vists")
                values = {s: _clean_vists(v) for s, v in values.items()}
                _plan(appeal, kind="assigned", seats=appeal.seats, values=values, **key)
            pen = adj.get("penalty") or {}
            if pen.get("participant") and pen.get("matchpoints"):
                participant = Participant.objects.filter(
                    tournament=appeal.tournament, number=int(pen["participant"])
                ).first()
                if participant is None:
                    raise AppealsError(_("There is no participant number %(n)s.") % {"n": pen["participant"]})
                _plan(appeal, kind="penalty", board=None, round=None, table=None, participant=participant,
                      matchpoints=_clean_matchpoints(str(pen["matchpoints"])))  # fmt: skip
        appeal.outcome = outcome
        appeal.decision = decision
        appeal.decided_at = now
        appeal.status = Appeal.Status.DECIDED
        appeal.save()
        planned = [
            {"kind": c.kind, "board": c.board_number, "values": c.values, "matchpoints": c.matchpoints}
            for c in appeal.changes.filter(status=ScoreChange.Status.PLANNED)
        ]
        _log(appeal, "appeal.decide", user, now, reason=decision, outcome=outcome, changes=planned)
    return appeal


def _clean_vists(value: str) -> str:
    try:
        return format_fraction(parse_fraction(value))
    except NumberFormatError as exc:
        raise AppealsError(
            _("“%(value)s” is not a number of vists.") % {"value": value}, code="vists"
        ) from exc


def _plan_undo(reason: Appeal, applied: ScoreChange) -> None:
    K = ScoreChange.Kind
    key = {"board": applied.board_number, "round": applied.round_number, "table": applied.table_number,
           "room": applied.room}  # fmt: skip
    if applied.kind == K.PENALTY:
        change = _plan(reason, kind=K.PENALTY_REMOVE, board=None, round=None, table=None,
                       participant=applied.participant, values={"penalty": applied.penalty_id})  # fmt: skip
        change.penalty = applied.penalty
        change.save(update_fields=["penalty"])
    elif applied.kind == K.PENALTY_REMOVE:
        before = applied.before or {}
        _plan(reason, kind=K.PENALTY, board=None, round=None, table=None, participant=applied.participant,
              matchpoints=str(before.get("matchpoints", "0")))  # fmt: skip
    else:
        _plan(reason, kind=K.RESTORE, seats=(applied.before or {}).get("seats") or applied.seats,
              values=applied.before or {}, **key)  # fmt: skip


def appeal_sign(*, appeal: Appeal, member: CommitteeMember, user: Any, now: dt.datetime) -> AppealMember:
    """Appendix B item 11: a member of the committee signs the decision."""
    with transaction.atomic():
        appeal = _lock(Appeal, appeal.pk)
        _check_transition(appeal, [Appeal.Status.DECIDED], _("sign the decision"))
        seat = appeal.panel.filter(member=member).first()
        if seat is None:
            raise AppealsError(
                _("%(name)s did not hear this appeal.") % {"name": member.name}, code="not_member"
            )
        if seat.signed_at is not None:
            raise TransitionRefused(_("%(name)s has already signed.") % {"name": member.name}, code="signed")
        seat.signed_at = now
        seat.signed_by = user if getattr(user, "is_authenticated", False) else None
        seat.save()
        _log(appeal, "appeal.sign", user, now, member=member.name)
    return seat


def appeal_apply(*, appeal: Appeal, user: Any, now: dt.datetime) -> Appeal:
    """Apply the decision: its score changes go through the result write path; the standings are rescored."""
    with transaction.atomic():
        appeal = _lock(Appeal, appeal.pk)
        _check_transition(appeal, [Appeal.Status.DECIDED], _("apply the decision"))
        unsigned = [m.member.name for m in appeal.panel.select_related("member") if m.signed_at is None]
        if unsigned:
            raise TransitionRefused(
                _("Not signed yet by: %(names)s.") % {"names": ", ".join(unsigned)}, code="unsigned"
            )
        if appeal.changes.filter(status=ScoreChange.Status.PLANNED).exists():
            _guard_not_final(appeal.tournament)
        count = _apply_all(appeal, user=user, now=now)
        appeal.status = Appeal.Status.APPLIED
        appeal.applied_at = now
        appeal.save()
        _log(appeal, "appeal.apply", user, now, reason=appeal.decision, changes=count)
    return appeal


def appeal_close(*, appeal: Appeal, user: Any, now: dt.datetime) -> Appeal:
    with transaction.atomic():
        appeal = _lock(Appeal, appeal.pk)
        _check_transition(appeal, [Appeal.Status.APPLIED], _("close the appeal"))
        appeal.status = Appeal.Status.CLOSED
        appeal.closed_at = now
        appeal.save()
        _log(appeal, "appeal.close", user, now)
    return appeal


def appeal_withdraw(*, appeal: Appeal, user: Any = None, actor: str = "", now: dt.datetime) -> Appeal:
    """The appellant withdraws (or the director records it) before the decision."""
    with transaction.atomic():
        appeal = _lock(Appeal, appeal.pk)
        _check_transition(
            appeal,
            [Appeal.Status.NOTICE, Appeal.Status.FILED, Appeal.Status.COMMENTED, Appeal.Status.HEARD],
            _("withdraw the appeal"),
        )
        appeal.status = Appeal.Status.WITHDRAWN
        appeal.closed_at = now
        appeal.save()
        log_action(tournament=appeal.tournament, action="appeal.withdraw", user=user, actor=actor, obj=appeal,
                   at=now, data={"appeal": appeal.pk, "number": appeal.number})  # fmt: skip
    return appeal


# --- corrections (§1) --------------------------------------------------------------------------------------


def correction_request(
    *,
    session: Session,
    description: str,
    kind: str = Correction.Kind.ENTRY,
    board: int | None = None,
    round: int | None = None,
    table: int | None = None,
    participant: Participant | None = None,
    late_note: str = "",
    user: Any = None,
    now: dt.datetime,
) -> Correction:
    """Ask for a result to be corrected. Outside the correction period it is stored as refused with the reason;
    the director may admit a late one with a note, except once the results are final (then only arithmetic)."""
    tournament = session.tournament
    if not description.strip():
        raise AppealsError(_("Say what is wrong."), code="description")
    check = deadlines.check_correction(
        now=now,
        publication=tournament.publication,
        official_at=tournament.official_at,
        minutes=tournament.correction_minutes,
        arithmetic=kind == Correction.Kind.ARITHMETIC,
    )
    admitted = not check and check.code == "correction_late" and late_note.strip() and user is not None
    with transaction.atomic():
        correction = Correction.objects.create(
            tournament=tournament,
            session=session,
            kind=kind,
            board_number=board,
            round_number=round,
            table_number=table,
            requested_by=participant,
            description=description,
            requested_at=now,
            deadline=check.deadline,
            status=Correction.Status.REQUESTED if (check or admitted) else Correction.Status.REFUSED,
            refusal="" if (check or admitted) else _correction_refusal(check),
            late_note=late_note if admitted else "",
        )
        log_action(
            tournament=tournament,
            action="correction.request"
            if correction.status == Correction.Status.REQUESTED
            else "correction.refuse",
            user=user,
            actor="" if user is not None else (f"participant {participant.number}" if participant else ""),
            obj=correction,
            at=now,
            reason=correction.refusal or description,
            data={"correction": correction.pk, "kind": kind, "board": board, "deadline": check.code},
        )
    return correction


def _correction_refusal(check: deadlines.Check) -> str:
    if check.code == "results_final":
        return _("The results are final: only obvious (arithmetic) errors are corrected (§1).")
    return _("The correction period ended at %(deadline)s (§1).") % {"deadline": _local(check.deadline)}


def correction_apply(
    *,
    correction: Correction,
    row: Mapping[str, Any] | None = None,
    seats: Mapping[str, int] | None = None,
    user: Any,
    now: dt.datetime,
) -> Correction:
    """Correct the row named by the request with new protocol facts (and/or seats), through the write path."""
    with transaction.atomic():
        correction = _lock(Correction, correction.pk)
        _check_transition(correction, [Correction.Status.REQUESTED], _("apply the correction"))
        tournament = correction.tournament
        _guard_not_final(tournament, arithmetic=correction.kind == Correction.Kind.ARITHMETIC)
        if None in (correction.board_number, correction.round_number, correction.table_number):
            raise AppealsError(_("Say which board, round and table to correct."), code="where")
        key = {"board": correction.board_number, "round": correction.round_number,
               "table": correction.table_number, "room": correction.room}  # fmt: skip
        if row is not None:
            _plan(correction, kind=ScoreChange.Kind.ROW, seats=seats or {}, values=row, **key)
        elif seats is not None:
            existing = Result.objects.filter(
                session=correction.session, room=correction.room, board_number=correction.board_number,
                round_number=correction.round_number, table_number=correction.table_number,
            ).first()  # fmt: skip
            if existing is None:
                raise AppealsError(_("There is no result at that table to correct."), code="no_result")
            facts = _row_facts(existing) or {}
            _plan(correction, kind=ScoreChange.Kind.RESTORE, seats=seats, values={**facts, "seats": dict(seats)},
                  **key)  # fmt: skip
        else:
            raise AppealsError(_("Give the corrected protocol row or seats."), code="nothing")
        correction.status = Correction.Status.APPLIED
        correction.decided_at = now
        correction.decided_by = user if getattr(user, "is_authenticated", False) else None
        correction.save()
        _apply_all(correction, user=user, now=now)
        log_action(tournament=tournament, action="correction.apply", user=user, obj=correction, at=now,
                   reason=correction.description, data={"correction": correction.pk})  # fmt: skip
    return correction


def correction_refuse(*, correction: Correction, reason: str, user: Any, now: dt.datetime) -> Correction:
    if not reason.strip():
        raise AppealsError(_("Say why the correction is refused."), code="reason")
    with transaction.atomic():
        correction = _lock(Correction, correction.pk)
        _check_transition(correction, [Correction.Status.REQUESTED], _("refuse the correction"))
        correction.status = Correction.Status.REFUSED
        correction.refusal = reason
        correction.decided_at = now
        correction.save()
        log_action(tournament=correction.tournament, action="correction.refuse", user=user, obj=correction,
                   at=now, reason=reason, data={"correction": correction.pk})  # fmt: skip
    return correction


# --- summaries ---------------------------------------------------------------------------------------------


def open_matters(tournament: Tournament) -> dict[str, int]:
    """What is still open (for a director about to make the results final): appeals, rulings, corrections."""
    return {
        "appeals": Appeal.objects.filter(tournament=tournament, status__in=OPEN_APPEAL_STATES).count(),
        "rulings": Irregularity.objects.filter(
            tournament=tournament, status=Irregularity.Status.RECORDED
        ).count(),
        "corrections": Correction.objects.filter(
            tournament=tournament, status=Correction.Status.REQUESTED
        ).count(),
    }


SCORE_ACTIONS = (
    "result.update", "result.delete", "result.create", "penalty.create", "penalty.update", "penalty.delete",
)  # fmt: skip


def changes_for_participant(participant: Participant) -> list[dict[str, Any]]:
    """What changed on a participant's boards and why (result corrections, adjustments, penalties), newest
    first. A change to any row of a board he played changes his matchpoints, so all are listed."""
    tournament = participant.tournament
    n = participant.number
    played: set[tuple[int, int]] = set()
    for session_number, board in Result.objects.filter(
        Q(seat_n=participant) | Q(seat_e=participant) | Q(seat_s=participant) | Q(seat_w=participant),
        session__tournament=tournament,
    ).values_list("session__number", "board_number"):
        played.add((session_number, board))
    linked = {
        c.audit_entry_id: c
        for c in ScoreChange.objects.filter(tournament=tournament, audit_entry__isnull=False).select_related(
            "appeal", "irregularity", "correction"
        )
    }
    out: list[dict[str, Any]] = []
    for entry in AuditEntry.objects.filter(tournament=tournament, action__in=SCORE_ACTIONS).order_by(
        "-at", "-id"
    ):
        data = entry.data or {}
        change = linked.get(entry.pk)
        if entry.action.startswith("penalty."):
            if data.get("participant") != n:
                continue
            board = None
        else:
            facts = data.get("after") or data.get("before") or {}
            board = facts.get("board")
            if (data.get("session"), board) not in played and n not in (facts.get("seats") or {}).values():
                continue
            if (
                entry.action == "result.create"
                and change is None
                and not (facts.get("adjusted") or facts.get("assigned"))
            ):
                continue  # an ordinary entry of a row, not a change
        out.append(
            {
                "entry": entry,
                "at": entry.at,
                "session": data.get("session"),
                "board": board,
                "table": (data.get("after") or data.get("before") or {}).get("table"),
                "own": n in ((data.get("after") or data.get("before") or {}).get("seats") or {}).values(),
                "action": entry.action,
                "reason": entry.reason,
                "change": change,
            }
        )
    return out


# --- settings and the committee ----------------------------------------------------------------------------


def settings_update(
    *,
    tournament: Tournament,
    filing_minutes: int,
    correction_minutes: int,
    notice_required: bool,
    online_filing: bool,
    user: Any,
    now: dt.datetime,
) -> AppealSettings:
    with transaction.atomic():
        conf = settings_for(tournament)
        before = {"filing_minutes": conf.filing_minutes, "correction_minutes": tournament.correction_minutes,
                  "notice_required": conf.notice_required, "online_filing": conf.online_filing}  # fmt: skip
        conf.filing_minutes, conf.notice_required, conf.online_filing = (
            filing_minutes,
            notice_required,
            online_filing,
        )
        conf.save()
        Tournament.objects.filter(pk=tournament.pk).update(correction_minutes=correction_minutes)
        tournament.correction_minutes = correction_minutes
        after = {"filing_minutes": filing_minutes, "correction_minutes": correction_minutes,
                 "notice_required": notice_required, "online_filing": online_filing}  # fmt: skip
        if after != before:
            log_action(tournament=tournament, action="appeals.settings", user=user, obj=conf, at=now,
                       data={"before": before, "after": after})  # fmt: skip
    return conf


def committee_add(
    *,
    tournament: Tournament,
    name: str,
    participant: int | None = None,
    username: str = "",
    is_chair: bool = False,
    user: Any,
    now: dt.datetime,
) -> CommitteeMember:
    from django.contrib.auth import get_user_model

    p = None
    if participant:
        p = Participant.objects.filter(tournament=tournament, number=participant).first()
        if p is None:
            raise AppealsError(
                _("There is no participant number %(n)s.") % {"n": participant}, code="participant"
            )
    login = None
    if username.strip():
        login = get_user_model().objects.filter(username=username.strip()).first()
        if login is None:
            raise AppealsError(_("There is no login “%(u)s”.") % {"u": username}, code="username")
    with transaction.atomic():
        if is_chair:
            CommitteeMember.objects.filter(tournament=tournament).update(is_chair=False)
        member = CommitteeMember.objects.create(
            tournament=tournament, name=name, participant=p, user=login, is_chair=is_chair
        )
        log_action(tournament=tournament, action="committee.add", user=user, obj=member, at=now,
                   data={"member": member.pk, "participant": participant, "chair": is_chair})  # fmt: skip
    return member


def committee_remove(*, member: CommitteeMember, user: Any, now: dt.datetime) -> None:
    if AppealMember.objects.filter(member=member).exists():
        raise AppealsError(_("%(name)s has heard an appeal and stays on record.") % {"name": member.name})
    with transaction.atomic():
        log_action(tournament=member.tournament, action="committee.remove", user=user, obj=member, at=now,
                   data={"member": member.pk})  # fmt: skip
        member.delete()
