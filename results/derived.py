"""What the results pages and files derive from a :class:`~results.data.Report`: board protocols, personal
score cards with running percentages, frequencies, and session totals.

Pure Python over the loaded report, in exact fractions: each is a sum or a count of the numbers the scoring
core stored; nothing is scored again here.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from preferans.duplicate.standings import session_totals as core_session_totals
from results.data import (
    SEAT_ORDER,
    ZERO,
    BoardInfo,
    PenaltyInfo,
    Person,
    Report,
    ResultRow,
    SeatResult,
    StandingInfo,
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

    averaged: bool = False
    """The event averages its sessions' percentages (``Report.averages_sessions``)."""
    share: Fraction = ZERO
    """A final's share ``c`` carried over from the qualification (``Report.carry_share``)."""
    carried: Fraction | None = None
    """His carried part ``c · Q`` (``Report.carried``); ``None``: nothing carried for him."""

    @property
    def percent(self) -> Fraction | None:
        """The standings' percentage, exact: 100 · total / maximum by default; the mean of his sessions'
        percentages when the event averages them; with a carry-over, ``(c·Q + F) / (1 + c)``."""
        if self.averaged:
            played = [p for s in self.sessions if (p := s.percent) is not None]
            own = sum(played, ZERO) / len(played) if played else None
        else:
            own = None if self.top == 0 else 100 * self.total / self.top
        return carry(own, self.share, self.carried)


def carry(own: Fraction | None, share: Fraction, carried: Fraction | None) -> Fraction | None:
    """A finalist's percentage with his carried part: ``(c·Q + F) / (1 + c)`` (docs/players/series.md)."""
    if own is None or carried is None or not share:
        return own
    return (carried + own) / (1 + share)


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
        cards.append(
            ScoreCard(
                report.person(number),
                standing_of.get(number),
                tuple(sessions),
                report.averages_sessions,
                report.carry_share,
                report.carried.get(number),
            )
        )
    return cards


@dataclass(frozen=True)
class RunningPoint:
    session: int
    round: int
    matchpoints: Fraction  # cumulative, penalties of a session added after its last round
    top: Fraction
    shown: Fraction | None = None
    """The percentage when it is not 100 · matchpoints / top (sessions averaged, a carry-over)."""

    @property
    def percent(self) -> Fraction:
        if self.shown is not None:
            return self.shown
        return ZERO if self.top == 0 else 100 * self.matchpoints / self.top

    @property
    def label(self) -> str:
        return f"{self.session}.{self.round}"


def running_percentages(card: ScoreCard) -> list[RunningPoint]:
    """The participant's percentage after each round he played (cumulative over sessions), as the standings
    total it (the card's ``averaged``, ``share`` and ``carried``).

    By default it is 100 · matchpoints so far / maximum so far. When the event averages its sessions, it is the
    mean of the percentages of his finished sessions and of the current one so far; a final's carried part
    weighs in as ``(c·Q + F) / (1 + c)``. In every mode the last point equals the standings' percentage
    (:attr:`ScoreCard.percent`): a session's penalties are added after its last round.
    """
    points: list[RunningPoint] = []
    mp, top = ZERO, ZERO
    finished: list[Fraction] = []  # the percentages of his finished sessions (averaged mode)
    ratio = not card.averaged and card.carried is None
    for s in card.sessions:
        by_round: dict[int, tuple[Fraction, Fraction]] = {}
        for c in s.rows:
            a, b = by_round.get(c.round, (ZERO, ZERO))
            by_round[c.round] = (a + c.own.matchpoints, b + c.own.top)
        rounds = sorted(by_round)
        s_mp, s_top = ZERO, ZERO
        for i, rnd in enumerate(rounds):
            mp += by_round[rnd][0]
            top += by_round[rnd][1]
            s_mp += by_round[rnd][0]
            s_top += by_round[rnd][1]
            if i == len(rounds) - 1:
                mp += s.penalty_total
                s_mp += s.penalty_total
            shown = None
            if not ratio:
                if card.averaged:
                    now = finished + ([100 * s_mp / s_top] if s_top else [])
                    own = sum(now, ZERO) / len(now) if now else ZERO
                else:
                    own = ZERO if top == 0 else 100 * mp / top
                shown = carry(own, card.share, card.carried)
            points.append(RunningPoint(s.number, rnd, mp, top, shown))
        if s.percent is not None:
            finished.append(s.percent)
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
    """(participant, session) → the sums of his stored matchpoints and tops in that session, with penalties
    (the core's :func:`preferans.duplicate.standings.session_totals`, per session of the report)."""
    out: dict[tuple[int, int], SessionTotal] = {}
    for s in report.sessions:
        earned = [(sr.participant, sr.matchpoints, sr.top) for r in s.results for sr in r.seats.values()]
        penalties = [(p.participant, p.matchpoints) for p in s.penalties]
        pen: dict[int, Fraction] = defaultdict(Fraction)
        for number, value in penalties:
            pen[number] += value
        for number, total in core_session_totals(earned, penalties).items():
            out[(number, s.number)] = SessionTotal(
                s.number, number, total.matchpoints, pen.get(number, ZERO), total.max
            )
    return out
