"""What the director's dashboard shows: each table's state in a round, alerts, and the next thing to do.

Read-only: plain data for the template, computed from the stored facts.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from boards.models import Board
from director.dashboard_partials import partial_alerts
from duplicate.missing_rows import MissingRow, missing_rows
from duplicate.rests import Resting, session_rests
from duplicate.rounds import RoundTimer, pick_round, round_timer
from duplicate.session_facts import SessionFacts
from scoring.models import Result
from scoring.rescore import rescore_not_taken
from tournaments.models import Publication, Round, Session, Table, Tournament
from tournaments.numbers import list_count
from tournaments.pins import PinStrikes, pin_locks


@dataclass(frozen=True)
class TableProgress:
    room: int
    table: int
    code: str
    set: int
    seats: dict[str, Any]
    boards: tuple[int, ...]
    entered: tuple[int, ...]
    missing: tuple[int, ...]
    disputed: tuple[int, ...]
    unconfirmed: tuple[int, ...]
    duplicating: bool = False  # §2: the table only duplicates its boards in this round, no row expected

    @property
    def state(self) -> str:
        if self.duplicating:
            return "duplicating"
        if self.disputed:
            return "disputed"
        if not self.missing:
            return "unconfirmed" if self.unconfirmed else "complete"
        return "partial" if self.entered else "empty"


@dataclass(frozen=True)
class Alert:
    level: str  # "error" | "warning" | "info"
    text: str
    link: str = ""  # where to fix it: a query string of the dashboard («?round=2») or the page of the row
    details: tuple[str, ...] = ()  # a disputed row: who disputed it and what he said, one line per player
    action: str = ""  # a button that fixes it: the URL it POSTs to (with next=dashboard), and its label
    action_label: str = ""


def dispute_lines(result: Result) -> tuple[str, ...]:
    """The players' disputes of a row in words: «E — 7. Petrov: the declarer took 7 tricks», one per line.

    A line is stored as «SEAT: what he said» (``scoring.confirmation.result_dispute``)."""
    seats = {"N": result.seat_n, "E": result.seat_e, "S": result.seat_s, "W": result.seat_w}
    out = []
    for line in result.dispute.splitlines():
        seat, sep, said = line.partition(": ")
        player = seats.get(seat) if sep else None
        if player is None:
            out.append(line)
        else:
            out.append(f"{seat} — {player}: {said or '—'}")
    return tuple(out)


@dataclass
class Overview:
    session: Session
    round: Round | None
    rounds: list[Round]
    tables: list[TableProgress] = field(default_factory=list)
    timer: RoundTimer | None = None
    alerts: list[Alert] = field(default_factory=list)
    next_step: str = ""
    next_action: str = ""  # "participants" | "movement" | "start" | "end" | "enter" | "publish" | "lock" | ""
    # Who sits out the shown round, and where he comes back.
    resting: list[Resting] = field(default_factory=list)
    # The standings: "current", "pending" (a change waits for its rescore) or "none" (nothing to score yet).
    standings: str = "none"
    # Rows missing once their round ended, each with its proposed assigned result (general provisions).
    proposals: list[MissingRow] = field(default_factory=list)
    # Participants whose PIN is locked after too many wrong guesses (tournaments.pins): the director clears them.
    pin_locks: list[PinStrikes] = field(default_factory=list)

    @property
    def entered(self) -> int:
        return sum(len(t.entered) for t in self.tables)

    @property
    def expected(self) -> int:
        return sum(len(t.boards) for t in self.tables)


def _missing_by_round(facts: SessionFacts, numbers: list[int]) -> dict[int, int]:
    """How many results each of these rounds lacks (boards its tables should have played, less the rows
    entered), from the session's facts read once."""
    wanted = set(numbers)
    expected: Counter[int] = Counter()
    for s in facts.seatings:
        if s.round_number in wanted and not s.duplicates_only:
            expected[s.round_number] += len(facts.boards_of.get(s.set_number, []))
    entered = Counter(r.round for r in facts.rows if r.round in wanted)
    return {n: max(0, expected[n] - entered[n]) for n in numbers}


