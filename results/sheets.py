"""Sheets: a :class:`~results.data.Report` → typed columns and rows, yielded one by one (pretix's pattern).

A sheet only says *what* the rows are — typed columns and exact values (``Fraction`` for vists, matchpoints and
maxima, a ``Fraction`` percentage 0–100 for percentages). Its rows are a generator, made while the file is
written. The renderers (:mod:`results.render_tabular`) decide how a kind of column is written: a number with a
number format in Excel, a rounded decimal in CSV. The file kinds that use the sheets are in
:mod:`results.exporters`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from boards.pdf.text import lang_of
from results.data import Report, ResultRow, SeatResult, StandingInfo
from results.derived import frequencies, protocols, score_cards, session_totals
from results.labels import contract_text, labels

__all__ = [
    "SHEETS",
    "Column",
    "Sheet",
    "cards_sheet",
    "frequencies_sheet",
    "protocols_sheet",
    "result_contract",
    "seat_vists",
    "sheets",
    "session_totals_sheet",
    "standings_sheet",
]

# Column kinds: "text", "int", "num" (an exact number shown with 2 decimals, CSV drops trailing zeros), "fixed"
# (an exact number always with 2 decimals, an int as a whole number: a pulka event's figures), "pct" (a
# percentage 0–100), "place" (a number where the place is one, text where it is shared or a mark).


@dataclass(frozen=True)
class Column:
    title: str
    kind: str = "text"
    width: float = 10.0


@dataclass
class Sheet:
    key: str
    title: str  # the sheet's (short) name
    heading: str  # the line above the table: tournament and what this is
    columns: list[Column]
    rows: Iterable[list[Any]]  # yielded while the file is written
    size: int = 0  # how many rows (for progress reports)


def _heading(report: Report, what: str, lang: str) -> str:
    lab = labels(lang)
    status = lab[f"status_{report.publication}"]
    date = f" · {report.starts_on:%d.%m.%Y}" if report.starts_on else ""
    return f"{report.name}{date} — {what} ({status})"


def result_contract(r: ResultRow, lang: str) -> str:
    """The contract column: ``6♦``, ``мизер``, ``—`` (raspasy), or what kind of awarded result it is."""
    lab = labels(lang)
    if r.kind == "adjusted":
        return lab["artificial"]
    if r.kind == "assigned":
        return lab["assigned"]
    return contract_text(r.contract, lang)


def seat_vists(sr: SeatResult | None) -> Fraction | str | None:
    """A seat's vists, or the artificial result's code (``A+``) where there are none."""
    if sr is None:
        return None
    if sr.adjusted is not None:
        return sr.adjusted
    return sr.vists


def _pct(mp: Fraction, top: Fraction) -> Fraction | None:
    return None if top == 0 else 100 * mp / top


_CARRIED = {"ru": "Перенесено", "en": "Carried"}  # a final's carried part c·Q (docs/players/series.md)


def _standing_percent(report: Report, st: StandingInfo) -> Fraction | None:
    """The standings' percentage: 100 · matchpoints / maximum, exact, by default; the published figure (an exact
    decimal) when the event averages its sessions or carries a qualification over."""
    if report.percent_is_ratio:
        return _pct(st.matchpoints, st.max)
    return Fraction(st.percent)


def standings_sheet(report: Report, lang: str) -> Sheet:
    lab = labels(lang)
    sessions = [s.number for s in report.sessions if s.results]
    many = len(sessions) > 1
    columns = [
        Column(lab["place"], "place", 7),
        Column(lab["number"], "int", 6),
        Column(lab["name"], "text", 28),
        Column(lab["club"], "text", 16),
        Column(lab["mp"], "num", 10),
        Column(lab["max"], "num", 9),
        Column(lab["percent"], "pct", 9),
    ]
    carry = bool(report.carry_share)
    if carry:
        columns.insert(6, Column(_CARRIED[lang_of(lang)], "pct", 11))
    fed = report.has_federation_ids
    if fed:
        columns.insert(4, Column(lab["federation_id"], "text", 14))
    totals = session_totals(report) if many else {}
    if many:
        for n in sessions:
            columns += [
                Column(f"{lab['session']} {n}: {lab['mp']}", "num", 11),
                Column(f"{lab['session']} {n}: %", "pct", 11),
            ]

    def rows() -> Iterator[list[Any]]:
        for st in report.standings:
            person = report.person(st.participant)
            row: list[Any] = [
                st.rank or lab["disqualified"],
                st.participant,
                person.name,
                person.club,
                st.matchpoints,
                st.max,
                _standing_percent(report, st),
            ]
            if carry:
                row.insert(6, report.carried.get(st.participant))
            if fed:
                row.insert(4, person.federation_id)
            for n in sessions if many else ():
                t = totals.get((st.participant, n))
                row += [t.matchpoints, t.percent] if t else [None, None]
            yield row

    size = len(report.standings)
    return Sheet(
        "standings", lab["standings_sheet"], _heading(report, lab["standings"], lang), columns, rows(), size
    )


def session_totals_sheet(report: Report, lang: str) -> Sheet:
    lab = labels(lang)
    columns = [
        Column(lab["number"], "int", 6),
        Column(lab["name"], "text", 28),
        Column(lab["session"], "int", 8),
        Column(lab["mp"], "num", 10),
        Column(lab["penalties"], "num", 9),
        Column(lab["max"], "num", 9),
        Column(lab["percent"], "pct", 9),
    ]
    totals = session_totals(report)
    rows = (
        [
            t.participant,
            report.person(t.participant).name,
            t.session,
            t.matchpoints,
            t.penalties or None,
            t.top,
            t.percent,
        ]
        for t in sorted(totals.values(), key=lambda t: (t.participant, t.session))
    )
    return Sheet(
        "session_totals",
        lab["session_totals"],
        _heading(report, lab["session_totals"], lang),
        columns,
        rows,
        len(totals),
    )


def _result_count(report: Report) -> int:
    return sum(len(s.results) for s in report.sessions)


def _rooms(report: Report) -> bool:
    return any(r.room != 1 for s in report.sessions for r in s.results)


def protocols_sheet(report: Report, lang: str) -> Sheet:
    """Every board's protocol, one row per table (Appendix A) with each seat's number, vists and MP."""
    lab = labels(lang)
    many = len(report.sessions) > 1
    rooms = _rooms(report)
    columns: list[Column] = []
    if many:
        columns.append(Column(lab["session"], "int", 8))
    columns += [Column(lab["board"], "int", 7), Column(lab["round"], "int", 6)]
    if rooms:
        columns.append(Column(lab["room"], "int", 5))
    columns += [
        Column(lab["table"], "int", 6),
        Column(lab["contract"], "text", 10),
        Column(f"{lab['declarer']}: {lab['position']}", "text", 8),
        Column(f"{lab['declarer']}: {lab['tricks']}", "int", 8),
        Column(f"{lab['first_whister']}: {lab['position']}", "text", 8),
        Column(f"{lab['first_whister']}: {lab['tricks']}", "int", 8),
        Column(f"{lab['second_whister']}: {lab['position']}", "text", 8),
        Column(f"{lab['second_whister']}: {lab['tricks']}", "int", 8),
    ]
    for seat in report.seats:
        columns += [
            Column(f"{seat} {lab['number']}", "int", 6),
            Column(f"{seat} {lab['vists']}", "num", 9),
            Column(f"{seat} {lab['mp']}", "num", 8),
        ]
    columns.append(Column(lab["max"], "num", 7))

    def rows() -> Iterator[list[Any]]:
        for protocol in protocols(report):
            for r in protocol.rows:
                row: list[Any] = [r.session] if many else []
                row += [r.board, r.round]
                if rooms:
                    row.append(r.room)
                row.append(r.table)
                row.append(result_contract(r, lang))
                for pair in (r.declarer, r.w1, r.w2):
                    row += [pair[0], pair[1]] if pair else [None, None]
                top = None
                for seat in report.seats:
                    sr = r.seats.get(seat)
                    if sr is None:
                        row += [None, None, None]
                        continue
                    row += [
                        sr.participant,
                        seat_vists(sr) if r.scored else None,
                        sr.matchpoints if r.scored else None,
                    ]
                    top = sr.top if r.scored else None
                row.append(top)
                yield row

    size = _result_count(report)
    return Sheet(
        "protocols", lab["protocols"], _heading(report, lab["protocols"], lang), columns, rows(), size
    )


def cards_sheet(report: Report, lang: str) -> Sheet:
    """Every participant's board-by-board results (his personal card), in standings order."""
    lab = labels(lang)
    many = len(report.sessions) > 1
    columns = [Column(lab["number"], "int", 6), Column(lab["name"], "text", 24)]
    if many:
        columns.append(Column(lab["session"], "int", 8))
    columns += [
        Column(lab["round"], "int", 6),
        Column(lab["board"], "int", 7),
        Column(lab["table"], "int", 6),
        Column(lab["seat"], "text", 7),
        Column(lab["opponents"], "text", 22),
        Column(lab["contract"], "text", 10),
        Column(lab["declarer"], "text", 11),
        Column(lab["vists"], "num", 9),
        Column(lab["mp"], "num", 8),
        Column(lab["max"], "num", 7),
        Column(lab["percent"], "pct", 8),
    ]

    def rows() -> Iterator[list[Any]]:
        for card in score_cards(report):
            for s in card.sessions:
                for c in s.rows:
                    r = c.result
                    row: list[Any] = [card.person.number, card.person.name]
                    if many:
                        row.append(s.number)
                    declarer = f"{r.declarer[0]} {r.declarer[1]}" if r.declarer and r.contract != "-" else ""
                    row += [
                        c.round,
                        c.board,
                        c.table,
                        c.seat,
                        opponents_text(c.opponents),
                        result_contract(r, lang),
                        declarer,
                        seat_vists(c.own) if r.scored else None,
                        c.own.matchpoints if r.scored else None,
                        c.own.top if r.scored else None,
                        c.percent if r.scored else None,
                    ]
                    yield row

    size = sum(len(r.seats) for s in report.sessions for r in s.results)
    return Sheet("cards", lab["cards_sheet"], _heading(report, lab["cards"], lang), columns, rows(), size)


