"""Choosing the movement and running the rounds: start, end, the timer and the hand-over instructions."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from duplicate.gaps import round_gaps
from duplicate.movement_errors import movement_refusal
from duplicate.movement_text import plan_text
from duplicate.seating import SeatingError, apply_movement, movement_for
from preferans.movements import (
    BOOK_SCHEMES,
    Movement,
    MovementError,
    Plan,
    build_movement,
    plan,
    table_cards,
)
from tournaments.audit import log_action
from tournaments.errors import UserError
from tournaments.gaps import require_acknowledged
from tournaments.models import Round, Seating, Session, Tournament, TournamentStatus


@dataclass(frozen=True)
class MovementOffer:
    """The planner's suggestion for the registered participants, or why there is none."""

    participants: int
    plan: Plan | None
    spec: dict[str, Any] | None  # the short form to store, when the plan has one
    problem: str = ""  # in the active language
    book_available: bool = False
    code: str = ""  # the problem's stable code
    note: str = ""  # the plan's movement named in the active language
    reasons: tuple[str, ...] = ()  # the planner's reasons in the active language
    alternatives: tuple[str, ...] = ()  # the other plans it considered, in the active language


def _short_spec(m: Movement, *, per_table: int, deals: int) -> dict[str, Any] | None:
    """The bundle's short form of a movement (basic/book), when it rebuilds exactly this movement."""
    candidates: list[dict[str, Any]] = []
    if m.scheme == "book":
        candidates.append({"scheme": "book", "participants": m.participants})
    candidates.append({"scheme": "basic", "tables": m.tables})
    if m.rooms > 1:
        candidates.append({"scheme": "basic", "tables": m.tables, "rooms": m.rooms})
    for spec in list(candidates):
        candidates.append({**spec, "rounds": len(m.rounds)})
    for spec in candidates:
        try:
            if build_movement(spec, per_table=per_table, deals_per_set=deals) == m:
                return spec
        except MovementError:
            continue
    return None


def _first_gaps(numbers: list[int], limit: int) -> list[int]:
    """The first ``limit`` numbers missing from 1…max(numbers) (``numbers`` sorted, distinct)."""
    gaps: list[int] = []
    expected = 1
    for n in numbers:
        while expected < n and len(gaps) < limit:
            gaps.append(expected)
            expected += 1
        if len(gaps) >= limit:
            break
        expected = n + 1
    return gaps


def registered_count(tournament: Tournament) -> int:
    """N when participants 1…N are registered without gaps; raises UserError otherwise."""
    numbers = sorted(tournament.participants.values_list("number", flat=True))
    if not numbers:
        raise UserError(_("Register the participants first."))
    gaps = _first_gaps(numbers, 11)  # never the whole range 1…max: a huge number must not build one
    if gaps:
        shown = ", ".join(map(str, gaps[:10])) + ("…" if len(gaps) > 10 else "")
        raise UserError(
            _("A movement seats participants 1…N without gaps; these numbers are missing: %(numbers)s.")
            % {"numbers": shown}
        )
    return numbers[-1]


def movement_offer(tournament: Tournament, *, rounds: int | None = None) -> MovementOffer:
    try:
        n = registered_count(tournament)
    except UserError as exc:
        return MovementOffer(0, None, None, exc.message, code=exc.code)
    per_table, deals = tournament.players_per_table, tournament.deals_per_set
    try:
        p = plan(n, per_table=per_table, rounds=rounds, deals_per_set=deals)
    except MovementError as exc:
        refusal = movement_refusal(exc)
        return MovementOffer(
            n, None, None, refusal.message, n in BOOK_SCHEMES and per_table == 4, code=refusal.code
        )
    spec = _short_spec(p.movement, per_table=per_table, deals=deals)
    text = plan_text(p)
    return MovementOffer(
        n,
        p,
        spec,
        "",
        n in BOOK_SCHEMES and per_table == 4,
        note=text.note,
        reasons=text.reasons,
        alternatives=text.alternatives,
    )


def _started(session: Session) -> bool:
    return session.rounds.exclude(status=Round.Status.PENDING).exists()


@transaction.atomic
def movement_choose(
    *,
    now: dt.datetime,
    session: Session,
    user: Any,
    spec: dict[str, Any] | None = None,
    movement: Movement | None = None,
) -> Movement:
    """Seat the session by a movement: a short form (``spec``: basic/book) or a planned ``movement``."""
    tournament = session.tournament
    tournament.ensure_not_locked()
    if _started(session):
        raise UserError(_("Play has started in this session: its movement can no longer change."))
    n = registered_count(tournament)
    if movement is None:
        if spec is None:
            raise ValueError("give spec or movement")
        movement = movement_for(session, spec)  # SeatingError (a UserError) in the request's language
    if movement.participants != n:
        raise UserError(
            ngettext(
                "This movement seats %(m)s participant, but %(n)s are registered.",
                "This movement seats %(m)s participants, but %(n)s are registered.",
                movement.participants,
            )
            % {"m": movement.participants, "n": n},
            code="movement_participants",
        )
    apply_movement(session=session, movement=movement, spec=spec, user=user, now=now)
    return movement


def session_movement(session: Session) -> Movement | None:
    if not session.movement:
        return None
    try:
        return movement_for(session, session.movement)
    except SeatingError:
        return None


@dataclass(frozen=True)
class RoundTimer:
    started_at: dt.datetime
    ends_at: dt.datetime
    minutes: int

    def remaining(self, now: dt.datetime) -> dt.timedelta:
        return self.ends_at - now

    def overdue(self, now: dt.datetime) -> bool:
        return now >= self.ends_at


