"""Every board's filled protocol in the result PDFs (Appendix A), with matchpoints.

For each table that played the board: the contract, the declarer and the whisters (position, tricks), then for
N, E, S, W the participant's number, his vists and his matchpoints; beside it the board's layout (once the
session is over, or whenever the caller asks) and under it how often each contract was played.
"""

from __future__ import annotations

from reportlab.lib import colors  # type: ignore[import-untyped]

from boards.pdf.diagram import diagram_size, draw_diagram
from boards.pdf.fonts import FONT, FONT_BOLD
from results.data import Progress, Report
from results.derived import BoardProtocol, frequencies, protocols
from results.labels import contract_text, labels
from results.pdf_cells import contract_cell, has_rooms, num, table_cell
from results.pdf_common import (
    LINE,
    MARGIN,
    RED,
    Cell,
    Col,
    PdfDoc,
    Row,
    table_height,
    text_width,
    wrap_text,
)
from results.sheets import result_contract

__all__ = ["draw_protocols"]


def _protocol_cols(report: Report, lang: str) -> tuple[list[Col], list[tuple[str, int]]]:
    lab = labels(lang)
    rooms = has_rooms(report)
    cols = [
        Col(lab["round"], 22, "c"),
        Col(lab["room_table"] if rooms else lab["table"], 34 if rooms else 22, "c"),
        Col(lab["contract"], 40, "c"),
        Col(lab["position"], 20, "c"),
        Col(lab["tricks"], 24, "c"),
        Col(lab["position"], 20, "c"),
        Col(lab["tricks"], 24, "c"),
        Col(lab["position"], 20, "c"),
        Col(lab["tricks"], 24, "c"),
    ]
    groups = [
        ("", 3),
        (lab["declarer_short"], 2),
        (lab["first_whister_short"], 2),
        (lab["second_whister_short"], 2),
    ]
    for seat in report.seats:
        cols += [Col(lab["number"], 20, "r"), Col(lab["vists"], 34, "r"), Col(lab["mp"], 28, "r")]
        groups.append((seat, 3))
    return cols, groups


def _protocol_rows(protocol: BoardProtocol, report: Report, lang: str) -> list[Row]:
    rows: list[Row] = []
    for r in protocol.rows:
        table = table_cell(r.room, r.table)
        cells: list[str | Cell] = [str(r.round), table, contract_cell(result_contract(r, lang))]
        for pair in (r.declarer, r.w1, r.w2):
            cells += [pair[0], str(pair[1])] if pair else ["", ""]
        for seat in report.seats:
            sr = r.seats.get(seat)
            if sr is None:
                cells += ["", "", ""]
                continue
            vists = sr.adjusted if sr.adjusted else num(sr.vists, lang) if r.scored else ""
            cells += [
                str(sr.participant),
                vists,
                Cell(num(sr.matchpoints, lang), bold=True) if r.scored else "",
            ]
        rows.append(Row(cells))
    return rows


_PANEL: float = 200.0  # the board's layout beside its protocol
_GAP: float = 10.0  # between two protocols on one page
_FREQ_LINE: float = 10.5


def _layout_size(width: float) -> tuple[float, float, float]:
    """The diagram's font size, width and height to fit a panel ``width`` wide (7 pt: three boards to a page)."""
    size = 7.0
    dw, dh = diagram_size(size)
    while dw > width - 8 and size > 5:
        size -= 0.25
        dw, dh = diagram_size(size)
    return size, dw, dh


def _panel_height(doc: PdfDoc, protocol: BoardProtocol, lang: str, width: float, show_layout: bool) -> float:
    """How tall the board's panel is: its layout, or the note that the layout comes after the session."""
    if show_layout and protocol.board.deal() is not None:
        return _layout_size(width)[2] + 8
    if protocol.board.has_layout:
        return len(wrap_text(labels(lang)["session_over_layout"], FONT, 7.5, width)) * 7.5 * 1.3 + 2
    return 0.0


def _draw_board_panel(
    doc: PdfDoc, protocol: BoardProtocol, lang: str, x: float, y: float, width: float, show_layout: bool
) -> None:
    c = doc.c
    deal = protocol.board.deal() if show_layout else None
    if deal is not None:
        size, dw, dh = _layout_size(width)
        c.setStrokeColor(LINE)
        c.setLineWidth(0.5)
        c.rect(x, y - dh - 8, width, dh + 8, stroke=1, fill=0)
        draw_diagram(c, deal, x + (width - dw) / 2, y - dh - 4, lang=lang, size=size)
    elif protocol.board.has_layout:
        doc.paragraph(y, labels(lang)["session_over_layout"], size=7.5, width=width, x=x)


def _frequency_texts(protocol: BoardProtocol, lang: str) -> list[tuple[str, int]]:
    lab = labels(lang)
    out = []
    for contract, declarer, tricks, count in frequencies(protocol).contracts:
        if contract in ("adjusted", "assigned"):
            text = lab["artificial"] if contract == "adjusted" else lab["assigned"]
        else:
            text = contract_text(contract, lang)
            if declarer:
                text += f"  {declarer} {tricks}"
        out.append((text, count))
    return out


