"""Score a whole bundle: rows → vists (preferans core) → comparison groups → matchpoints → standings.

formats.md §3 is the output; duplicate rules §8–§12 are the rules. For each session:

* every played row is scored by the preferans core (``score_row``; identical deals are scored once), assigned
  rows keep their assigned vists, artificial rows have none;
* E, the session's normal number of results per board, is the largest number of rows any board has;
* each (board, version) forms one comparison group per line (N, E, S, W) out of its played and assigned rows,
  whatever room they were played in: rooms play the same boards and are compared as one field (seed §2,
  §5 procedure 2), so a row's room identifies it but never splits its group;
  matchpoints and tops come from :mod:`preferans.duplicate.matchpoints` under the tournament's ``unequal_results``;
* an artificial row's seats earn their percentage of the board-line's top: ``2(E − 1)`` under Neuberg,
  ``2(R − 1)`` under ``none`` (R = the board's number of rows);
* standings: per participant the sum of his seats' matchpoints and tops, plus the session's penalties.

Pure Python, no Django import. The preferans core is reached through :class:`Engine` so that it can be
replaced in tests.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from preferans.bundle.document import Bundle, BundleInvalid, BundleSession, parse_bundle_collect
from preferans.bundle.rows import BundleResult
from preferans.bundle.shape import SEATS, Loc, Problem
from preferans.duplicate.matchpoints import UnequalRule, artificial_matchpoints, group_top, score_group
from preferans.duplicate.standings import (
    StandingRow,
    Total,
    add_totals,
    average_totals,
    rank_totals,
    session_totals,
)
from preferans.game.seats import table_seats
from preferans.numbers import format_fraction, format_percent

__all__ = [
    "Engine",
    "ScoredBundle",
    "ScoredResult",
    "ScoredSession",
    "default_engine",
    "score_bundle",
    "score_bundle_to_dict",
    "score_document",
    "scored_to_dict",
    "validate_and_score",
]


class RowScorer(Protocol):
    def __call__(
        self, row: Mapping[str, object], *, rules: Any, players: int, dealer: str | None
    ) -> Mapping[str, Fraction]: ...


@dataclass(frozen=True)
class Engine:
    """The preferans core as the scorer uses it: ``make_rules``, ``score_row`` and its error type.

    ``row_invalid`` is the exception ``score_row`` raises for an illegal row; it carries ``errors``, each with a
    ``message`` saying which rule was broken.
    """

    make_rules: Callable[[str, Mapping[str, object]], Any]
    score_row: RowScorer
    row_invalid: type[Exception]

    def rules_check(self, variant: str, overrides: Mapping[str, object]) -> str | None:
        try:
            self.make_rules(variant, overrides)
        except ValueError as exc:  # the core's RulesError is a ValueError naming the key
            return str(exc)
        return None


def default_engine() -> Engine:
    """The real preferans core (:mod:`preferans.game`)."""
    from preferans import game as preferans

    return Engine(preferans.make_rules, preferans.score_row, preferans.RowInvalid)


@dataclass(frozen=True)
class ScoredResult:
    """One input row scored: vists (``None`` for an artificial row), matchpoints and top per seat."""

    board: int
    round: int
    table: int
    seats: Mapping[str, int]
    vists: Mapping[str, Fraction] | None
    matchpoints: Mapping[str, Fraction]
    top: Mapping[str, Fraction]
    key: int | None = None
    """The input row's :attr:`~preferans.bundle.rows.BundleResult.key`."""
    room: int = 1


@dataclass(frozen=True)
class ScoredSession:
    number: int
    results: tuple[ScoredResult, ...]
    totals: Mapping[int, Total]
    """Per participant: matchpoints (penalties included) and max in this session."""


@dataclass(frozen=True)
class ScoredBundle:
    sessions: tuple[ScoredSession, ...]
    standings: tuple[StandingRow, ...]


def score_document(data: object, *, engine: Engine | None = None) -> dict[str, Any]:
    """Decoded bundle JSON → formats.md §3 output (JSON-able); :class:`BundleInvalid` lists every problem."""
    _bundle, scored = validate_and_score(data, engine=engine)
    return scored_to_dict(scored)


