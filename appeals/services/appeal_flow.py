"""Appeals (rules §1, Appendix B): admitting a late one, comment, hearing, decision, sign-off, application.

The same steps at both kinds of event: the appeal carries its «where» (a duplicate board or a pulka deal); a
decision that changes a pulka deal gives the deal's corrected row (a pulka has no artificial or assigned results,
pulka-spec P-22) and goes through the sheet's write path when applied."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from appeals.models import (
    Appeal,
    AppealMember,
    CommitteeMember,
    ScoreChange,
)
from appeals.services._common import (
    AppealsError,
    DeadlineMissed,
    TransitionRefused,
    _apply_all,
    _check_transition,
    _clean_matchpoints,
    _guard_not_final,
    _lock,
    _plan,
    raised_percentages,
)
from appeals.services._where import next_deal_of
from appeals.services.filing import notice_refusal
from appeals.services.pulka import plan_pulka_row
from preferans.duplicate import deadlines, rulings
from preferans.numbers import NumberFormatError, format_fraction, parse_fraction
from tournaments.audit import log_action
from tournaments.models import Participant

# --- appeals (§1, Appendix B): from the director's comment to closing ------------------------------------
# (the notice and the filing are in appeals.services.filing)


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
                next_deal_started_at=next_deal_of(appeal),
                filed_at=appeal.filed_at,
                zone=appeal.tournament.time_zone,
            )
            if not check:
                raise DeadlineMissed(notice_refusal(check), check=check)
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
                    _("%(name)s played in the deal, so may not sit on this appeal.") % {"name": m.name},
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
    "matchpoints": "-1"}``; at a pulka event ``{"kind": "row", "row": {...}}``, the deal's corrected row, which
    the sheet's write path must accept (checked now, written when the decision is applied).
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
        key = {
            "board": appeal.board_number,
            "round": appeal.round_number,
            "table": appeal.table_number,
            "room": appeal.room,
        }
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
        elif outcome == Appeal.Outcome.ADJUSTED and appeal.is_pulka:
            plan_pulka_row(appeal, adjustment or {}, user=user, now=now)
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
                percent = raised_percentages(
                    appeal.tournament, adj.get("percent"), grades=values, seats=seats
                )
                _plan(
                    appeal,
                    kind="artificial",
                    seats=appeal.seats,
                    values={**values, "percent": percent} if percent else values,
                    **key,
                )
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
                _plan(
                    appeal,
                    kind="penalty",
                    board=None,
                    round=None,
                    table=None,
                    participant=participant,
                    matchpoints=_clean_matchpoints(str(pen["matchpoints"])),
                )
        appeal.outcome = outcome
        appeal.decision = decision
        appeal.decided_at = now
        appeal.status = Appeal.Status.DECIDED
        appeal.save()
        planned = [
            {
                "kind": c.kind,
                "board": c.board_number,
                "deal": c.deal_number,
                "values": c.values,
                "matchpoints": c.matchpoints,
            }
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
    key = {
        "board": applied.board_number,
        "round": applied.round_number,
        "table": applied.table_number,
        "room": applied.room,
        "deal": applied.deal_number,
        "pulka_table": applied.pulka_table,
    }
    if applied.kind == K.PENALTY:
        change = _plan(
            reason,
            kind=K.PENALTY_REMOVE,
            board=None,
            round=None,
            table=None,
            participant=applied.participant,
            values={"penalty": applied.penalty_id},
        )
        change.penalty = applied.penalty
        change.save(update_fields=["penalty"])
    elif applied.kind == K.PENALTY_REMOVE:
        before = applied.before or {}
        _plan(
            reason,
            kind=K.PENALTY,
            board=None,
            round=None,
            table=None,
            participant=applied.participant,
            matchpoints=str(before.get("matchpoints", "0")),
        )
    else:
        _plan(
            reason,
            kind=K.RESTORE,
            seats=(applied.before or {}).get("seats") or applied.seats,
            values=applied.before or {},
            **key,
        )


def appeal_sign(*, appeal: Appeal, member: CommitteeMember, user: Any, now: dt.datetime) -> AppealMember:
    """Appendix B item 11: a member of the committee signs the decision."""
    with transaction.atomic():
        appeal = _lock(Appeal, appeal.pk)
        _check_transition(appeal, [Appeal.Status.DECIDED], _("sign the decision"))
        seat = appeal.panel.filter(member=member).first()
        if seat is None:
            raise AppealsError(
                _("%(name)s is not on the panel that heard this appeal.") % {"name": member.name},
                code="not_member",
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
        log_action(
            tournament=appeal.tournament,
            action="appeal.withdraw",
            user=user,
            actor=actor,
            obj=appeal,
            at=now,
            data={"appeal": appeal.pk, "number": appeal.number},
        )
    return appeal
