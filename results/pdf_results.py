"""Results as PDF: the standings, every board's filled protocol with matchpoints, personal score cards.

The protocol page follows Appendix A: for each table that played the board, the contract, the declarer and
the whisters (position, tricks), then for N, E, S, W the participant's number, his vists and his matchpoints;
beside it the board's layout (once the session is over, or whenever the caller asks) and how often each
contract was played. Numbers are the core's stored values, rounded half-up for print (``5,33``).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from reportlab.lib import colors  # type: ignore[import-untyped]

from boards.pdf.diagram import diagram_size, draw_diagram
from boards.pdf.fonts import FONT, FONT_BOLD
from results.data import Progress, Report
from results.derived import (
    BoardProtocol,
    ScoreCard,
    frequencies,
    protocols,
    running_percentages,
    score_cards,
    session_totals,
)
from results.labels import contract_text, labels
from results.pdf_common import (
    DARK,
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
from results.sheets import opponents_text, result_contract
from ui.templatetags.scores import display_number

__all__ = [
    "cards_pdf",
    "draw_cards",
    "draw_protocols",
    "draw_standings",
    "num",
    "pct",
    "protocols_pdf",
    "results_pdf",
    "standings_pdf",
]

MINUS = "−"


def num(value: Fraction | None, lang: str = "ru") -> str:
    """An exact number for print: ``16/3`` → ``5,33`` (ru) / ``5.33`` (en); a typographic minus."""
    return display_number(value, lang).replace("-", MINUS)


def pct(value: Fraction | str | None, lang: str = "ru") -> str:
    """A percentage for print with both places (``59,30``), in the language's decimal sign."""
    return display_number(value, lang, trim=False).replace("-", MINUS)


def _doc(report: Report, title: str, lang: str, *, landscape: bool = False) -> PdfDoc:
    return PdfDoc(
        title=title,
        tournament=report.name,
        publication=report.publication,
        lang=lang,
        landscape=landscape,
        generated_at=report.generated_at,
        subtitle=f"{report.starts_on:%d.%m.%Y}" if report.starts_on else "",
    )


def _contract_cell(text: str) -> str | Cell:
    return Cell(text, colour=RED) if ("♦" in text or "♥" in text) else text


# -- standings -------------------------------------------------------------------------------------------
def draw_standings(doc: PdfDoc, report: Report, lang: str) -> None:
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
    return f"{variant} · {report.players_per_table} {lab['players_n']}"


def standings_pdf(report: Report, *, lang: str, progress: Progress | None = None) -> bytes:
    doc = _doc(report, labels(lang)["standings"], lang)
    draw_standings(doc, report, lang)
    return doc.finish()


# -- protocols -------------------------------------------------------------------------------------------
def _has_rooms(report: Report) -> bool:
    return any(r.room != 1 for s in report.sessions for r in s.results)


def _table_cell(room: int, table: int) -> str:
    """A table named as the director's pages name it: «3», or «2/3» for table 3 of room 2 (rules §2)."""
    return f"{room}/{table}" if room != 1 else str(table)


def _protocol_cols(report: Report, lang: str) -> tuple[list[Col], list[tuple[str, int]]]:
    lab = labels(lang)
    rooms = _has_rooms(report)
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
        table = _table_cell(r.room, r.table)
        cells: list[str | Cell] = [str(r.round), table, _contract_cell(result_contract(r, lang))]
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
            text = lab["raspasy"] if contract == "-" else contract_text(contract, lang)
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


def protocols_pdf(
    report: Report, *, lang: str, layouts: bool | None = None, progress: Progress | None = None
) -> bytes:
    doc = _doc(report, labels(lang)["protocols"], lang, landscape=True)
    draw_protocols(doc, report, lang, layouts=layouts, progress=progress)
    return doc.finish()


def results_pdf(report: Report, *, lang: str, progress: Progress | None = None) -> bytes:
    """The standings, then every board's protocol (what ``export_results --format pdf`` writes)."""
    lab = labels(lang)
    doc = _doc(report, f"{lab['standings']}, {lab['protocols'].lower()}", lang, landscape=True)
    draw_standings(doc, report, lang)
    draw_protocols(doc, report, lang, progress=progress)
    return doc.finish()


# -- personal score cards --------------------------------------------------------------------------------
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
    lab = labels(lang)
    many = len(report.sessions) > 1
    rooms = _has_rooms(report)
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
                            _table_cell(c.room, c.table),
                            c.seat,
                            opponents_text(c.opponents),
                            _contract_cell(result_contract(r, lang)),
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


def cards_pdf(
    report: Report, *, lang: str, participants: Sequence[int] | None = None, progress: Progress | None = None
) -> bytes:
    doc = _doc(report, labels(lang)["cards"], lang)
    draw_cards(doc, report, lang, participants=participants, progress=progress)
    return doc.finish()
