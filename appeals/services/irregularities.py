"""Irregularities and the director's rulings (rules §10–§12); at a pulka event see :mod:`appeals.services.pulka`
(``pulka_irregularity_record``), whose rulings are revised, applied and dismissed here too."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import translation
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
    raised_percentages,
)
from appeals.services._where import guard_form, rejection_text
from appeals.services.pulka import pulka_irregularity_revise
from appeals.services.ruling_texts import proposal_text
from boards.models import Board as BoardRow
from duplicate.late_boards import LATE_REASON, late_board_record
from preferans.cards.deal import BoardError
from preferans.cards.fouled import version_labels
from preferans.duplicate import rulings
from preferans.game.seats import table_seats
from preferans.numbers import percent_of
from scoring.models import Result
from scoring.row_checks import compute_vists
from scoring.seat_adjustments import percentages
from tournaments.audit import log_action
from tournaments.models import Session
from tournaments.numbers import whole_number
from tournaments.refusals import ResultRejected

# --- irregularities and rulings (§10–§12) ------------------------------------------------------------------


def _played_before(
    session: Session, board: int, round: int, table: int, seats: Mapping[str, int], room: int = 1
) -> list[dict[str, Any]]:
    """Where each participant seated at this table played the same board at another table (rules §11.6 B): his
    seat here, the other row's round, table, room and his seat there (rooms play the same boards)."""
    out: list[dict[str, Any]] = []
    here = {number: seat for seat, number in seats.items()}
    others = (
        Result.objects.filter(session=session, board_number=board)
        .exclude(room=room, round_number=round, table_number=table)
        .filter(
            Q(seat_n__number__in=here)
            | Q(seat_e__number__in=here)
            | Q(seat_s__number__in=here)
            | Q(seat_w__number__in=here)
        )
        .select_related("seat_n", "seat_e", "seat_s", "seat_w")
        .order_by("round_number", "room", "table_number")
    )
    for other in others:
        for seat_there, number in other.seats().items():
            if number in here:
                out.append(
                    {
                        "seat": here[number],
                        "participant": number,
                        "round": other.round_number,
                        "table": other.table_number,
                        "room": other.room,
                        "seat_there": seat_there,
                    }
                )
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
        other_rows = _played_before(
            irregularity.session,
            irregularity.board_number,
            irregularity.round_number,
            irregularity.table_number,
            irregularity.seats,
            irregularity.room,
        )
        facts["other_rows"] = other_rows
        facts["played_before"] = sorted({o["seat"] for o in other_rows}, key=seats.index)
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
        current = (result.vists or {}) if result is not None else None
    irregularity.facts = facts
    return rulings.propose(
        irregularity.kind,
        board=irregularity.board_number,
        seats=seats,
        fault=irregularity.fault,
        facts=facts,
        current_vists=current,
        round=irregularity.round_number,
        percentages=percentages(tournament),
    )


def _check_raised(irregularity: Irregularity) -> None:
    """A non-offender's artificial result above A+ (§11.2 B1 «по меньшей мере 60 %»): only for a seat not at
    fault, at least the tournament's A+, at most 100, and with the reason (it goes on the ruling and the audit)."""
    grades = rulings.grades_by_fault(list(irregularity.seats), irregularity.fault)
    raw = raised_percentages(
        irregularity.tournament,
        irregularity.facts.get("percent"),
        grades=grades,
        seats=list(irregularity.seats),
    )
    if not raw:
        irregularity.facts.pop("percent", None)
        return
    if not str(irregularity.facts.get("percent_reason") or "").strip():
        raise AppealsError(
            _("Say why the non-offender gets more than A+ (e.g. his session percentage is higher)."),
            code="percent_reason",
        )
    irregularity.facts["percent"] = raw


def _check_row(irregularity: Irregularity) -> None:
    """The row as played that a ruling stores (§11.6): checked now by the core, so a wrong row is refused when the
    director enters it, not when the ruling is applied."""
    row = irregularity.facts.get("row")
    if row in (None, {}, ""):
        irregularity.facts.pop("row", None)
        return
    if not isinstance(row, dict):
        raise AppealsError(
            _("The row as played is an object of the row's facts: contract, declarer, w1, w2 …"), code="row"
        )
    board = None
    if irregularity.board_number:
        board = BoardRow.objects.filter(
            session=irregularity.session, number=irregularity.board_number
        ).first()
    try:
        compute_vists(tournament=irregularity.tournament, row=row, dealer=board.dealer if board else None)
    except ResultRejected as exc:
        raise AppealsError(
            _("The row as played is not valid: %(why)s") % {"why": rejection_text(exc)}, code="row"
        ) from exc


