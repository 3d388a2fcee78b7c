"""What every results page and file shows, loaded once from the database into plain frozen data.

The numbers are the scoring core's, as ``rescore_tournament`` stored them: each result's ``vists``,
``matchpoints`` and ``top`` (exact fractions per seat) and the tournament's ``Standing`` rows. Nothing here
scores anything again. Where a page or a file needs more than the core stores — a participant's total in one
session, his running percentage after each round, a board's frequencies — it is a **sum or a count of the
stored core numbers**, in exact fractions; percentages are rounded half-up only when shown
(:func:`preferans.numbers.format_percent`). Session totals include that session's procedural penalties, so
the sum over the sessions is the standings' total.

:func:`load_report` makes a handful of queries (no per-row query) so a 9,000-row event loads in well under a
second; everything else is pure Python over the returned :class:`Report`.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from preferans.numbers import format_percent, parse_fraction

SEAT_ORDER = ("N", "E", "S", "W")
ZERO = Fraction(0)


class _FractionCache(dict[Any, Fraction]):
    """The same few strings ("2", "16/3") repeat thousands of times: parse each once."""

    def __missing__(self, key: Any) -> Fraction:
        value = self[key] = parse_fraction(key)
        return value


@dataclass(frozen=True)
class Person:
    number: int
    name: str
    club: str

    @property
    def label(self) -> str:
        return f"{self.number}. {self.name}" if self.name else str(self.number)


@dataclass(frozen=True)
class SeatResult:
    seat: str
    participant: int
    vists: Fraction | None  # None for an artificial adjusted result
    matchpoints: Fraction
    top: Fraction
    adjusted: str | None = None  # "A-", "A", "A+" for an artificial result

    @property
    def percent(self) -> Fraction | None:
        return None if self.top == 0 else 100 * self.matchpoints / self.top


@dataclass(frozen=True)
class ResultRow:
    """One row of a board's protocol (Appendix A) with the core's numbers for each seat."""

    session: int
    board: int
    round: int
    table: int
    room: int
    kind: str  # "played", "adjusted" (artificial) or "assigned"
    contract: str | None  # "6D", "MIS", "-" (raspasy); None when not played
    declarer: tuple[str, int] | None
    w1: tuple[str, int] | None
    w2: tuple[str, int] | None
    version: str
    seats: Mapping[str, SeatResult]

    scored: bool = True  # False until the core has scored the row (numbers are then zero)

    def seat_of(self, participant: int) -> str | None:
        for seat, sr in self.seats.items():
            if sr.participant == participant:
                return seat
        return None


@dataclass(frozen=True)
class BoardInfo:
    session: int
    number: int
    set_number: int
    dealer: str
    hands: Mapping[str, str]
    prikup: tuple[str, ...]

    @property
    def has_layout(self) -> bool:
        return bool(self.hands)

    def deal(self) -> Any:
        """The layout as a :class:`preferans.cards.deal.DealtBoard` (for the diagram), or ``None`` if not recorded."""
        if not self.hands:
            return None
        from preferans.cards.deal import BoardError, stored_board

        try:
            return stored_board(
                number=self.number, set_number=self.set_number, dealer=self.dealer, hands=self.hands,
                prikup=self.prikup,
            )
        except BoardError:
            return None


@dataclass(frozen=True)
class PenaltyInfo:
    session: int
    participant: int
    matchpoints: Fraction
    reason: str


@dataclass(frozen=True)
class SessionInfo:
    number: int
    status: str  # planned / running / finished
    standings_current: bool
    movement: Mapping[str, Any] | None
    boards: Mapping[int, BoardInfo]
    results: tuple[ResultRow, ...]
    penalties: tuple[PenaltyInfo, ...]
    plays_per_set: Mapping[int, int]  # how many table-rounds play each set (from the seating)
    rounds_total: int

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    @property
    def running(self) -> bool:
        return self.status == "running"

    def rows_of(self, board: int) -> list[ResultRow]:
        return [r for r in self.results if r.board == board]

    def board_complete(self, board: int) -> bool:
        """Every table that plays this board has its row: its results may be shown to everybody."""
        if self.finished:
            return True
        info = self.boards.get(board)
        rows = sum(1 for r in self.results if r.board == board)
        if info is not None and info.set_number in self.plays_per_set:
            return rows >= self.plays_per_set[info.set_number]
        expected = max(Counter(r.board for r in self.results).values(), default=0)
        return rows > 0 and rows >= expected


@dataclass(frozen=True)
class StandingInfo:
    position: int
    rank: str
    participant: int
    matchpoints: Fraction
    max: Fraction
    percent: str  # the core's rounded text


@dataclass(frozen=True)
class Report:
    tournament_id: int
    slug: str
    name: str
    venue: str
    starts_on: dt.date | None
    variant: str
    rules: Mapping[str, Any]
    players_per_table: int
    deals_per_set: int
    language: str
    publication: str
    participants: Mapping[int, Person]
    sessions: tuple[SessionInfo, ...]
    standings: tuple[StandingInfo, ...]
    generated_at: dt.datetime | None = None

    @property
    def seats(self) -> tuple[str, ...]:
        return SEAT_ORDER if self.players_per_table == 4 else SEAT_ORDER[:3]

    @property
    def has_results(self) -> bool:
        return any(s.results for s in self.sessions)

    def session(self, number: int) -> SessionInfo | None:
        return next((s for s in self.sessions if s.number == number), None)

    def person(self, number: int) -> Person:
        return self.participants.get(number) or Person(number, "", "")

    @property
    def any_running(self) -> bool:
        return any(s.running for s in self.sessions)

    @property
    def standings_current(self) -> bool:
        return all(s.standings_current for s in self.sessions if s.results)


# -- loading ---------------------------------------------------------------------------------------------
def _pair(raw: object) -> tuple[str, int] | None:
    if isinstance(raw, list | tuple) and len(raw) == 2:
        return str(raw[0]), int(raw[1])
    return None


def load_report(tournament_id: int, *, now: dt.datetime | None = None) -> Report:
    """Everything the results pages and files need, in a few queries."""
    from boards.models import Board
    from scoring.models import Penalty, Result, Standing
    from tournaments.models import Participant, Round, Seating, Session, Tournament

    t = Tournament.objects.get(pk=tournament_id)
    numbers: dict[int, int] = {}
    people: dict[int, Person] = {}
    for pk, number, name, club in Participant.objects.filter(tournament=t).values_list(
        "pk", "number", "name", "club"
    ):
        numbers[pk] = number
        people[number] = Person(number, name, club)
    frac = _FractionCache()

    sessions_qs = list(Session.objects.filter(tournament=t).order_by("number"))
    by_session_pk = {s.pk: s for s in sessions_qs}
    boards: dict[int, dict[int, BoardInfo]] = defaultdict(dict)
    for session_id, number, set_number, dealer, hands, prikup in Board.objects.filter(
        session__tournament=t
    ).values_list("session_id", "number", "set_number", "dealer", "hands", "prikup"):
        s_no = by_session_pk[session_id].number
        boards[s_no][number] = BoardInfo(s_no, number, set_number, dealer, hands or {}, tuple(prikup or ()))

    plays: dict[int, Counter[int]] = defaultdict(Counter)
    for session_id, set_number in Seating.objects.filter(session__tournament=t).values_list(
        "session_id", "set_number"
    ):
        plays[by_session_pk[session_id].number][set_number] += 1
    rounds_total: Counter[int] = Counter()
    for session_id in Round.objects.filter(session__tournament=t).values_list("session_id", flat=True):
        rounds_total[by_session_pk[session_id].number] += 1

    results: dict[int, list[ResultRow]] = defaultdict(list)
    fields = (
        "session_id", "board_number", "round_number", "table_number", "room", "seat_n_id", "seat_e_id",
        "seat_s_id", "seat_w_id", "row", "version", "adjusted", "assigned", "vists", "matchpoints", "top",
    )  # fmt: skip
    for (
        session_id, board, rnd, table, room, n, e, s, w, row, version, adjusted, assigned, vists, mps, tops,
    ) in Result.objects.filter(session__tournament=t).order_by("session_id", "position", "id").values_list(
        *fields
    ):  # fmt: skip
        s_no = by_session_pk[session_id].number
        seat_pks = {"N": n, "E": e, "S": s, "W": w}
        seats: dict[str, SeatResult] = {}
        if mps:
            for seat in SEAT_ORDER:
                pk = seat_pks[seat]
                if pk is None or seat not in mps:
                    continue
                v = (vists or {}).get(seat)
                seats[seat] = SeatResult(
                    seat=seat,
                    participant=numbers[pk],
                    vists=None if v is None else frac[v],
                    matchpoints=frac[mps[seat]],
                    top=frac[(tops or {}).get(seat, "0")],
                    adjusted=(adjusted or {}).get(seat) if adjusted else None,
                )
        else:  # not scored yet: keep who sat where, without numbers
            for seat in SEAT_ORDER:
                if seat_pks[seat] is not None:
                    seats[seat] = SeatResult(seat, numbers[seat_pks[seat]], None, ZERO, ZERO)
        row = row or {}
        kind = "adjusted" if adjusted else "assigned" if assigned else "played"
        results[s_no].append(
            ResultRow(
                session=s_no,
                board=board,
                round=rnd,
                table=table,
                room=room,
                kind=kind,
                contract=row.get("contract") if kind == "played" else None,
                declarer=_pair(row.get("declarer")) if kind == "played" else None,
                w1=_pair(row.get("w1")) if kind == "played" else None,
                w2=_pair(row.get("w2")) if kind == "played" else None,
                version=version or "A",
                seats=seats,
                scored=bool(mps),
            )
        )

    penalties: dict[int, list[PenaltyInfo]] = defaultdict(list)
    for session_id, participant_id, mp, reason in Penalty.objects.filter(session__tournament=t).values_list(
        "session_id", "participant_id", "matchpoints", "reason"
    ):
        s_no = by_session_pk[session_id].number
        penalties[s_no].append(PenaltyInfo(s_no, numbers[participant_id], frac[mp], reason))

    sessions = tuple(
        SessionInfo(
            number=s.number,
            status=s.status,
            standings_current=s.standings_current,
            movement=s.movement,
            boards=boards.get(s.number, {}),
            results=tuple(results.get(s.number, ())),
            penalties=tuple(penalties.get(s.number, ())),
            plays_per_set=dict(plays.get(s.number, {})),
            rounds_total=rounds_total.get(s.number, 0),
        )
        for s in sessions_qs
    )
    standings = tuple(
        StandingInfo(position, rank, numbers[participant_id], frac[mp], frac[mx], percent)
        for position, rank, participant_id, mp, mx, percent in Standing.objects.filter(tournament=t)
        .order_by("position")
        .values_list("position", "rank", "participant_id", "matchpoints", "max", "percent")
    )
    return Report(
        tournament_id=t.pk,
        slug=t.slug,
        name=t.name,
        venue=t.venue,
        starts_on=t.starts_on,
        variant=t.variant,
        rules=dict(t.rule_overrides or {}),
        players_per_table=t.players_per_table,
        deals_per_set=t.deals_per_set,
        language=t.language,
        publication=t.publication,
        participants=people,
        sessions=sessions,
        standings=standings,
        generated_at=now,
    )


# -- protocols -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BoardProtocol:
    """One board's protocol: its rows in the order of play (round, then room and table)."""

    session: int
    board: BoardInfo
    rows: tuple[ResultRow, ...]

    @property
    def number(self) -> int:
        return self.board.number


