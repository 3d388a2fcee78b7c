"""The standings page of the result PDFs: place, number, name, club (and federation id when the event has
them), matchpoints, maximum and percent, and each session's percent when there are several sessions."""

from __future__ import annotations

from results.data import Report
from results.derived import session_totals
from results.labels import labels
from results.pdf_cells import num, pct
from results.pdf_common import Cell, Col, PdfDoc, Row

__all__ = ["draw_standings"]


def draw_standings(doc: PdfDoc, report: Report, lang: str) -> None:
    """The standings on a page of their own (a section of the document when it holds more)."""
    lab = labels(lang)
    y = doc.new_page("" if doc.title == lab["standings"] else lab["standings"])
    y = doc.heading(y, lab["standings"], right=_event_line(report, lang))
    sessions = [s.number for s in report.sessions if s.results]
    many = len(sessions) > 1
    cols = [
        Col(lab["place"], 6, "c"),
        Col(lab["number"], 5, "r"),
        Col(lab["name"], 30),
        Col(lab["club"], 18),
        Col(lab["mp"], 9, "r"),
        Col(lab["max"], 8, "r"),
        Col(lab["percent"], 8, "r"),
    ]
    fed = report.has_federation_ids
    if fed:
        cols.insert(4, Col(lab["federation_id"], 12))
    totals = session_totals(report) if many else {}
    if many:
        cols += [Col(f"{lab['session']} {n}\n%", 8, "r") for n in sessions]
    rows: list[Row] = []
    for st in report.standings:
        person = report.person(st.participant)
        cells: list[str | Cell] = [
            st.rank or lab["disqualified"],
            str(st.participant),
            person.name,
            person.club,
            num(st.matchpoints, lang),
            num(st.max, lang),
            Cell(pct(st.percent, lang), bold=True),
        ]
        if fed:
            cells.insert(4, person.federation_id)
        for n in sessions if many else ():
            t = totals.get((st.participant, n))
            cells.append(pct(t.percent, lang) if t else "")
        rows.append(Row(cells))
    if not rows:
        doc.paragraph(y, lab["no_results"], size=11)
        return
    doc.table(y, cols, rows, size=9, row_h=14.5)


def _event_line(report: Report, lang: str) -> str:
    lab = labels(lang)
    variant = lab.get(f"variant_{report.variant}", report.variant)
    return f"{variant} · {lab['players_n']}: {report.players_per_table}"
