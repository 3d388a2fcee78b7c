"""What the playing hall's projector shows, either form: the event, the current round and its clock, where
everybody sits (a duplicate session's next round with who rests; a pulka event's latest drawn round with its
byes), and the standings once they may be shown.

Read-only and public (no login). What it shows is :mod:`visibility`'s rule for the hall
(``Viewer.projector()``): the seating always (it is posted in the hall); the standings once the results are
published and while no round is being played (rules §12.2.4) — the same rule as the public standings page and
the API. Seats come from the stored seating and the rests helper, never from a recomputed movement.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import asdict, dataclass, field
from typing import Any

from django.utils.translation import gettext as _

import visibility
from duplicate.rests import session_rests
from duplicate.rounds import pick_round, round_timer
from pulkas.models import PulkaRound
from pulkas.services.standings import event_table
from results.data import load_report
from tournaments.models import Round, Seating, Session, Tournament
from ui.templatetags.scores import vists_text
from visibility import Viewer

REFRESH_SECONDS = 15


@dataclass(frozen=True)
class TableSeats:
    room: int
    table: int
    seats: list[tuple[str, int, str]]  # (seat, number, name)


@dataclass(frozen=True)
class Line:
    place: str
    number: int
    name: str
    percent: str  # a duplicate event's percentage ("" at a pulka event)
    score: str = ""  # a pulka event's total as shown (compensation, Swiss; "" at the Olympic form)


@dataclass
class Projection:
    event: str
    zone: str  # the event's IANA time zone, for the wall clock
    now: dt.datetime
    session: int | None = None
    rounds_total: int = 0
    round: int | None = None  # the round being played, or the next to play
    round_status: str = ""  # pending / running / ended
    round_text: str = ""  # «Тур 3 из 13 идёт» in the request's language
    ends_at: dt.datetime | None = None  # a running round's planned end (the director's timer)
    next_round: int | None = None  # the round whose seats are shown
    tables: list[TableSeats] = field(default_factory=list)
    rests: list[str] = field(default_factory=list)  # «№ 13 Иванов → тур 3: стол 2, позиция W»
    standings: list[Line] | None = None  # None: not to be shown now

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["now"] = self.now.isoformat()
        data["ends_at"] = self.ends_at.isoformat() if self.ends_at else None
        stable = {k: v for k, v in data.items() if k != "now"}
        data["version"] = hashlib.sha1(json.dumps(stable, sort_keys=True, default=str).encode()).hexdigest()[
            :12
        ]
        return data


def _session(tournament: Tournament) -> Session | None:
    sessions = list(tournament.sessions.order_by("number"))
    running = [s for s in sessions if s.status == Session.Status.RUNNING]
    if running:
        return running[0]
    planned = [s for s in sessions if s.status == Session.Status.PLANNED and s.rounds.exists()]
    return planned[0] if planned else (sessions[-1] if sessions else None)


def _round_text(rnd: Round, total: int) -> str:
    values = {"n": rnd.number, "total": total}
    if rnd.status == Round.Status.RUNNING:
        return _("Round %(n)s of %(total)s is being played") % values
    if rnd.status == Round.Status.PENDING:
        return _("Round %(n)s of %(total)s starts soon") % values
    return _("Round %(n)s of %(total)s is over") % values


def _seats(session: Session, number: int) -> list[TableSeats]:
    rows = Seating.objects.filter(session=session, round_number=number).select_related(
        "seat_n", "seat_e", "seat_s", "seat_w"
    )
    return [
        TableSeats(s.room, s.table_number, [(seat, p.number, p.name) for seat, p in s.seats().items()])
        for s in rows.order_by("room", "table_number")
    ]


def _standings(tournament: Tournament) -> list[Line]:
    report = load_report(tournament.pk)
    return [
        Line(st.rank or _("disq."), st.participant, report.person(st.participant).name, st.percent)
        for st in report.standings
    ]


def _pulka_standings(tournament: Tournament) -> list[Line]:
    """The pulka event table (``pulkas.services.standings``): its places, and the total but at the Olympic form."""
    olympic = tournament.form == "olympic"
    return [
        Line(
            line.place,
            line.participant.number,
            line.participant.name,
            "",
            "" if olympic else vists_text(line.total),
        )
        for line in event_table(tournament).lines
    ]


def projection(tournament: Tournament, *, now: dt.datetime) -> Projection:
    zone = getattr(tournament.time_zone, "key", str(tournament.time_zone))
    out = Projection(event=tournament.name, zone=zone, now=now)
    if tournament.plays_pulkas:
        _pulka_hall(tournament, out)
    else:
        _duplicate_hall(tournament, out)
    if visibility.can_see_standings(Viewer.projector(), tournament):
        out.standings = _pulka_standings(tournament) if tournament.plays_pulkas else _standings(tournament)
    return out


def _duplicate_hall(tournament: Tournament, out: Projection) -> None:
    """A duplicate session: the round being played (or the next), its clock, the next round's seats and rests."""
    session = _session(tournament)
    rnd = None
    if session is not None:
        rounds = list(session.rounds.order_by("number"))
        out.session, out.rounds_total = session.number, len(rounds)
        if session.status != Session.Status.FINISHED:  # a finished session has no round to play
            rnd = pick_round(rounds, None)
    if session is None or rnd is None:
        return
    out.round, out.round_status = rnd.number, rnd.status
    out.round_text = _round_text(rnd, out.rounds_total)
    if rnd.status == Round.Status.RUNNING:
        timer = round_timer(rnd, tournament)
        out.ends_at = timer.ends_at if timer else None
        upcoming = rnd.number + 1 if rnd.number < out.rounds_total else None
    else:
        upcoming = rnd.number if rnd.status == Round.Status.PENDING else None
    if upcoming is not None:
        out.next_round = upcoming
        out.tables = _seats(session, upcoming)
        out.rests = [
            f"{r.label} → {r.back_text}" if r.back_text else r.label
            for r in session_rests(session).get(upcoming, [])
        ]


def _pulka_round_text(rnd: PulkaRound) -> str:
    values = {"n": rnd.number}
    if rnd.status == PulkaRound.Status.RUNNING:
        return _("Round %(n)s is being played") % values
    if rnd.status == PulkaRound.Status.PENDING:
        return _("Round %(n)s starts soon") % values
    return _("Round %(n)s is over") % values


def _pulka_hall(tournament: Tournament, out: Projection) -> None:
    """A pulka event: the latest drawn round, its clock while it runs, its tables and byes."""
    rnd = PulkaRound.objects.filter(tournament=tournament).order_by("-number").first()
    if rnd is None:
        return
    out.round, out.round_status = rnd.number, rnd.status
    out.round_text = _pulka_round_text(rnd)
    if rnd.status == PulkaRound.Status.RUNNING:
        out.ends_at = rnd.ends_at
    if rnd.status == PulkaRound.Status.ENDED:
        return  # the next round is not drawn yet: nobody to seat
    out.next_round = rnd.number
    tables = rnd.tables.select_related("seat_n", "seat_e", "seat_s", "seat_w").order_by("number")
    out.tables = [
        TableSeats(1, t.number, [(seat, p.number, p.name) for seat, p in t.seats().items()])  # type: ignore[attr-defined]
        for t in tables
    ]
    out.rests = [
        f"№ {b.participant.number} {b.participant.name} — {_('bye')}".strip()
        for b in rnd.byes.select_related("participant").order_by("participant__number")
    ]