def protocols(report: Report, *, session: int | None = None) -> list[BoardProtocol]:
    out: list[BoardProtocol] = []
    for s in report.sessions:
        if session is not None and s.number != session:
            continue
        by_board: dict[int, list[ResultRow]] = defaultdict(list)
        for r in s.results:
            by_board[r.board].append(r)
        for number in sorted(set(by_board) | set(s.boards)):
            info = s.boards.get(number) or BoardInfo(
                s.number, number, (number - 1) // max(report.deals_per_set, 1) + 1, "", {}, ()
            )
            rows = sorted(by_board.get(number, ()), key=lambda r: (r.round, r.room, r.table))
            out.append(BoardProtocol(s.number, info, tuple(rows)))
    return out


# -- personal score cards --------------------------------------------------------------------------------
@dataclass(frozen=True)
class CardRow:
    session: int
    round: int
    board: int
    table: int
    room: int
    seat: str
    opponents: tuple[tuple[str, int], ...]  # (seat, participant number) of the others at the table
    result: ResultRow
    own: SeatResult

    @property
    def percent(self) -> Fraction | None:
        return self.own.percent


@dataclass(frozen=True)
class CardSession:
    number: int
    rows: tuple[CardRow, ...]
    matchpoints: Fraction  # sum of the stored matchpoints of his seats
    top: Fraction  # sum of the stored tops of his seats
    penalties: tuple[PenaltyInfo, ...]

    @property
    def penalty_total(self) -> Fraction:
        return sum((p.matchpoints for p in self.penalties), ZERO)

    @property
    def total(self) -> Fraction:
        """Matchpoints of the session with its penalties: what the standings add up."""
        return self.matchpoints + self.penalty_total

    @property
    def percent(self) -> Fraction | None:
        return None if self.top == 0 else 100 * self.total / self.top