def session_percentages(session: Session, numbers: Mapping[str, int]) -> dict[str, Fraction]:
    """Each seated participant's percentage in the session so far (matchpoints over the tops of his rows): the
    value the director may give a non-offender when it is higher than A+ (§11.2 B1 «по меньшей мере 60 %»)."""
    wanted = {number: seat for seat, number in numbers.items()}
    earned: dict[int, list[Fraction]] = {n: [Fraction(0), Fraction(0)] for n in wanted}
    for result in Result.objects.filter(session=session, matchpoints__isnull=False).select_related(
        "seat_n", "seat_e", "seat_s", "seat_w"
    ):
        for seat, number in result.seats().items():
            if number in earned and seat in (result.top or {}):
                earned[number][0] += Fraction(str(result.matchpoints.get(seat, "0")))
                earned[number][1] += Fraction(str(result.top[seat]))
    return {wanted[n]: percent_of(mp, top) for n, (mp, top) in earned.items() if top}


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
                **{
                    k: v
                    for k, v in (("table", c.table), ("round", c.round), ("room", c.room))
                    if v is not None
                },
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
        _check_raised(irregularity)
        _check_row(irregularity)
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
            data={
                "irregularity": irregularity.pk,
                "kind": kind,
                "session": session.number,
                "board": board,
                "round": round,
                "table": table,
                "proposal": irregularity.proposal,
                **{
                    k: irregularity.facts[k]
                    for k in ("percent", "percent_reason", "row")
                    if irregularity.facts.get(k)
                },
            },
        )
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
        return pulka_irregularity_revise(
            irregularity=irregularity, row=facts.get("row"), user=user, now=now, version=facts.get("version")
        )
    with transaction.atomic():
        irregularity = _lock(Irregularity, irregularity.pk)
        _check_transition(irregularity, [Irregularity.Status.RECORDED], _("revise the ruling"))
        if fault is not None:
            irregularity.fault = {k: v for k, v in fault.items() if k in irregularity.seats and v}
        if facts is not None:
            irregularity.facts = {**irregularity.facts, **facts}
        _check_raised(irregularity)
        _check_row(irregularity)
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
                # what the director added: a non-offender above A+ and why (§11.2 B1), the row as played (§11.6)
                **{
                    k: irregularity.facts[k]
                    for k in ("percent", "percent_reason", "row")
                    if irregularity.facts.get(k)
                },
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
        if not ruling:
            with translation.override(irregularity.tournament.language):
                ruling = proposal_text(irregularity.proposal, irregularity.facts)
        irregularity.ruling = ruling
        irregularity.status = Irregularity.Status.APPLIED
        irregularity.decided_at = now
        irregularity.decided_by = user if getattr(user, "is_authenticated", False) else None
        irregularity.save()
        count = _apply_all(irregularity, user=user, now=now)
        _play_later(irregularity, user=user, now=now)
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


def _play_later(irregularity: Irregularity, *, user: Any, now: dt.datetime) -> None:
    """§11.6 А.2 «Судья может потребовать, чтобы позднее все игроки сыграли правильную сдачу друг против друга»:
    a wrong-board ruling that says so, naming the board the table should have played, makes it a board the table
    is to play later (``duplicate.late_boards``), tracked until its row is entered."""
    facts = irregularity.facts or {}
    intended = whole_number(str(facts.get("intended_board") or ""), digits=4)
    if (
        irregularity.kind != Irregularity.Kind.WRONG_BOARD
        or irregularity.session is None
        or not facts.get("play_later")
        or intended is None
        or str((irregularity.proposal or {}).get("code") or "")
        not in {"wrong_board_stands", "wrong_board_stands_enter"}
    ):
        return
    late_board_record(
        session=irregularity.session,
        round=irregularity.round_number,
        table=irregularity.table_number,
        room=irregularity.room,
        board=intended,
        reason=LATE_REASON,
        user=user,
        now=now,
    )


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