def table_states(
    session: Session, round_number: int, facts: SessionFacts | None = None
) -> list[TableProgress]:
    facts = facts or SessionFacts(session)
    seatings = sorted(
        (s for s in facts.seatings if s.round_number == round_number), key=lambda s: (s.room, s.table_number)
    )
    codes = {(t.room, t.number): t.code for t in Table.objects.filter(session=session)}
    results: dict[tuple[int, int], list[tuple[int, str]]] = defaultdict(list)
    for r in facts.rows:
        if r.round == round_number:
            results[(r.room, r.table)].append((r.board, r.status))
    out = []
    for s in seatings:
        boards = () if s.duplicates_only else tuple(facts.boards_of.get(s.set_number, []))
        rows = results.get((s.room, s.table_number), [])
        entered = tuple(sorted(b for b, _ in rows))
        out.append(
            TableProgress(
                room=s.room,
                table=s.table_number,
                code=codes.get((s.room, s.table_number), ""),
                set=s.set_number,
                seats=s.seats(),
                boards=boards,
                entered=entered,
                missing=tuple(b for b in boards if b not in entered),
                disputed=tuple(sorted(b for b, st in rows if st == Result.Status.DISPUTED)),
                unconfirmed=tuple(sorted(b for b, st in rows if st == Result.Status.ENTERED)),
                duplicating=s.duplicates_only,
            )
        )
    return out


def _missing_tables(tables: list[TableProgress]) -> str:
    """The tables still missing results: «1, 4», or room by room when there are rooms («room 1: 3; room 2: 1»)."""
    by_room: dict[int, list[str]] = defaultdict(list)
    for t in tables:
        if t.missing:
            by_room[t.room].append(str(t.table))
    if set(by_room) <= {1} and all(t.room == 1 for t in tables):
        return ", ".join(by_room.get(1, []))
    return "; ".join(
        _("room %(room)s: %(tables)s") % {"room": room, "tables": ", ".join(numbers)}
        for room, numbers in sorted(by_room.items())
    )


def overview(
    tournament: Tournament, session: Session, *, round_number: int | None = None, now: dt.datetime
) -> Overview:
    rounds = list(session.rounds.order_by("number"))
    rnd = pick_round(rounds, round_number)
    ov = Overview(session=session, round=rnd, rounds=rounds)
    facts = SessionFacts(session)  # read once for every section below
    if rnd is not None:
        ov.tables = table_states(session, rnd.number, facts)
        ov.timer = round_timer(rnd, tournament)
        ov.resting = session_rests(session).get(rnd.number, [])
    ov.proposals = missing_rows(session, facts)
    ov.pin_locks = pin_locks(tournament)
    _alerts(tournament, session, ov, now, facts)
    _next(tournament, session, ov, now, round_number)
    return ov


def _alerts(
    tournament: Tournament, session: Session, ov: Overview, now: dt.datetime, facts: SessionFacts
) -> None:
    disputed = list(
        Result.objects.filter(session=session, status=Result.Status.DISPUTED)
        .select_related("seat_n", "seat_e", "seat_s", "seat_w")
        .order_by("round_number", "room", "table_number", "board_number")
    )
    for r in disputed:
        if r.room > 1:
            text = _("Disputed: board %(b)s at table %(t)s of room %(room)s, round %(r)s.") % {
                "b": r.board_number,
                "t": r.table_number,
                "room": r.room,
                "r": r.round_number,
            }
        else:
            text = _("Disputed: board %(b)s at table %(t)s, round %(r)s.") % {
                "b": r.board_number,
                "t": r.table_number,
                "r": r.round_number,
            }
        page = reverse(
            "director:table_round",
            kwargs={
                "slug": tournament.slug,
                "session": session.number,
                "round": r.round_number,
                "table": r.table_number,
            },
        )
        room = f"?room={r.room}" if r.room > 1 else ""
        ov.alerts.append(
            Alert("error", text, link=f"{page}{room}#board-{r.board_number}", details=dispute_lines(r))
        )
    rnd = ov.round
    if rnd is not None and rnd.status == Round.Status.RUNNING and ov.timer and ov.timer.overdue(now):
        ov.alerts.append(Alert("warning", _("Time is up for round %(n)s.") % {"n": rnd.number}))
    ended = [
        r.number
        for r in ov.rounds
        if r.status == Round.Status.ENDED and (rnd is None or r.number != rnd.number)
    ]
    for number, missing in _missing_by_round(facts, ended).items():
        if missing:
            ov.alerts.append(
                Alert(
                    "warning",
                    ngettext(
                        "Round %(r)s has ended with %(n)s result missing.",
                        "Round %(r)s has ended with %(n)s results missing.",
                        missing,
                    )
                    % {"r": number, "n": missing},
                    link=f"?round={number}",
                )
            )
    ov.alerts.extend(
        Alert(level, text, link=link) for level, text, link in partial_alerts(tournament, session, facts)
    )
    fouled = list(Board.objects.filter(session=session, fouled=True).values_list("number", flat=True))
    if fouled:
        ov.alerts.append(Alert("info", _("Fouled boards: %(list)s.") % {"list": ", ".join(map(str, fouled))}))
    if session.standings_current:
        ov.standings = "current"
    elif session.changed_at is not None or Result.objects.filter(session=session).exists():
        ov.standings = "pending"
        ov.alerts.append(Alert("info", _("The standings are being recomputed.")))
    if rescore_not_taken(tournament, now=now):
        # The task clears the mark as it starts: a mark a minute old was taken by no worker.
        ov.alerts.append(
            Alert(
                "warning",
                _(
                    "The standings have waited more than a minute to be recomputed: no background worker has "
                    "taken it. You can compute them now."
                ),
                action=reverse("director:rescore", args=[tournament.slug]),
                action_label=_("Recompute now"),
            )
        )