@dataclass(frozen=True)
class ScoreCard:
    person: Person
    standing: StandingInfo | None
    sessions: tuple[CardSession, ...]

    @property
    def total(self) -> Fraction:
        return sum((s.total for s in self.sessions), ZERO)

    @property
    def top(self) -> Fraction:
        return sum((s.top for s in self.sessions), ZERO)

    @property
    def percent(self) -> Fraction | None:
        return None if self.top == 0 else 100 * self.total / self.top


def _card_rows(report: Report) -> dict[int, dict[int, list[CardRow]]]:
    """participant → session → his rows, for every participant at once (one pass over the results)."""
    out: dict[int, dict[int, list[CardRow]]] = defaultdict(lambda: defaultdict(list))
    for s in report.sessions:
        for r in s.results:
            everyone = tuple((seat, sr.participant) for seat, sr in r.seats.items())
            for seat, sr in r.seats.items():
                opponents = tuple(x for x in everyone if x[0] != seat)
                out[sr.participant][s.number].append(
                    CardRow(s.number, r.round, r.board, r.table, r.room, seat, opponents, r, sr)
                )
    return out


def score_cards(report: Report, participants: Iterable[int] | None = None) -> list[ScoreCard]:
    """Personal score cards, in standings order (participants not ranked yet follow by number)."""
    rows = _card_rows(report)
    standing_of = {st.participant: st for st in report.standings}
    penalties: dict[tuple[int, int], list[PenaltyInfo]] = defaultdict(list)
    for s in report.sessions:
        for p in s.penalties:
            penalties[(p.participant, s.number)].append(p)
    if participants is None:
        ranked = [st.participant for st in report.standings]
        rest = sorted(set(report.participants) - set(ranked))
        participants = ranked + rest
    cards: list[ScoreCard] = []
    for number in participants:
        sessions: list[CardSession] = []
        for s in report.sessions:
            mine = sorted(rows.get(number, {}).get(s.number, ()), key=lambda c: (c.round, c.board))
            pens = tuple(penalties.get((number, s.number), ()))
            if not mine and not pens:
                continue
            sessions.append(
                CardSession(
                    s.number,
                    tuple(mine),
                    sum((c.own.matchpoints for c in mine), ZERO),
                    sum((c.own.top for c in mine), ZERO),
                    pens,
                )
            )
        cards.append(ScoreCard(report.person(number), standing_of.get(number), tuple(sessions)))
    return cards


