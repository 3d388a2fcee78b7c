"""Irregularities and the director's rulings (rules §10–§12); at a pulka event see :mod:`appeals.services.pulka`
(``pulka_irregularity_record``), whose rulings are revised, applied and dismissed here too."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from appeals.models import (
    Irregularity,
    ScoreChange,
)
from appeals.services._common import (
    AppealsError,
    _apply_all,
    _check_transition,
    _guard_not_final,
    _lock,
    _plan_from_proposal,
    deal_seats,
)
from appeals.services._where import guard_form
from appeals.services.pulka import pulka_irregularity_revise
from boards.models import Board as BoardRow
from preferans.cards.deal import BoardError
from preferans.cards.fouled import version_labels
from preferans.duplicate import rulings
from preferans.game.seats import table_seats
from scoring.models import Result
from tournaments.audit import log_action
from tournaments.models import Session

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
    board = row.deal()
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
    from preferans.cards.deal import Seat
    from preferans.cards.deck import parse_card, parse_hand
    from preferans.cards.fouled import PlayedLayout

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
    guard_form(tournament, pulka=False)
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
    """Change the findings (fault, facts, the director's choice of remedy) before the ruling is applied. At a
    pulka event the remedy is ``facts["row"]``, the deal's corrected row (None: the deal stands)."""
    if irregularity.is_pulka:
        facts = facts or {}
        return pulka_irregularity_revise(irregularity=irregularity, row=facts.get("row"), user=user, now=now,
                                         version=facts.get("version"))  # fmt: skip
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
