"""Corrections (rules §1), summaries for directors and players, deadline settings and the committee."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from appeals.models import (
    AppealMember,
    AppealSettings,
    CommitteeMember,
    Correction,
    ScoreChange,
)
from appeals.services._common import (
    AppealsError,
    _apply_all,
    _check_transition,
    _guard_not_final,
    _local,
    _lock,
    _plan,
    _row_facts,
    settings_for,
)
from appeals.services._where import guard_form, guard_open
from preferans.duplicate import deadlines
from pulkas.models import PulkaTable
from scoring.models import Result
from tournaments.audit import log_action, participant_actor
from tournaments.models import AuditEntry, Participant, Session, Tournament

# --- corrections (§1) --------------------------------------------------------------------------------------


def correction_request(
    *,
    session: Session,
    description: str,
    kind: str = Correction.Kind.ENTRY,
    board: int | None = None,
    round: int | None = None,
    table: int | None = None,
    room: int = 1,
    participant: Participant | None = None,
    late_note: str = "",
    user: Any = None,
    now: dt.datetime,
) -> Correction:
    """Ask for a result to be corrected. Outside the correction period it is stored as refused with the reason;
    the director may admit a late one with a note, except once the results are final (then only arithmetic)."""
    guard_form(session.tournament, pulka=False)
    where = {
        "session": session,
        "board_number": board,
        "round_number": round,
        "table_number": table,
        "room": room,
    }
    return record_correction(
        tournament=session.tournament,
        where=where,
        audit={"board": board},
        description=description,
        kind=kind,
        participant=participant,
        late_note=late_note,
        user=user,
        now=now,
    )


def record_correction(
    *,
    tournament: Tournament,
    where: Mapping[str, Any],
    audit: Mapping[str, Any],
    description: str,
    kind: str,
    participant: Participant | None,
    late_note: str,
    user: Any,
    now: dt.datetime,
) -> Correction:
    """A correction request at either kind of event (``where``: the model's fields naming the deal)."""
    if not description.strip():
        raise AppealsError(_("Say what is wrong."), code="description")
    if kind not in Correction.Kind.values:
        raise AppealsError(_("Choose the kind of correction."), code="kind")
    check = deadlines.check_correction(
        now=now,
        publication=tournament.publication,
        official_at=tournament.official_at,
        minutes=tournament.correction_minutes,
        arithmetic=kind == Correction.Kind.ARITHMETIC,
        zone=tournament.time_zone,
    )
    admitted = not check and check.code == "correction_late" and late_note.strip() and user is not None
    with transaction.atomic():
        correction = Correction.objects.create(
            tournament=tournament,
            **where,
            kind=kind,
            requested_by=participant,
            description=description,
            requested_at=now,
            deadline=check.deadline,
            status=Correction.Status.REQUESTED if (check or admitted) else Correction.Status.REFUSED,
            refusal="" if (check or admitted) else _correction_refusal(check, tournament.time_zone),
            late_note=late_note if admitted else "",
        )
        log_action(
            tournament=tournament,
            action="correction.request"
            if correction.status == Correction.Status.REQUESTED
            else "correction.refuse",
            user=user,
            actor="" if user is not None else (participant_actor(participant) if participant else ""),
            obj=correction,
            at=now,
            reason=correction.refusal or description,
            data={"correction": correction.pk, "kind": kind, **audit, "deadline": check.code},
        )
    return correction


def _correction_refusal(check: deadlines.Check, zone: dt.tzinfo) -> str:
    if check.code == "results_final":
        return _("The results are final: only obvious (arithmetic) errors are corrected (§1).")
    return _("The correction period ended at %(deadline)s (§1).") % {"deadline": _local(check.deadline, zone)}


def correction_apply(
    *,
    correction: Correction,
    row: Mapping[str, Any] | None = None,
    seats: Mapping[str, int] | None = None,
    user: Any,
    now: dt.datetime,
) -> Correction:
    """Correct the row named by the request with new protocol facts (and/or seats), through the write path; at a
    pulka event the deal's corrected row, through the sheet's write path."""
    with transaction.atomic():
        correction = _lock(Correction, correction.pk)
        _check_transition(correction, [Correction.Status.REQUESTED], _("apply the correction"))
        tournament = correction.tournament
        _guard_not_final(tournament, arithmetic=correction.kind == Correction.Kind.ARITHMETIC)
        key = {
            "board": correction.board_number,
            "round": correction.round_number,
            "table": correction.table_number,
            "room": correction.room,
        }
        if correction.is_pulka:
            if seats is not None:
                raise AppealsError(
                    _("The seats of a pulka table are the draw's: only the deal's row is corrected."),
                    code="seats",
                )
            if row is None:
                raise AppealsError(_("Give the corrected row of the deal."), code="nothing")
            _plan(correction, kind=ScoreChange.Kind.ROW, values=row, **key, deal=correction.deal_number)
        elif None in (correction.board_number, correction.round_number, correction.table_number):
            raise AppealsError(_("Say which board, round and table to correct."), code="where")
        elif row is not None:
            _plan(correction, kind=ScoreChange.Kind.ROW, seats=seats or {}, values=row, **key)
        elif seats is not None:
            existing = Result.objects.filter(
                session=correction.session,
                room=correction.room,
                board_number=correction.board_number,
                round_number=correction.round_number,
                table_number=correction.table_number,
            ).first()
            if existing is None:
                raise AppealsError(_("There is no result at that table to correct."), code="no_result")
            facts = _row_facts(existing) or {}
            _plan(
                correction,
                kind=ScoreChange.Kind.RESTORE,
                seats=seats,
                values={**facts, "seats": dict(seats)},
                **key,
            )
        else:
            raise AppealsError(_("Give the corrected protocol row or seats."), code="nothing")
        correction.status = Correction.Status.APPLIED
        correction.decided_at = now
        correction.decided_by = user if getattr(user, "is_authenticated", False) else None
        correction.save()
        _apply_all(correction, user=user, now=now)
        log_action(
            tournament=tournament,
            action="correction.apply",
            user=user,
            obj=correction,
            at=now,
            reason=correction.description,
            data={"correction": correction.pk},
        )
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
        log_action(
            tournament=correction.tournament,
            action="correction.refuse",
            user=user,
            obj=correction,
            at=now,
            reason=reason,
            data={"correction": correction.pk},
        )
    return correction


# --- summaries ---------------------------------------------------------------------------------------------


SCORE_ACTIONS = (
    "result.update",
    "result.delete",
    "result.create",
    "penalty.create",
    "penalty.update",
    "penalty.delete",
)


def changes_for_participant(participant: Participant) -> list[dict[str, Any]]:
    """What changed on a participant's boards and why (result corrections, adjustments, penalties), newest
    first. A change to any row of a board he played changes his matchpoints, so all are listed. At a pulka
    event: every correction of a deal at a table where he sat."""
    tournament = participant.tournament
    if tournament.plays_pulkas:
        return _pulka_changes(participant)
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


def _pulka_changes(participant: Participant) -> list[dict[str, Any]]:
    p = participant
    tables = set(
        PulkaTable.objects.filter(Q(seat_n=p) | Q(seat_e=p) | Q(seat_s=p) | Q(seat_w=p)).values_list(
            "round__number", "number"
        )
    )
    linked = {
        c.audit_entry_id: c
        for c in ScoreChange.objects.filter(
            tournament=p.tournament, audit_entry__isnull=False
        ).select_related("appeal", "irregularity", "correction")
    }
    out: list[dict[str, Any]] = []
    entries = AuditEntry.objects.filter(tournament=p.tournament, action="pulka_deal_corrected")
    for entry in entries.order_by("-at", "-id"):
        data = entry.data or {}
        if (data.get("round"), data.get("table")) not in tables:
            continue
        out.append(
            {
                "entry": entry,
                "at": entry.at,
                "session": None,
                "board": None,
                "deal": data.get("deal"),
                "round": data.get("round"),
                "table": data.get("table"),
                "own": True,
                "action": entry.action,
                "reason": entry.reason,
                "change": linked.get(entry.pk),
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
    guard_open(tournament)
    with transaction.atomic():
        conf = settings_for(tournament)
        before = {
            "filing_minutes": conf.filing_minutes,
            "correction_minutes": tournament.correction_minutes,
            "notice_required": conf.notice_required,
            "online_filing": conf.online_filing,
        }
        conf.filing_minutes, conf.notice_required, conf.online_filing = (
            filing_minutes,
            notice_required,
            online_filing,
        )
        conf.save()
        Tournament.objects.filter(pk=tournament.pk).update(correction_minutes=correction_minutes)
        tournament.correction_minutes = correction_minutes
        after = {
            "filing_minutes": filing_minutes,
            "correction_minutes": correction_minutes,
            "notice_required": notice_required,
            "online_filing": online_filing,
        }
        if after != before:
            log_action(
                tournament=tournament,
                action="appeals.settings",
                user=user,
                obj=conf,
                at=now,
                data={"before": before, "after": after},
            )
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
    guard_open(tournament)
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
        log_action(
            tournament=tournament,
            action="committee.add",
            user=user,
            obj=member,
            at=now,
            data={"member": member.pk, "participant": participant, "chair": is_chair},
        )
    return member


def committee_remove(*, member: CommitteeMember, user: Any, now: dt.datetime) -> None:
    guard_open(member.tournament)
    if AppealMember.objects.filter(member=member).exists():
        raise AppealsError(_("%(name)s has heard an appeal and stays on record.") % {"name": member.name})
    with transaction.atomic():
        log_action(
            tournament=member.tournament,
            action="committee.remove",
            user=user,
            obj=member,
            at=now,
            data={"member": member.pk},
        )
        member.delete()