@dataclass(frozen=True)
class RunningPoint:
    session: int
    round: int
    matchpoints: Fraction  # cumulative, penalties of a session added after its last round
    top: Fraction

    @property
    def percent(self) -> Fraction:
        return ZERO if self.top == 0 else 100 * self.matchpoints / self.top

    @property
    def label(self) -> str:
        return f"{self.session}.{self.round}"


def running_percentages(card: ScoreCard) -> list[RunningPoint]:
    """The participant's percentage after each round he played (cumulative over sessions).

    The last point equals the standings' percentage: a session's penalties are added after its last round.
    """
    points: list[RunningPoint] = []
    mp, top = ZERO, ZERO
    for s in card.sessions:
        by_round: dict[int, tuple[Fraction, Fraction]] = {}
        for c in s.rows:
            a, b = by_round.get(c.round, (ZERO, ZERO))
            by_round[c.round] = (a + c.own.matchpoints, b + c.own.top)
        rounds = sorted(by_round)
        for i, rnd in enumerate(rounds):
            mp += by_round[rnd][0]
            top += by_round[rnd][1]
            if i == len(rounds) - 1:
                mp += s.penalty_total
            points.append(RunningPoint(s.number, rnd, mp, top))
    return points


# -- frequencies -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Frequency:
    value: Fraction | None  # vists; None for artificial results
    count: int
    matchpoints: Fraction  # what this value scored (the same for every row in the group)
    top: Fraction
    label: str = ""


