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
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from boards.models import Board
from preferans.numbers import format_percent, parse_fraction
from preferans.series import carry_share
from scoring.models import Penalty, Result, Standing
from scoring.session_totals import carried
from tournaments.models import Participant, Round, Seating, Session, Tournament
from ui.cells import printable

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
    federation_id: str = ""  # the player's number in the federation's rating list, when known

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
        from preferans.cards.board_form import stored_board
        from preferans.cards.deal import BoardError

        try:
            return stored_board(
                number=self.number,
                set_number=self.set_number,
                dealer=self.dealer,
                hands=self.hands,
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
    session_totals: str = "matchpoints"
    """How the event totals its sessions (``Tournament.session_totals``, docs/players/series.md): ``"percent"``
    averages the sessions' percentages; the default sums matchpoints and maxima."""
    carry_share: Fraction = ZERO
    """A final's share ``c`` of its qualification percentage carried over (0: nothing carried)."""
    carried: Mapping[int, Fraction] = field(default_factory=dict)
    """A final's carried part ``c · Q`` per finalist number (``scoring.session_totals.carried``)."""
    qualification: str = ""
    """The name of the final's qualification event, when it carries a share over."""

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
    def has_federation_ids(self) -> bool:
        """Whether any participant has a federation number (the standings then carry the column)."""
        return any(p.federation_id for p in self.participants.values())

    @property
    def any_running(self) -> bool:
        return any(s.running for s in self.sessions)

    @property
    def standings_current(self) -> bool:
        return all(s.standings_current for s in self.sessions if s.results)

    @property
    def averages_sessions(self) -> bool:
        return self.session_totals == "percent"

    @property
    def percent_is_ratio(self) -> bool:
        """Whether the standings' percent is 100 · matchpoints / maximum (the default; not when the sessions'
        percentages are averaged or a qualification is carried over)."""
        return not self.averages_sessions and not self.carry_share


# -- loading ---------------------------------------------------------------------------------------------
def _seat_label(seat: str, adjusted: Any, annulled: Any, percent: Any) -> str | None:
    """What a seat shows instead of vists: its artificial grade (§11.2 B1), its percentage of the top set by a
    ruling (``75 %``: §11.2 B1 above A+, §11.3 C), or ``×`` when its result here is annulled (§11.6 B)."""
    if annulled and seat in annulled:
        return "×"
    if percent and seat in percent:
        value = parse_fraction(percent[seat])
        return f"{value.numerator if value.denominator == 1 else format_percent(value)} %"
    return (adjusted or {}).get(seat) if adjusted else None


def _pair(raw: object) -> tuple[str, int] | None:
    if isinstance(raw, list | tuple) and len(raw) == 2:
        return str(raw[0]), int(raw[1])
    return None


def load_report(tournament_id: int, *, now: dt.datetime | None = None) -> Report:
    """Everything the results pages and files need, in a few queries."""
    t = Tournament.objects.get(pk=tournament_id)
    numbers: dict[int, int] = {}
    people: dict[int, Person] = {}
    for pk, number, name, club, federation_id in Participant.objects.filter(tournament=t).values_list(
        "pk", "number", "name", "club", "federation_id"
    ):
        numbers[pk] = number
        # Characters a file cannot hold (stored before input dropped them) never reach a PDF or a sheet.
        people[number] = Person(number, printable(name), printable(club), printable(federation_id or ""))
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
        "session_id",
        "board_number",
        "round_number",
        "table_number",
        "room",
        "seat_n_id",
        "seat_e_id",
        "seat_s_id",
        "seat_w_id",
        "row",
        "version",
        "adjusted",
        "assigned",
        "vists",
        "matchpoints",
        "top",
        "annulled",
        "percent",
    )
    for (
        session_id,
        board,
        rnd,
        table,
        room,
        n,
        e,
        s,
        w,
        row,
        version,
        adjusted,
        assigned,
        vists,
        mps,
        tops,
        annulled,
        percent,
    ) in (
        Result.objects.filter(session__tournament=t)
        .order_by("session_id", "position", "id")
        .values_list(*fields)
    ):
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
                    adjusted=_seat_label(seat, adjusted, annulled, percent),
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
        name=printable(t.name),
        venue=printable(t.venue),
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
        **_totals_of(t),
    )


def _totals_of(t: Tournament) -> dict[str, Any]:
    """How the event totals (its stored settings): the report's ``session_totals``, ``carry_share``, ``carried``
    and ``qualification``; the carried part is the rescore's own (``scoring.session_totals.carried``)."""
    out: dict[str, Any] = {"session_totals": t.session_totals or "matchpoints"}
    if t.qualification_id is None or t.qualification_id == t.pk:
        return out
    try:
        share = carry_share(t.carry_over or "0")
    except (ValueError, ZeroDivisionError):  # as the rescore: a stored oddity carries nothing
        return out
    if share:
        out["carry_share"] = share
        out["carried"] = carried(t)  # finalists not found in the qualification carry nothing
        out["qualification"] = printable(t.qualification.name) if t.qualification else ""
    return out


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