def round_timer(rnd: Round, tournament: Tournament) -> RoundTimer | None:
    """End of a started round: started_at + minutes per deal × deals per set (rules §4: 5 minutes a deal)."""
    if rnd.started_at is None:
        return None
    minutes = tournament.minutes_per_deal * tournament.deals_per_set
    return RoundTimer(rnd.started_at, rnd.started_at + dt.timedelta(minutes=minutes), minutes)


@transaction.atomic
def round_start(*, rnd: Round, user: Any, now: dt.datetime) -> Round:
    """«Начало тура!»: rounds start in order, one at a time."""
    session = rnd.session
    tournament = session.tournament
    tournament.ensure_not_locked()
    rnd = Round.objects.select_for_update().get(pk=rnd.pk)
    if rnd.status != Round.Status.PENDING:
        raise UserError(_("Round %(n)s has already been started.") % {"n": rnd.number})
    running = session.rounds.filter(status=Round.Status.RUNNING).first()
    if running is not None:
        raise UserError(_("End round %(n)s first.") % {"n": running.number})
    earlier = session.rounds.filter(number__lt=rnd.number).exclude(status=Round.Status.ENDED)
    if earlier.exists():
        raise UserError(
            _("Rounds are played in order: round %(n)s comes first.") % {"n": earlier.first().number}
        )
    rnd.status, rnd.started_at = Round.Status.RUNNING, now
    try:
        with transaction.atomic():
            rnd.save(update_fields=["status", "started_at"])
    except IntegrityError as exc:  # another director started a round at the same moment
        raise UserError(_("Another round was started meanwhile; reload the page.")) from exc
    if session.status == Session.Status.PLANNED:
        Session.objects.filter(pk=session.pk).update(status=Session.Status.RUNNING)
    if tournament.status == TournamentStatus.SETUP:
        Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.RUNNING)
    log_action(
        tournament=tournament,
        action="round.start",
        user=user,
        obj=rnd,
        at=now,
        data={"session": session.number, "round": rnd.number},
    )
    return rnd


@transaction.atomic
def round_end(*, rnd: Round, user: Any, now: dt.datetime, acknowledged: str = "") -> Round:
    """«Конец тура»: the round's sets go on (see ``handover``); after the last round the session ends.

    With results missing, unconfirmed or disputed in the round (``gaps.round_gaps``) it ends only when
    ``acknowledged`` is the token of exactly those gaps: the director has seen them and ends the round anyway.
    """
    session = rnd.session
    tournament = session.tournament
    tournament.ensure_not_locked()
    rnd = Round.objects.select_for_update().get(pk=rnd.pk)
    if rnd.status != Round.Status.RUNNING:
        raise UserError(_("Round %(n)s is not running.") % {"n": rnd.number})
    gaps = round_gaps(rnd)
    require_acknowledged(gaps, acknowledged, refusal=_("Round %(n)s is not complete") % {"n": rnd.number})
    rnd.status, rnd.ended_at = Round.Status.ENDED, max(now, rnd.started_at)
    rnd.save(update_fields=["status", "ended_at"])
    if not session.rounds.exclude(status=Round.Status.ENDED).exists():
        Session.objects.filter(pk=session.pk).update(status=Session.Status.FINISHED, ended_at=now)
        if not tournament.sessions.exclude(status=Session.Status.FINISHED).exists():
            Tournament.objects.filter(pk=tournament.pk).update(status=TournamentStatus.FINISHED)
    data = {"session": session.number, "round": rnd.number}
    if gaps:
        data |= gaps.counts()
    log_action(tournament=tournament, action="round.end", user=user, obj=rnd, at=now, data=data)
    return rnd


@dataclass(frozen=True)
class TableHandover:
    """What one table does at «конец тура»: where N takes the set, and where each player goes."""

    room: int
    table: int
    set: int
    set_to: tuple[int, ...]  # tables that play this set next round (empty: back to the director's row)
    row_place: int | None  # the place of the director's row the set came from
    moves: tuple[str, ...]  # «3S–2W», «1N stays», «3S–P»


def handover(session: Session, round_number: int) -> list[TableHandover]:
    """The instructions for the end of ``round_number``: sets (rules §4) and players (the table cards, §5)."""
    seatings = list(
        Seating.objects.filter(session=session, round_number__in=[round_number, round_number + 1])
    )
    now = [s for s in seatings if s.round_number == round_number]
    nxt: dict[tuple[int, int], list[int]] = defaultdict(list)
    for s in seatings:
        if s.round_number == round_number + 1:
            nxt[(s.room, s.set_number)].append(s.table_number)
    cards: dict[tuple[int, int], Any] = {}
    movement = session_movement(session)
    if movement is not None:
        for card in table_cards(movement):
            for entry in card.rounds:
                if entry.round == round_number:
                    cards[(card.room, card.table)] = entry
    out = []
    for s in sorted(now, key=lambda s: (s.room, s.table_number)):
        entry = cards.get((s.room, s.table_number))
        out.append(
            TableHandover(
                room=s.room,
                table=s.table_number,
                set=s.set_number,
                set_to=tuple(sorted(nxt.get((s.room, s.set_number), []))),
                row_place=entry.place if entry else None,
                moves=tuple(entry.moves) if entry else (),
            )
        )
    return out


def pick_round(rounds: list[Round], number: int | None) -> Round | None:
    if number is not None:
        return next((r for r in rounds if r.number == number), None)
    running = next((r for r in rounds if r.status == Round.Status.RUNNING), None)
    if running:
        return running
    # Between rounds the next one is what matters; late protocols of earlier rounds show as alerts.
    pending = [r for r in rounds if r.status == Round.Status.PENDING]
    return pending[0] if pending else (rounds[-1] if rounds else None)