@dataclass(frozen=True)
class BoardFrequencies:
    board: int
    session: int
    contracts: tuple[tuple[str, str | None, int, int], ...]  # (contract, declarer seat, tricks, count)
    lines: Mapping[str, tuple[Frequency, ...]]  # per seat line, best first
    rows: int


def frequencies(protocol: BoardProtocol) -> BoardFrequencies:
    """How often each outcome and each score in each line occurred on a board (from the stored numbers)."""
    contracts: Counter[tuple[str, str | None, int]] = Counter()
    lines: dict[str, dict[Any, list[SeatResult]]] = defaultdict(lambda: defaultdict(list))
    for r in protocol.rows:
        if r.kind == "played" and r.contract is not None:
            d = r.declarer
            if r.contract == "-":
                contracts[("-", None, -1)] += 1
            else:
                contracts[(r.contract, d[0] if d else None, d[1] if d else -1)] += 1
        elif r.kind != "played":
            contracts[(r.kind, None, -1)] += 1
        if not r.scored:
            continue
        for seat, sr in r.seats.items():
            key = sr.vists if sr.adjusted is None else f"A:{sr.adjusted}"
            lines[seat][(key, r.version)].append(sr)
    out_lines: dict[str, tuple[Frequency, ...]] = {}
    for seat in SEAT_ORDER:
        if seat not in lines:
            continue
        items = []
        for (_key, _version), group in lines[seat].items():
            first = group[0]
            items.append(
                Frequency(
                    value=first.vists if first.adjusted is None else None,
                    count=len(group),
                    matchpoints=first.matchpoints,
                    top=first.top,
                    label=first.adjusted or "",
                )
            )
        items.sort(key=lambda f: (f.value is None, -(f.value or 0), -f.matchpoints))
        out_lines[seat] = tuple(items)
    ordered = sorted(
        ((c, d, t, n) for (c, d, t), n in contracts.items()), key=lambda x: (-x[3], x[0], x[1] or "", -x[2])
    )
    return BoardFrequencies(
        protocol.board.number, protocol.session, tuple(ordered), out_lines, len(protocol.rows)
    )


# -- session totals --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SessionTotal:
    session: int
    participant: int
    matchpoints: Fraction  # penalties included
    penalties: Fraction
    top: Fraction

    @property
    def percent(self) -> Fraction | None:
        return None if self.top == 0 else 100 * self.matchpoints / self.top


def session_totals(report: Report) -> dict[tuple[int, int], SessionTotal]:
    """(participant, session) → the sums of his stored matchpoints and tops in that session, with penalties."""
    mp: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    top: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    pen: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    for s in report.sessions:
        for r in s.results:
            for sr in r.seats.values():
                key = (sr.participant, s.number)
                mp[key] += sr.matchpoints
                top[key] += sr.top
        for p in s.penalties:
            pen[(p.participant, s.number)] += p.matchpoints
    keys = set(mp) | set(pen)
    return {
        k: SessionTotal(k[1], k[0], mp.get(k, ZERO) + pen.get(k, ZERO), pen.get(k, ZERO), top.get(k, ZERO))
        for k in keys
    }


def percent_text(value: Fraction | None) -> str:
    return "" if value is None else format_percent(value)


@dataclass
class Progress:
    """Progress reports of a long generation: ``step(done, total)`` → a callback with a 0–100 value."""

    callback: Any = None
    start: int = 0
    end: int = 100
    _last: int = field(default=-1, repr=False)

    def __call__(self, done: float, total: float, message: str = "") -> None:
        if self.callback is None or total <= 0:
            return
        value = self.start + int((self.end - self.start) * min(done, total) / total)
        if value != self._last:
            self._last = value
            self.callback(value, message)

    def part(self, start: int, end: int) -> Progress:
        lo = self.start + (self.end - self.start) * start // 100
        hi = self.start + (self.end - self.start) * end // 100
        return Progress(self.callback, lo, hi)