def _frequency_grid(items: list[tuple[str, int]], width: float) -> tuple[int, float]:
    """How many columns the frequencies take under the protocol, and how wide each is."""
    widest = max((text_width(text, FONT, 8) for text, _count in items), default=0.0)
    col_w = widest + 44
    return max(1, min(len(items) or 1, int(width // col_w))), col_w


def _frequencies_height(items: list[tuple[str, int]], width: float) -> float:
    if not items:
        return 0.0
    per_line = _frequency_grid(items, width)[0]
    return 13 + -(-len(items) // per_line) * _FREQ_LINE + 4


def _draw_frequencies(
    doc: PdfDoc, items: list[tuple[str, int]], lang: str, x: float, y: float, width: float
) -> float:
    """How often each contract was played, in as many columns as fit under the protocol; return y below."""
    if not items:
        return y
    c = doc.c
    per_line, col_w = _frequency_grid(items, width)
    c.setFillColor(colors.black)
    c.setFont(FONT_BOLD, 8.5)
    c.drawString(x, y - 9, labels(lang)["frequencies"])
    y -= 13
    c.setFont(FONT, 8)
    for start in range(0, len(items), per_line):
        if y - _FREQ_LINE < doc.bottom:
            y = doc.new_page()
            c.setFont(FONT, 8)
        for k, (text, count) in enumerate(items[start : start + per_line]):
            cx = x + k * col_w
            c.setFillColor(RED if ("♦" in text or "♥" in text) else colors.black)
            c.drawString(cx + 4, y - 8, text)
            c.setFillColor(colors.black)
            c.drawRightString(cx + col_w - 14, y - 8, f"× {count}")
        y -= _FREQ_LINE
    return y - 4


def draw_protocols(
    doc: PdfDoc,
    report: Report,
    lang: str,
    *,
    layouts: bool | None = None,
    session: int | None = None,
    progress: Progress | None = None,
) -> None:
    """Appendix A filled in with the matchpoints, as many boards to a page as fit (a long one flows over pages).

    Each protocol's height is measured first (its heading, table and frequencies on the left, the layout on
    the right); it goes under the previous one when it fits, else on a new page."""
    lab = labels(lang)
    cols, groups = _protocol_cols(report, lang)
    all_protocols = [p for p in protocols(report, session=session) if p.rows]
    many = len(report.sessions) > 1
    table_w = doc.width - 2 * MARGIN - _PANEL - 14
    y: float | None = None
    page_session: int | None = None
    for i, protocol in enumerate(all_protocols):
        info = report.session(protocol.session)
        show_layout = layouts if layouts is not None else bool(info and info.finished)
        title = f"{lab['board']} {protocol.number}"
        if many:
            title = f"{lab['session']} {protocol.session} · {title}"
        rows = _protocol_rows(protocol, report, lang)
        size = 7.2 if len(rows) > 30 else 8.2
        items = _frequency_texts(protocol, lang)
        adjusted = any(r.kind != "played" for r in protocol.rows)
        left = 13 + 8 + table_height(cols, len(rows), width=table_w, size=size, row_h=13.0, groups=True)
        left += _frequencies_height(items, table_w) + (10 if adjusted else 0)
        need = max(left, 21 + _panel_height(doc, protocol, lang, _PANEL, show_layout))
        fresh = y is None or (many and protocol.session != page_session)
        if fresh or y is None or y - need < doc.bottom:
            section = f"{lab['session']} {protocol.session}" if many else ""
            y = doc.new_page(section)
            page_session = protocol.session
        top = next((sr.top for r in protocol.rows for sr in r.seats.values() if r.scored), None)
        right = f"{lab['set']} {protocol.board.set_number}"
        if protocol.board.dealer:
            right += f" · {lab['dealer']} {protocol.board.dealer}"
        if top is not None:
            right += f" · {lab['max']} {num(top, lang)}"
        start = doc.page
        y = doc.heading(y, f"{lab['protocol'].upper()} · {title}", size=13, right=right)
        block_top = y
        _draw_board_panel(doc, protocol, lang, doc.width - MARGIN - _PANEL, y, _PANEL, show_layout)

        def continued(title: str = title) -> float:
            yy = doc.new_page()
            return doc.heading(yy, f"{title} ({lab['continued']})", size=11)

        y = doc.table(
            y,
            cols,
            rows,
            width=table_w,
            size=size,
            row_h=13.0,
            fit_min=8.4,
            groups=groups,
            continued=continued,
        )
        if adjusted:
            y = doc.paragraph(y, lab["adjusted_note"], size=7, width=table_w)
        y = _draw_frequencies(doc, items, lang, MARGIN, y, table_w)
        if doc.page == start:  # the layout beside a protocol that stayed on its page may reach lower
            y = min(y, block_top - _panel_height(doc, protocol, lang, _PANEL, show_layout))
        y -= _GAP
        if progress is not None:
            progress(i + 1, len(all_protocols))
