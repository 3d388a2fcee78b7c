"""Suspension and disqualification of a participant (rules §13.2.4), the one write path for both.

§13.2.4, the director's duties and powers: «поддерживая порядок и дисциплину, налагать дисциплинарные наказания в
очках или отстранять участника от игры в текущей сессии или любой её части (решение судьи по этому вопросу
окончательно); при наличии соответствующей причины дисквалифицировать участника с одобрения турнирного комитета
или ОТ». Penalties in points are :mod:`scoring.penalties`; this module records the other two measures, with the
reason, audited, and rescored:

* a **suspension** names a session and, optionally, its rounds; the participant does not play them. The
  standings change by themselves: he has no board-lines for those rounds, so neither his matchpoints nor his
  maximum count them. The rows of his table in those rounds are the director's to settle (artificial results,
  §11.2) — nothing is invented here.
* a **disqualification** needs the approval of the tournament committee or the organisers (who approved is
  recorded); the participant takes no place in the standings (the others are ranked without him) and is listed
  last, marked. His results and his opponents' stand as played: the book annuls nothing for it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.rescore import mark_changed
from tournaments.audit import log_action
from tournaments.errors import Detail, UserError
from tournaments.models import Participant, Round, Sanction, Session, Tournament

MAX_REASON = 300


def _reason(reason: str) -> str:
    reason = reason.strip()[:MAX_REASON]
    if not reason:
        message = _("Give the reason (rules §13.2.4).")
        raise UserError(message, code="reason_missing", details=[Detail("reason", "reason_missing", message)])
    return reason


def _check(tournament: Tournament, participant: Participant) -> None:
    tournament.ensure_scores_open()
    if participant.tournament_id != tournament.pk:
        raise UserError(_("This participant is not in this tournament."), code="participant_unknown")


def _rescore(tournament: Tournament, now: dt.datetime, session: Session | None = None) -> None:
    session = session or tournament.sessions.order_by("-number").first()
    if session is not None:
        mark_changed(session, now=now)


def suspend(
    *,
    tournament: Tournament,
    participant: Participant,
    session: Session,
    first_round: int | None,
    last_round: int | None,
    reason: str,
    user: Any,
    now: dt.datetime,
) -> Sanction:
    """Suspend a participant from play in a session or some of its rounds (§13.2.4; the decision is final)."""
    _check(tournament, participant)
    reason = _reason(reason)
    if session.tournament_id != tournament.pk:
        raise UserError(_("No such session."), code="session_unknown")
    rounds = Round.objects.filter(session=session).count()
    first, last = first_round, last_round
    wrong = (
        (first is not None and first < 1)
        or (last is not None and last < 1)
        or (first is not None and last is not None and first > last)
        or (rounds and any(r is not None and r > rounds for r in (first, last)))
    )
    if wrong:
        message = _("Give the rounds as from … to, within the session's %(n)s rounds.") % {"n": rounds or "—"}
        raise UserError(message, code="rounds", details=[Detail("first_round", "rounds", message)])
    with transaction.atomic():
        sanction = Sanction.objects.create(
            tournament=tournament,
            participant=participant,
            kind=Sanction.Kind.SUSPENSION,
            session=session,
            first_round=first,
            last_round=last,
            reason=reason,
            at=now,
        )
        log_action(
            tournament=tournament,
            action="participant.suspend",
            user=user,
            obj=sanction,
            at=now,
            reason=reason,
            data={
                "participant": participant.number,
                "session": session.number,
                "first_round": first,
                "last_round": last,
            },
        )
        _rescore(tournament, now, session)
    return sanction


def disqualify(
    *,
    tournament: Tournament,
    participant: Participant,
    reason: str,
    approved_by: str,
    user: Any,
    now: dt.datetime,
) -> Sanction:
    """Disqualify a participant, with the approval of the tournament committee or the organisers (§13.2.4)."""
    _check(tournament, participant)
    reason = _reason(reason)
    approved_by = approved_by.strip()[:200]
    if not approved_by:
        message = _(
            "A disqualification needs the approval of the tournament committee or the organisers: say whose."
        )
        raise UserError(
            message, code="approval_missing", details=[Detail("approved_by", "approval_missing", message)]
        )
    if Sanction.objects.filter(participant=participant, kind=Sanction.Kind.DISQUALIFICATION).exists():
        raise UserError(_("This participant is already disqualified."), code="already_disqualified")
    with transaction.atomic():
        sanction = Sanction.objects.create(
            tournament=tournament,
            participant=participant,
            kind=Sanction.Kind.DISQUALIFICATION,
            reason=reason,
            approved_by=approved_by,
            at=now,
        )
        log_action(
            tournament=tournament,
            action="participant.disqualify",
            user=user,
            obj=sanction,
            at=now,
            reason=reason,
            data={"participant": participant.number, "approved_by": approved_by},
        )
        _rescore(tournament, now)
    return sanction


def sanction_withdraw(*, sanction: Sanction, reason: str, user: Any, now: dt.datetime) -> None:
    """Withdraw a suspension or a disqualification recorded in error (it says why; audited; rescored)."""
    tournament = sanction.tournament
    tournament.ensure_scores_open()
    reason = _reason(reason)
    with transaction.atomic():
        log_action(
            tournament=tournament,
            action="sanction.withdraw",
            user=user,
            obj=sanction,
            at=now,
            reason=reason,
            data={
                "participant": sanction.participant.number,
                "kind": sanction.kind,
                "session": sanction.session.number if sanction.session else None,
                "first_round": sanction.first_round,
                "last_round": sanction.last_round,
                "approved_by": sanction.approved_by,
                "reason": sanction.reason,
            },
        )
        session = sanction.session
        sanction.delete()
        _rescore(tournament, now, session)
