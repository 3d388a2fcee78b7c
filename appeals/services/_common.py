"""Shared parts of the rulings, appeals and corrections workflows: errors, settings, facts, the «where» of a
matter (a duplicate board or a pulka deal), score changes, penalties."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from appeals.models import (
    Appeal,
    AppealSettings,
    Correction,
    Irregularity,
    ScoreChange,
)
from appeals.services._errors import AppealsError, DeadlineMissed, TransitionRefused
from appeals.services._where import deal_seats, next_deal_started_at, rejection_text
from appeals.services.ruling_texts import proposal_text
from preferans.duplicate import artificial, rulings
from preferans.numbers import format_fraction
from pulkas.models import PulkaDeal, PulkaTable
from pulkas.services.sheet import correct_deal
from scoring.models import Penalty, Result
from scoring.penalties import penalty_delete, penalty_save, penalty_value
from scoring.row_command import RowAuthor, RowCommand, RowPlace, RowWriting, row_content
from scoring.rows import result_delete, result_facts, result_save
from scoring.seat_adjustments import percentages
from tournaments.errors import UserError
from tournaments.models import AuditEntry, Participant, Session, Tournament
from tournaments.refusals import ResultRejected, adjustment_message

# The errors and the duplicate «where» helpers: the workflows import them from here.
__all__ = ["AppealsError", "DeadlineMissed", "TransitionRefused", "deal_seats", "next_deal_started_at"]

# --- settings and facts ------------------------------------------------------------------------------------


def settings_for(tournament: Tournament) -> AppealSettings:
    """The tournament's deadlines (created with the rules' defaults the first time)."""
    obj, _created = AppealSettings.objects.get_or_create(tournament=tournament)
    return obj


def _local(moment: dt.datetime | None, zone: dt.tzinfo) -> str:
    """A moment as people read it: hours and minutes in the event's time zone."""
    if moment is None:
        return "—"
    return formats.date_format(timezone.localtime(moment, zone), "H:i")


def _reason_text(tournament: Tournament, obj: Irregularity | Appeal | Correction) -> str:
    """Why a score changed, in the tournament's language (players read it)."""
    with translation.override(tournament.language):
        if isinstance(obj, Appeal):
            head = _("Appeal No. %(n)s") % {"n": obj.number}
            body = obj.decision or obj.get_outcome_display()
        elif isinstance(obj, Irregularity):
            head = _("Director's ruling: %(kind)s") % {"kind": obj.get_kind_display()}
            body = obj.ruling or proposal_text(obj.proposal, obj.facts)
        else:
            head = _("Correction: %(kind)s") % {"kind": obj.get_kind_display()}
            body = obj.description
    return f"{head}. {body}".strip()