def opponents_text(opponents: tuple[tuple[str, int], ...]) -> str:
    return ", ".join(f"{seat} {number}" for seat, number in opponents)


def frequencies_sheet(report: Report, lang: str) -> Sheet:
    lab = labels(lang)
    many = len(report.sessions) > 1
    columns: list[Column] = [Column(lab["session"], "int", 8)] if many else []
    columns += [
        Column(lab["board"], "int", 7),
        Column(lab["line"], "text", 7),
        Column(lab["vists"], "num", 10),
        Column(lab["count"], "int", 8),
        Column(lab["mp"], "num", 8),
        Column(lab["max"], "num", 7),
    ]

    def rows() -> Iterator[list[Any]]:
        for protocol in protocols(report):
            freq = frequencies(protocol)
            for seat, items in freq.lines.items():
                for f in items:
                    row: list[Any] = [protocol.session] if many else []
                    row += [
                        protocol.number,
                        seat,
                        f.value if f.value is not None else f.label,
                        f.count,
                        f.matchpoints,
                        f.top,
                    ]
                    yield row

    size = _result_count(report)  # at most one line per result and seat, usually far fewer
    return Sheet(
        "frequencies", lab["frequencies"], _heading(report, lab["frequencies"], lang), columns, rows(), size
    )


SHEETS: dict[str, Callable[[Report, str], Sheet]] = {
    "standings": standings_sheet,
    "session_totals": session_totals_sheet,
    "protocols": protocols_sheet,
    "cards": cards_sheet,
    "frequencies": frequencies_sheet,
}


def sheets(report: Report, keys: list[str], lang: str) -> Iterator[Sheet]:
    for key in keys:
        yield SHEETS[key](report, lang)