def validate_and_score(data: object, *, engine: Engine | None = None) -> tuple[Bundle, ScoredBundle]:
    """Parse, check every row with the preferans core and score; collect every problem of both stages.

    Rows with format problems are left out of the legality check; the rest are still checked, so one run
    reports everything that can be found.
    """
    engine = engine or default_engine()
    parsed = parse_bundle_collect(data, rules_check=engine.rules_check)
    problems = list(parsed.problems)
    if parsed.bundle is None or not parsed.rules_ok:
        raise BundleInvalid(problems or [Problem("the bundle cannot be read")])
    vists, row_problems = _all_vists(parsed.bundle, engine)
    problems.extend(row_problems)
    if problems:
        raise BundleInvalid(problems)
    return parsed.bundle, _score(parsed.bundle, vists)


def score_bundle(bundle: Bundle, *, engine: Engine | None = None) -> ScoredBundle:
    """Score an already parsed bundle; illegal rows raise :class:`BundleInvalid` listing them all."""
    engine = engine or default_engine()
    vists, problems = _all_vists(bundle, engine)
    if problems:
        raise BundleInvalid(problems)
    return _score(bundle, vists)


def score_bundle_to_dict(bundle: Bundle, *, engine: Engine | None = None) -> dict[str, Any]:
    """:func:`score_bundle` then :func:`scored_to_dict`: a parsed bundle → formats.md §3 output."""
    return scored_to_dict(score_bundle(bundle, engine=engine))


_Vists = Mapping[str, Fraction]


def _all_vists(bundle: Bundle, engine: Engine) -> tuple[list[list[_Vists | None]], list[Problem]]:
    """Vists of every row of every session (``None`` for artificial rows) and the illegal rows' problems."""
    t = bundle.tournament
    rules = engine.make_rules(t.variant, t.rules)
    players = t.players_per_table
    cache: dict[tuple[str, str], _Vists | tuple[str, ...]] = {}
    problems: list[Problem] = []
    out: list[list[_Vists | None]] = []
    for session in bundle.sessions:
        values: list[_Vists | None] = []
        for r in session.results:
            if r.adjusted is not None:
                values.append(None)
                continue
            if r.assigned is not None:
                values.append(r.assigned)
                continue
            key = (repr(r.deal), r.dealer)
            computed = cache.get(key)
            if computed is None:
                try:
                    computed = dict(engine.score_row(r.deal, rules=rules, players=players, dealer=r.dealer))
                except engine.row_invalid as exc:
                    errors = getattr(exc, "errors", ())
                    computed = tuple(str(getattr(e, "message", e)) for e in errors) or (str(exc),)
                cache[key] = computed
            loc = (
                Loc(session.number, r.board, r.table, r.round, room=r.room)
                if isinstance(computed, tuple) or (r.vists is not None and r.vists != computed)
                else None
            )
            if isinstance(computed, tuple):
                assert loc is not None
                problems.extend(Problem(message, loc) for message in computed)
                values.append(None)
                continue
            if loc is not None and r.vists is not None:
                problems.append(Problem(_vists_mismatch(r.vists, computed), loc))
            values.append(computed)
        out.append(values)
    return out, problems


def _vists_mismatch(written: Mapping[str, Fraction], computed: Mapping[str, Fraction]) -> str:
    seats = [s for s in ("N", "E", "S", "W") if s in written or s in computed]
    wrong = [s for s in seats if written.get(s) != computed.get(s)]

    def show(values: Mapping[str, Fraction]) -> str:
        return ", ".join(f"{s} {format_fraction(values[s]) if s in values else '—'}" for s in wrong)

    return f"vists written {show(written)} differ from the deal's vists {show(computed)}"


def _score(bundle: Bundle, vists: list[list[_Vists | None]]) -> ScoredBundle:
    t = bundle.tournament
    seats = table_seats(t.players_per_table)
    method = t.scoring.unequal_results
    artificial = t.scoring.artificial
    sessions = tuple(
        _score_session(session, values, seats, method, artificial)
        for session, values in zip(bundle.sessions, vists, strict=True)
    )
    everyone = {p.number: Total() for p in bundle.participants}
    # The bundle's optional ``session_totals`` (docs/formats.md): "percent" averages the sessions' percentages.
    # A final's carry-over needs the qualification's standings, which a bundle does not hold: the rescore adds it.
    total = average_totals if t.session_totals == "percent" else add_totals
    totals = total([everyone, *(s.totals for s in sessions)])
    return ScoredBundle(sessions, rank_totals(totals, bundle.names()))