def _guard_not_final(tournament: Tournament, *, arithmetic: bool = False) -> None:
    """The tournament's own rule (:meth:`~tournaments.models.Tournament.ensure_scores_open`), as an appeals
    error (the committee's pages show AppealsError)."""
    try:
        tournament.ensure_scores_open(arithmetic=arithmetic)
    except UserError as exc:
        raise AppealsError(exc.message, code=exc.code) from exc


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
    """What a row holds, as the audit trail records it (the write path's own description)."""
    return None if result is None else result_facts(result)


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
    deal: int | None = None,
    pulka_table: PulkaTable | None = None,
) -> ScoreChange:
    """Plan one change of the reason's kind of event: at a pulka event a deal of a table's sheet (``deal``; the
    table is the reason's unless given), else a board of the reason's session."""
    where: dict[str, Any] = {"session": reason.session}
    if reason.is_pulka:
        where = {"session": None, "pulka_table": pulka_table or reason.pulka_table, "deal_number": deal}
    link: dict[str, Any] = {
        Irregularity: {"irregularity": reason},
        Appeal: {"appeal": reason},
        Correction: {"correction": reason},
    }[type(reason)]
    return ScoreChange.objects.create(
        tournament=reason.tournament,
        **where,
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


def _apply_pulka(change: ScoreChange, *, reason: str, user: Any, now: dt.datetime) -> None:
    """A pulka deal changed by a ruling, a decision or a correction: through the sheet's one write path
    (``pulkas.services.sheet.correct_deal``, as the director), which audits it and rescores the table."""
    table, number = change.pulka_table, change.deal_number
    assert table is not None and number is not None
    deal = PulkaDeal.objects.filter(table=table, number=number).first()
    if deal is None:
        raise AppealsError(
            _("There is no deal %(n)s on the sheet of that table.") % {"n": number}, code="no_deal"
        )
    if change.before is None:
        change.before = {"row": deal.row}
    if change.kind == ScoreChange.Kind.ROW:
        row = dict(change.values)
    elif change.kind == ScoreChange.Kind.RESTORE and isinstance(change.values.get("row"), dict):
        row = dict(change.values["row"])
    else:
        raise AppealsError(_("A pulka deal is changed only by correcting its row."), code="pulka_change")
    try:
        correct_deal(table=table, number=number, row=row, now=now, user=user, reason=reason[:500])
    except ResultRejected as exc:
        raise AppealsError(
            _("The sheet refused the change: %(why)s") % {"why": rejection_text(exc)}, code="rejected"
        ) from exc
    except UserError as exc:
        raise AppealsError(exc.message, code=exc.code) from exc
    change.audit_entry = _latest_entry(change.tournament, "pulka_deal_corrected")


def _apply_change(change: ScoreChange, *, reason: str, user: Any, now: dt.datetime) -> None:
    """Carry out one planned change through the result write path and link the audit entry it wrote."""
    if change.is_pulka:
        _apply_pulka(change, reason=reason, user=user, now=now)
        change.status = ScoreChange.Status.APPLIED
        change.applied_at = now
        change.save()
        return
    session = change.session
    assert session is not None
    tournament = change.tournament
    kind = change.kind
    K = ScoreChange.Kind
    # Once the results are final only an obvious arithmetic error is corrected (§1): the scoring services
    # decide, told whether this is one.
    arithmetic = change.correction is not None and change.correction.kind == Correction.Kind.ARITHMETIC
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
                arithmetic=arithmetic,
            )
        else:
            penalty = change.penalty or Penalty.objects.filter(pk=change.values.get("penalty")).first()
            if penalty is not None:
                change.before = {
                    "participant": penalty.participant.number,
                    "matchpoints": penalty.matchpoints,
                    "reason": penalty.reason,
                }
                penalty_remove(penalty=penalty, reason=reason, user=user, now=now, arithmetic=arithmetic)
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
            try:
                result_delete(result=existing, user=user, reason=reason, arithmetic=arithmetic, now=now)
            except UserError as exc:
                raise AppealsError(exc.message, code=exc.code) from exc
            change.result = None
        else:
            seats = dict(change.seats or (existing.seats() if existing else {}))
            if target and target.get("seats"):
                seats = dict(target["seats"])
            if not seats:
                raise AppealsError(_("Nobody is seated at that table in that round."), code="no_seats")
            content: dict[str, Any]
            version = existing.version if existing is not None else "A"
            values, per_seat = (
                split_seat_adjustments(change.values) if kind != K.RESTORE else (change.values, {})
            )
            if kind in (K.ARTIFICIAL, K.ASSIGNED):  # a new adjustment: only the per-seat ones it carries
                per_seat = {"annulled": [], "percent": None, **per_seat}
            if kind == K.ARTIFICIAL:
                content = {"adjusted": values}
            elif kind == K.ASSIGNED:
                content = {"assigned": values}
            elif kind == K.ROW and not values:  # per-seat adjustments of the stored row (§11.3 C, §11.6 B)
                if existing is None:
                    raise AppealsError(_("There is no result at that table to adjust."), code="no_result")
                content = {**_content_of(existing.row, existing.adjusted, existing.assigned), **per_seat}
                per_seat = {}
            elif kind == K.ROW:
                content = {"row": values}
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
                content.update(annulled=list(target.get("annulled") or ()), percent=target.get("percent"))
                version = str(target.get("version") or "A")
            content.update(per_seat)
            try:
                place = RowPlace(
                    session=session,
                    board=change.board_number,
                    round=change.round_number,
                    table=change.table_number,
                    room=change.room,
                    seats=seats,
                )
                writing = RowWriting(
                    correction=True,
                    reason=reason,
                    arithmetic=arithmetic,
                    board_outside_set=_wrong_board(change),
                    # the row this change was applied to (its «before»): one changed meanwhile is not overwritten
                    revision=existing.revision if existing is not None else None,
                )
                command = RowCommand(
                    place, row_content(version=version, **content), writing, RowAuthor(user=user)
                )
                change.result = result_save(command, now=now)
            except ResultRejected as exc:
                raise AppealsError(
                    _("The result write path refused the change: %(why)s") % {"why": exc}, code="rejected"
                ) from exc
            except UserError as exc:
                raise AppealsError(exc.message, code=exc.code) from exc
        change.audit_entry = _latest_entry(tournament, "result.")
    change.status = ScoreChange.Status.APPLIED
    change.applied_at = now
    change.save()


