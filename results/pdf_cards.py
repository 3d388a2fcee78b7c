"""The personal score cards of the result PDFs: a page a participant with his place, total and percent, a
line of his running percentage, and every row he played (round, board, table, seat, opponents, contract, vists,
matchpoints, top, percent), his penalties and each session's total."""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.lib import colors  # type: ignore[import-untyped]

from boards.pdf.fonts import FONT, FONT_BOLD
from results.data import Progress, Report
from results.derived import ScoreCard, running_percentages, score_cards
from results.labels import labels
from results.pdf_cells import contract_cell, has_rooms, num, pct, table_cell
from results.pdf_common import DARK, LINE, MARGIN, Cell, Col, PdfDoc, Row
from results.sheets import opponents_text, result_contract

__all__ = ["draw_cards"]


def _sparkline(doc: PdfDoc, card: ScoreCard, x: float, y: float, w: float, h: float) -> None:
    points = running_percentages(card)
    if len(points) < 2:
        return
    c = doc.c
    values = [float(p.percent) for p in points]
    lo = min(30.0, min(values) - 2)
    hi = max(70.0, max(values) + 2)
    c.setStrokeColor(LINE)
    c.setLineWidth(0.5)
    c.rect(x, y, w, h, stroke=1, fill=0)
    mid = y + h * (50 - lo) / (hi - lo)
    c.setDash(2, 2)
    c.line(x, mid, x + w, mid)
    c.setDash()
    c.setFont(FONT, 6)
    c.setFillColor(DARK)
    c.drawRightString(x - 2, mid - 2, "50%")
    step = w / (len(values) - 1)
    path = c.beginPath()
    for i, v in enumerate(values):
        px, py = x + i * step, y + h * (v - lo) / (hi - lo)
        if i == 0:
            path.moveTo(px, py)
        else:
            path.lineTo(px, py)
    c.setStrokeColor(colors.Color(0.12, 0.37, 0.66))
    c.setLineWidth(1.1)
    c.drawPath(path, stroke=1, fill=0)
    c.setFillColor(colors.black)


def draw_cards(
    doc: PdfDoc,
    report: Report,
    lang: str,
    *,
    participants: Sequence[int] | None = None,
    progress: Progress | None = None,
) -> None:
    """A score card for each of ``participants`` (everyone when ``None``), each on a page of its own."""
    lab = labels(lang)
    many = len(report.sessions) > 1
    rooms = has_rooms(report)
    cols = [
        Col(lab["round"], 5, "c"),
        Col(lab["board"], 6, "c"),
        Col(lab["room_table"] if rooms else lab["table"], 7 if rooms else 5, "c"),
        Col(lab["seat"], 6, "c"),
        Col(lab["opponents"], 20),
        Col(lab["contract"], 9, "c"),
        Col(lab["declarer_short"], 9, "c"),
        Col(lab["vists"], 8, "r"),
        Col(lab["mp"], 7, "r"),
        Col(lab["max"], 6, "r"),
        Col(lab["percent"], 7, "r"),
    ]
    cards = score_cards(report, participants)
    for i, card in enumerate(cards):
        person = card.person
        y = doc.new_page(person.label)
        y = doc.heading(y, person.label, size=15, right=person.club)
        st = card.standing
        summary = []
        if st is not None:
            summary.append(f"{lab['place']}: {st.rank or lab['disqualified']}")
        summary.append(f"{lab['mp']}: {num(card.total, lang)} / {num(card.top, lang)}")
        summary.append(f"{pct(card.percent, lang)} %" if card.percent is not None else "")
        doc.c.setFont(FONT_BOLD, 10.5)
        doc.c.drawString(MARGIN, y - 11, "   ·   ".join(s for s in summary if s))
        _sparkline(doc, card, doc.width - MARGIN - 170, y - 26, 170, 30)
        y -= 36
        for s in card.sessions:
            if many:
                y = doc.heading(y, f"{lab['session']} {s.number}", size=11)
            rows: list[Row] = []
            for c in s.rows:
                r = c.result
                declarer = f"{r.declarer[0]} {r.declarer[1]}" if r.declarer and r.contract != "-" else ""
                vists = c.own.adjusted or (num(c.own.vists, lang) if r.scored else "")
                rows.append(
                    Row(
                        [
                            str(c.round),
                            str(c.board),
                            table_cell(c.room, c.table),
                            c.seat,
                            opponents_text(c.opponents),
                            contract_cell(result_contract(r, lang)),
                            declarer,
                            vists,
                            Cell(num(c.own.matchpoints, lang), bold=True) if r.scored else "",
                            num(c.own.top, lang) if r.scored else "",
                            pct(c.percent, lang) if r.scored else "",
                        ]
                    )
                )
            for p in s.penalties:
                rows.append(
                    Row(
                        [
                            "",
                            "",
                            "",
                            "",
                            f"{lab['penalty']}: {p.reason}",
                            "",
                            "",
                            "",
                            Cell(num(p.matchpoints, lang), bold=True),
                            "",
                            "",
                        ]
                    )
                )
            total_label = f"{lab['total']}" + (f" ({lab['session'].lower()} {s.number})" if many else "")
            rows.append(
                Row(
                    [
                        "",
                        "",
                        "",
                        "",
                        total_label,
                        "",
                        "",
                        "",
                        num(s.total, lang),
                        num(s.top, lang),
                        pct(s.percent, lang),
                    ],
                    shade=True,
                    bold=True,
                    rule=True,
                )
            )
            y = doc.table(y, cols, rows, size=8, row_h=11.6)
        if progress is not None:
            progress(i + 1, len(cards))
