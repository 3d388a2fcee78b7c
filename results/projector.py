"""What the playing hall's projector shows, either form, in every state of the event: the event, the round being
played (or the next) with its clock, the results' publication state in words, where everybody sits next, and the
standings once they may be shown.

The states (``Projection.phase``), each with what the hall needs:

* ``preparing`` — no seating yet (a duplicate session without its movement; a pulka event before round 1 is
  drawn): says so;
* ``before`` — the first round seated, not started: the round, and who sits where;
* ``playing`` — a round is being played: the round and its countdown (the director's timer); a duplicate
  session's next round's seats (its last round: the round's own), a pulka round's own tables;
* ``between`` — a round ended, the next not started: the next round and who sits where in it (a pulka event's
  next round not drawn yet: says so);
* ``over`` — play is over (``events.publication.play_finished``): says so.

Read-only and public (no login). What it shows is :mod:`visibility`'s rule for the hall
(``Viewer.projector()``): the seating always (it is posted in the hall); the standings once the results are
published and while no round is being played (rules §12.2.4) — the same rule as the public standings page and
the API; the publication state is the tournament's (``Tournament.publication``), worded as the public results
pages word it. Seats come from the stored seating and the rests helper, never from a recomputed movement.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import asdict, dataclass, field
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

import visibility
from duplicate.rests import session_rests
from duplicate.rounds import pick_round, round_timer
from events.publication import play_finished
from pulkas.models import PulkaEvent, PulkaRound
from pulkas.services.olympic import event_bracket
from pulkas.services.rounds import event_over, is_final
from pulkas.services.standings import event_table
from results.data import load_report
from tournaments.models import Publication, Round, Seating, Session, Tournament
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
    phase: str = "preparing"  # preparing / before / playing / between / over (the module's docstring)
    session: int | None = None
    session_text: str = ""  # «Сессия 2» when the event has more than one session
    rounds_total: int = 0
    round: int | None = None  # the round being played, or the next to play
    round_status: str = ""  # pending / running / ended
    round_text: str = ""  # «Идёт тур 3 из 13» in the request's language
    ends_at: dt.datetime | None = None  # a running round's planned end (the director's timer)
    status: str = Publication.DRAFT  # the results' publication state (rules §13)
    status_text: str = ""  # that state in words, as the public results pages say it
    next_round: int | None = None  # the round whose seats are shown
    seats_title: str = ""  # «Тур 5: кто где сидит»
    tables: list[TableSeats] = field(default_factory=list)
    rests: list[str] = field(default_factory=list)  # «№ 13 Иванов → тур 3: стол 2, позиция W»
    notice: str = (
        ""  # what the hall is told instead of seats: «Рассадки на 3-й тур ещё нет.», «Игра окончена.»
    )
    standings: list[Line] | None = None  # None: not to be shown now
    standings_note: str = ""  # why the standings are not shown now (:mod:`visibility` decides)

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["now"] = self.now.isoformat()
        data["ends_at"] = self.ends_at.isoformat() if self.ends_at else None
        stable = {k: v for k, v in data.items() if k != "now"}
        data["version"] = hashlib.sha1(json.dumps(stable, sort_keys=True, default=str).encode()).hexdigest()[
            :12
        ]
        return data


def status_text(tournament: Tournament) -> str:
    """The results' publication state in the words of the public results pages (``results/base_results.html``);
    official results say until when they may be corrected (shorter than the pages, to fit the hall's screen)."""
    state = tournament.publication
    if state == Publication.PROVISIONAL:
        return _("Provisional results: they may still change.")
    if state == Publication.OFFICIAL:
        ends = tournament.correction_ends_at
        if ends is None:
            return _("Official results: corrections only within the correction period.")
        until = timezone.localtime(ends, tournament.time_zone).strftime("%H:%M")
        return _("Official results.") + " " + _("Corrections until %(t)s.") % {"t": until}
    if state == Publication.FINAL:
        return _("Final results.")
    return _("The results are not published yet.")


def projection(tournament: Tournament, *, now: dt.datetime) -> Projection:
    zone = getattr(tournament.time_zone, "key", str(tournament.time_zone))
    out = Projection(event=tournament.name, zone=zone, now=now)
    if tournament.plays_pulkas:
        _pulka_hall(tournament, out)
    else:
        _duplicate_hall(tournament, out)
    out.status, out.status_text = tournament.publication, status_text(tournament)
    hall = Viewer.projector()
    if visibility.can_see_standings(hall, tournament):
        out.standings = _pulka_standings(tournament) if tournament.plays_pulkas else _standings(tournament)
    elif visibility.published(
        tournament
    ):  # published, yet hidden: a round is being played (visibility's rule)
        out.standings_note = _("The standings are shown between rounds.")
    else:
        out.standings_note = visibility.standings_hidden(hall, tournament)
    return out


# -- a duplicate event ------------------------------------------------------------------------------------------
def _session(sessions: list[Session]) -> Session | None:
    """The session the hall is about: the one being played, else the first still to play, else the last."""
    running = [s for s in sessions if s.status == Session.Status.RUNNING]
    if running:
        return running[0]
    planned = [s for s in sessions if s.status == Session.Status.PLANNED]
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


def _duplicate_hall(tournament: Tournament, out: Projection) -> None:
    """A duplicate session: the round being played (or the next), its clock, the next round's seats and rests."""
    sessions = list(tournament.sessions.order_by("number"))
    session = _session(sessions)
    if session is None:
        out.notice = _("The seating is not ready yet.")
        return
    out.session = session.number
    if len(sessions) > 1:
        out.session_text = _("Session %(n)s") % {"n": session.number}
    rounds = list(session.rounds.order_by("number"))
    out.rounds_total = len(rounds)
    if play_finished(tournament) and session.status == Session.Status.FINISHED:
        out.phase, out.round_text = "over", _("Play is over")
        return
    rnd = pick_round(rounds, None) if session.status != Session.Status.FINISHED else None
    if rnd is None:  # a session without its movement yet
        out.notice = _("The seating is not ready yet.")
        return
    out.round, out.round_status = rnd.number, rnd.status
    out.round_text = _round_text(rnd, out.rounds_total)
    if rnd.status == Round.Status.RUNNING:
        out.phase = "playing"
        timer = round_timer(rnd, tournament)
        out.ends_at = timer.ends_at if timer else None
        # the next round's seats, where the players go at «конец тура»; in the last round, the round's own
        shown = rnd.number + 1 if rnd.number < out.rounds_total else rnd.number
    else:  # pick_round gives an ended round only when none is pending: the session is being ended
        out.phase = "before" if rnd.number == 1 else "between"
        shown = rnd.number if rnd.status == Round.Status.PENDING else None
    if shown is None:
        return
    out.next_round = shown
    out.seats_title = _("Round %(n)s: who sits where") % {"n": shown}
    out.tables = _seats(session, shown)
    out.rests = [
        f"{r.label} → {r.back_text}" if r.back_text else r.label
        for r in session_rests(session).get(shown, [])
    ]


# -- a pulka event (Olympic, compensation, Swiss) -------------------------------------------------------------
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


def _pulka_total(event: PulkaEvent, rnd: PulkaRound, final: bool) -> int | None:
    """How many rounds the event plays: a compensation or Swiss event's setting; an Olympic event's by its bracket
    from the next round on (``None`` where the bracket cannot say)."""
    if event.tournament.form != "olympic":
        return event.rounds
    if final:
        return rnd.number
    number, bracket = event_bracket(event)
    return number - 1 + len(bracket.rounds) if bracket.rounds else None


def _pulka_round_text(rnd: PulkaRound, total: int | None, final: bool) -> str:
    running, pending = rnd.status == PulkaRound.Status.RUNNING, rnd.status == PulkaRound.Status.PENDING
    if final:
        if running:
            return _("The final is being played")
        return _("The final starts soon") if pending else _("The final is over")
    if total is None:
        values: dict[str, Any] = {"n": rnd.number}
        if running:
            return _("Round %(n)s is being played") % values
        return (_("Round %(n)s starts soon") if pending else _("Round %(n)s is over")) % values
    values = {"n": rnd.number, "total": total}
    if running:
        return _("Round %(n)s of %(total)s is being played") % values
    if pending:
        return _("Round %(n)s of %(total)s starts soon") % values
    return _("Round %(n)s of %(total)s is over") % values


def _pulka_hall(tournament: Tournament, out: Projection) -> None:
    """A pulka event: the latest drawn round, its clock while it runs, its tables and byes; between rounds, the
    next round's tables once drawn (else that it is not drawn yet)."""
    rnd = PulkaRound.objects.filter(tournament=tournament).order_by("-number").first()
    if rnd is None:
        out.notice = _("Round %(n)s has not been drawn yet.") % {"n": 1}
        return
    event = PulkaEvent.objects.select_related("tournament").get(tournament=tournament)
    final = is_final(tournament.form, rnd.tables.count(), rnd.byes.count())
    total = _pulka_total(event, rnd, final)
    out.round, out.round_status, out.rounds_total = rnd.number, rnd.status, total or 0
    out.round_text = _pulka_round_text(rnd, total, final)
    if rnd.status == PulkaRound.Status.ENDED:
        if event_over(event, rnd):
            out.phase, out.round_text = "over", _("Play is over")
        else:
            out.phase = "between"
            out.notice = _("Round %(n)s has not been drawn yet.") % {"n": rnd.number + 1}
        return
    if rnd.status == PulkaRound.Status.RUNNING:
        out.phase, out.ends_at = "playing", rnd.ends_at
    else:
        out.phase = "before" if rnd.number == 1 else "between"
    out.next_round = rnd.number
    out.seats_title = (
        _("The final: who sits where") if final else _("Round %(n)s: who sits where") % {"n": rnd.number}
    )
    tables = rnd.tables.select_related("seat_n", "seat_e", "seat_s", "seat_w").order_by("number")
    out.tables = [
        TableSeats(1, t.number, [(seat, p.number, p.name) for seat, p in t.seats().items()])  # type: ignore[attr-defined]
        for t in tables
    ]
    out.rests = [
        f"№ {b.participant.number} {b.participant.name} — {_('bye')}".strip()
        for b in rnd.byes.select_related("participant").order_by("participant__number")
    ]