def _score_session(
    session: BundleSession,
    vists: list[_Vists | None],
    seats: tuple[str, ...],
    method: UnequalRule,
    artificial: Mapping[str, Fraction],
) -> ScoredSession:
    results = session.results
    rows_per_board = Counter(r.board for r in results)
    expected = max(rows_per_board.values(), default=0)
    groups: dict[tuple[int, str], list[int]] = defaultdict(list)
    for index, r in enumerate(results):
        if r.adjusted is None:
            groups[(r.board, r.version)].append(index)

    mps: list[dict[str, Fraction]] = [{} for _ in results]
    tops: list[dict[str, Fraction]] = [{} for _ in results]
    for members in groups.values():
        for seat in seats:
            # A seat out of the comparison (annulled, §11.6 B, or given a percentage, §11.3 C) leaves its line's
            # group; the row's other seats are compared normally.
            line = (
                [i for i in members if not _out_of_line(results[i], seat)]
                if _any_out(results, members)
                else members
            )
            scores = []
            for i in line:
                row_vists = vists[i]
                assert row_vists is not None
                scores.append(row_vists[seat])
            group = score_group(scores, expected=expected, method=method)
            for i, mp in zip(line, group.matchpoints, strict=True):
                mps[i][seat] = mp
                tops[i][seat] = group.top

    for index, r in enumerate(results):
        if r.adjusted is None and not r.percent and not r.annulled:
            continue
        size = expected if method is UnequalRule.NEUBERG else rows_per_board[r.board]
        top = group_top(results=size, expected=size, method=method)
        for seat in seats:
            if seat in r.annulled:  # his second result is annulled: nothing earned, nothing counted
                mps[index][seat] = tops[index][seat] = Fraction(0)
            elif r.percent and seat in r.percent:
                mps[index][seat] = artificial_matchpoints(r.percent[seat], top)
                tops[index][seat] = top
            elif r.adjusted is not None:
                mps[index][seat] = artificial_matchpoints(artificial[r.adjusted[seat]], top)
                tops[index][seat] = top

    scored = tuple(
        ScoredResult(r.board, r.round, r.table, r.seats, vists[i], mps[i], tops[i], r.key, r.room)
        for i, r in enumerate(results)
    )
    earned = ((r.seats[seat], mps[i][seat], tops[i][seat]) for i, r in enumerate(results) for seat in seats)
    penalties = ((p.participant, p.matchpoints) for p in session.penalties)
    return ScoredSession(session.number, scored, session_totals(earned, penalties))


def _out_of_line(r: BundleResult, seat: str) -> bool:
    return seat in r.annulled or bool(r.percent and seat in r.percent)


def _any_out(results: tuple[BundleResult, ...], members: list[int]) -> bool:
    return any(results[i].annulled or results[i].percent for i in members)


def scored_to_dict(scored: ScoredBundle) -> dict[str, Any]:
    """formats.md §3, field for field: results in input order; numbers as strings (§1)."""
    text = _FractionText()
    return {
        "sessions": [
            {"number": s.number, "results": [_result_out(r, text) for r in s.results]}
            for s in scored.sessions
        ],
        "standings": [
            {
                "participant": st.participant,
                "name": st.name,
                "matchpoints": format_fraction(st.matchpoints),
                "max": format_fraction(st.max),
                "percent": format_percent(st.percent),
                "rank": st.rank,
            }
            for st in scored.standings
        ],
    }


class _FractionText(dict[tuple[int, int], str]):
    """``format_fraction`` with memory: the same few values repeat thousands of times in an event.

    Keyed by ``(numerator, denominator)``: hashing a tuple of ints is much cheaper than hashing a Fraction.
    """

    def __missing__(self, key: tuple[int, int]) -> str:
        text = self[key] = format_fraction(Fraction(*key))
        return text

    def map(self, values: Mapping[str, Fraction]) -> dict[str, str]:
        return {
            seat: self[(v.numerator, v.denominator)] for seat in SEATS if (v := values.get(seat)) is not None
        }


def _result_out(r: ScoredResult, text: _FractionText) -> dict[str, Any]:
    out: dict[str, Any] = {"board": r.board, "round": r.round, "table": r.table}
    if r.room != 1:
        out["room"] = r.room  # as in the input row (formats.md §2.1): named when it is not room 1
    if r.vists is not None:
        out["vists"] = text.map(r.vists)
    out["matchpoints"] = text.map(r.matchpoints)
    out["top"] = text.map(r.top)
    return out