def _next(
    tournament: Tournament, session: Session, ov: Overview, now: dt.datetime, round_number: int | None
) -> None:
    rnd = ov.round
    if not tournament.participants.exists():
        ov.next_step, ov.next_action = _("Register the participants."), "participants"
    elif not ov.rounds:
        ov.next_step, ov.next_action = (
            _("Choose the movement: it seats everyone and assigns the boards."),
            "movement",
        )
    elif rnd is not None and rnd.status == Round.Status.RUNNING:
        if ov.timer and ov.timer.overdue(now):
            ov.next_step = _("Time is up: announce «end of round» and end round %(n)s.") % {"n": rnd.number}
        elif ov.expected and ov.entered >= ov.expected:
            ov.next_step = _("All results of round %(n)s are in: end the round.") % {"n": rnd.number}
        else:
            ov.next_step = _(
                "Round %(n)s is being played. Results come in from the tables; enter the protocols "
                "that reach you."
            ) % {"n": rnd.number}
        ov.next_action = "end"
    elif rnd is not None and rnd.status == Round.Status.PENDING:
        previous = next((r for r in ov.rounds if r.number == rnd.number - 1), None)
        if previous is not None and round_number is None:
            ov.next_step = _(
                "Give the hand-over instructions of round %(p)s, then announce «start of round» and "
                "start round %(n)s."
            ) % {"p": previous.number, "n": rnd.number}
        else:
            ov.next_step = _("Announce «start of round» and start round %(n)s.") % {"n": rnd.number}
        ov.next_action = "start"
    elif rnd is not None and rnd.status == Round.Status.ENDED and any(t.missing for t in ov.tables):
        tables = _missing_tables(ov.tables)
        ov.next_step = ngettext(
            "Enter the missing results of round %(n)s (table %(tables)s).",
            "Enter the missing results of round %(n)s (tables %(tables)s).",
            list_count([t for t in ov.tables if t.missing]),
        ) % {
            "n": rnd.number,
            "tables": tables,
        }
        ov.next_action = "enter"
    elif tournament.publication == Publication.DRAFT:
        ov.next_step, ov.next_action = _("Play is over: check the results and publish them."), "publish"
    elif tournament.publication == Publication.PROVISIONAL:
        ov.next_step, ov.next_action = (
            _("Publish the official results; the correction period starts."),
            "publish",
        )
    elif tournament.publication == Publication.OFFICIAL:
        ends = tournament.correction_ends_at
        if ends and now < ends:
            ov.next_step = _("Correction period: corrections and appeals are accepted until it ends.")
        else:
            ov.next_step = _("The correction period is over: make the results final.")
        ov.next_action = "publish"
    elif not tournament.is_locked:
        ov.next_step, ov.next_action = _("The results are final: lock the tournament."), "lock"
    else:
        ov.next_step = _("The tournament is locked. Nothing more to do.")