def _wrong_board(change: ScoreChange) -> bool:
    """A ruling (or an appeal against one) on a wrong board (§11.6) may store a row for a board outside the
    table's set."""
    ruling = change.irregularity or (change.appeal.ruling if change.appeal is not None else None)
    return ruling is not None and ruling.kind == Irregularity.Kind.WRONG_BOARD


def raised_percentages(
    tournament: Tournament, raw: Mapping[str, Any] | None, *, grades: Mapping[str, str], seats: Sequence[str]
) -> dict[str, str]:
    """A non-offender's percentages above A+ (§11.2 B1 «по меньшей мере 60 %») as a ruling or a committee decision
    gives them, by seat and as written (empty: none): only for a seat graded A+, at least the tournament's A+, at
    most 100. The write path checks them again when the change is applied."""
    percent = {str(s): str(v).strip() for s, v in (raw or {}).items() if str(v).strip()}
    if not percent:
        return {}
    try:
        values = {s: artificial.parse_percent(v) for s, v in percent.items()}
    except ValueError as exc:
        raise AppealsError(
            _("A percentage of the top is a number such as 65 or 62.5."), code="percent"
        ) from exc
    problems = artificial.seat_percent_problems(
        values, adjusted=grades, artificial=percentages(tournament), seats=list(seats)
    )
    if problems:
        raise AppealsError(adjustment_message(problems[0]), code=problems[0].code)
    return percent


def split_seat_adjustments(values: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A planned change's values without and with the per-seat adjustments it carries (``annulled``,
    ``percent``: :mod:`preferans.duplicate.artificial`), as :func:`scoring.row_command.row_content` takes them."""
    rest = {k: v for k, v in values.items() if k not in ("annulled", "percent")}
    per_seat: dict[str, Any] = {}
    if values.get("annulled"):
        per_seat["annulled"] = list(values["annulled"])
    if values.get("percent"):
        per_seat["percent"] = dict(values["percent"])
    return rest, per_seat


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
        if (c.table, c.round, c.room) != (None, None, None):
            change_seats = {}  # another table's row (§11.6 B): its own seats, as stored
        _plan(
            reason,
            kind=c.kind,
            board=c.board,
            round=c.round or round if c.kind != "penalty" else None,
            table=c.table or table if c.kind != "penalty" else None,
            room=c.room or room,
            seats=change_seats,
            values=c.values,
            participant=participant,
            matchpoints=_clean_matchpoints(c.matchpoints) if c.kind == "penalty" else "",
        )


def _clean_matchpoints(value: str) -> str:
    """A planned penalty's matchpoints, checked now by the penalties' own rule (a negative number, §12)."""
    try:
        return format_fraction(penalty_value(value))
    except UserError as exc:
        raise AppealsError(exc.message, code=exc.code) from exc


# --- penalties (§12) ---------------------------------------------------------------------------------------


def penalty_add(
    *,
    session: Session,
    participant: Participant,
    matchpoints: str,
    reason: str,
    user: Any,
    now: dt.datetime,
    arithmetic: bool = False,
) -> Penalty:
    """A procedural penalty in matchpoints (§12), through the penalties' one write path (audited, rescored)."""
    try:
        return penalty_save(
            session=session,
            participant=participant,
            matchpoints=matchpoints,
            reason=reason,
            user=user,
            now=now,
            arithmetic=arithmetic,
        )
    except UserError as exc:
        raise AppealsError(exc.message, code=exc.code) from exc


def penalty_remove(
    *, penalty: Penalty, reason: str, user: Any, now: dt.datetime, arithmetic: bool = False
) -> None:
    try:
        penalty_delete(penalty=penalty, reason=reason, user=user, now=now, arithmetic=arithmetic)
    except UserError as exc:
        raise AppealsError(exc.message, code=exc.code) from exc
