"""Procedural penalties (rules §12): matchpoints taken from a participant's session total.

The one write path for penalties, with every rule of a penalty: the director's pages, the API and the appeals
committee all come here. A penalty takes matchpoints away (a negative number, §12), says why, names a
participant of the tournament, and is given only while scores may change. The sign rule itself is the core's
(:mod:`preferans.duplicate.penalties`); how many matchpoints an offence costs is the organisers' choice (§12
gives no values).
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from preferans.duplicate.penalties import OFFENCES, PenaltyRefusal, parse_penalty
from preferans.numbers import format_fraction
from scoring.models import Penalty
from scoring.rescore import mark_changed
from scoring.withdraw import withdraw
from tournaments.audit import log_action
from tournaments.errors import Detail, UserError
from tournaments.models import Participant, Session

MAX_REASON = 300
# The procedural offences of rules §12.2 a penalty is given for.
PENALTY_RULES = OFFENCES


def penalty_value(matchpoints: object) -> Fraction:
    """The penalty's matchpoints, checked by the core's one rule (:func:`preferans.duplicate.penalties.parse_penalty`):
    an exact number below zero («-2», «-1/2», «-1,5»). A refusal is translated here, by its code."""
    try:
        return parse_penalty(matchpoints)
    except PenaltyRefusal as exc:
        if exc.code == "penalty_value":
            raise UserError(
                _("Write the penalty as a number of matchpoints, e.g. -2 or -1/2."),
                code="penalty_value",
                details=[Detail("matchpoints", "penalty_value", _("Not a number of matchpoints."))],
            ) from exc
        raise UserError(
            _("A penalty takes matchpoints away: write a negative number, e.g. -2 (rules §12)."),
            code="penalty_sign",
            details=[
                Detail("matchpoints", "penalty_sign", _("A penalty is a negative number of matchpoints."))
            ],
        ) from exc


def penalty_save(
    *,
    session: Session,
    participant: Participant,
    matchpoints: str,
    reason: str,
    now: dt.datetime,
    penalty: Penalty | None = None,
    user: Any = None,
    actor: str = "",
    arithmetic: bool = False,
) -> Penalty:
    """Give (or change) a procedural penalty in matchpoints; audited; the standings are recomputed.

    The one write path for penalties: the director's pages, the API and the appeals committee all come here.
    """
    session.tournament.ensure_scores_open(arithmetic=arithmetic)
    value = format_fraction(penalty_value(matchpoints))
    reason = reason.strip()[:MAX_REASON]
    if not reason:
        raise UserError(
            _("Give the reason for the penalty (rules §12.2)."),
            code="reason_missing",
            details=[Detail("reason", "reason_missing", _("Give the reason for the penalty (rules §12.2)."))],
        )
    if participant.tournament_id != session.tournament_id:
        raise UserError(_("This participant is not in this tournament."), code="participant_unknown")
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
            tournament=session.tournament,
            action=action,
            user=user,
            actor=actor,
            obj=penalty,
            at=now,
            reason=reason,
            data={
                "session": session.number,
                "participant": participant.number,
                "matchpoints": value,
                "before": before,
                "after": _penalty_facts(penalty),
            },
        )
        mark_changed(session, now=now)
    return penalty


def penalty_delete(
    *,
    penalty: Penalty,
    now: dt.datetime,
    user: Any = None,
    actor: str = "",
    reason: str = "",
    arithmetic: bool = False,
) -> None:
    """Withdraw a penalty (it says why; audited; the standings are recomputed)."""
    facts = _penalty_facts(penalty)
    withdraw(
        penalty,
        session=penalty.session,
        action="penalty.delete",
        reason=reason,
        now=now,
        user=user,
        actor=actor,
        arithmetic=arithmetic,
        reason_missing=_("Say why the penalty is withdrawn."),
        data={"participant": facts["participant"], "matchpoints": facts["matchpoints"], "before": facts},
    )


def _penalty_facts(penalty: Penalty) -> dict[str, Any]:
    return {
        "participant": penalty.participant.number,
        "matchpoints": penalty.matchpoints,
        "reason": penalty.reason,
    }
