"""Hand records («расклады»): one diagram per board, six boards to an A4 page, for duplicating the boxes.

Each diagram carries the set, the board number, the dealer (and, at a 3-player table, that the «dealer»
label marks the first hand) and the prikup in its pocket, top card first. Duplication sheets for the other
rooms (duplicate-rules §2: the boxes are copied once for every other room) print the same boards under a
header naming the room. With a double-dummy analysis (``boards.analysis.Makeable`` per board number) each
diagram has beneath it the makeable table — tricks per active seat in ♠ ♣ ♦ ♥ NT and at misère — and the par.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any, Final

from reportlab.lib import colors  # type: ignore[import-untyped]
from reportlab.lib.pagesizes import A4  # type: ignore[import-untyped]
from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]

from boards.analysis import Makeable, Par
from boards.pdf.diagram import DARK, RED, diagram_size, draw_diagram, labels
from boards.pdf.fonts import FONT, FONT_BOLD, register_fonts
from preferans.cards.deal import DealtBoard

__all__ = ["duplication_sheets_pdf", "hand_records_pdf"]

COLUMNS: Final = 2
ROWS: Final = 3
MARGIN: Final = 28.0
HEADER: Final = 34.0
FOOTER: Final = 20.0
TABLE_LINE: Final = 9.0  # the makeable table's line height (pt)

MAKEABLE_LABELS: Final[dict[str, dict[str, str]]] = {
    "ru": {
        "NT": "БК",
        "misere": "Миз.",
        "par": "Пар",
        "board_par": "Пар сдачи",
        "misere_word": "мизер",
        "nothing": "ничего не выполнить",
    },
    "en": {
        "NT": "NT",
        "misere": "Mis.",
        "par": "Par",
        "board_par": "Par of the board",
        "misere_word": "misère",
        "nothing": "nothing makes",
    },
}


def _dealer_line(board: DealtBoard, lab: dict[str, str]) -> str:
    text = f"{lab['dealer']}: {board.dealer.value}"
    if board.players == 3:
        text += f" ({lab['first_hand']})"
    return text


def _value(value: Any) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _par_text(par: Par, lang: str) -> str:
    lab = MAKEABLE_LABELS["en" if lang == "en" else "ru"]
    if par.level is None:
        return f"{lab['misere_word']} ({_value(par.value)})"
    return f"{par.level}{par.symbol or lab['NT']} ({_value(par.value)})"


def _draw_makeable(c: Any, table: Makeable, x: float, y: float, w: float, lang: str) -> None:
    """The makeable table with its top at ``y``: a head line, one line per seat, the board's par."""
    lab = MAKEABLE_LABELS["en" if lang == "en" else "ru"]
    heads = ["", "♠", "♣", "♦", "♥", lab["NT"], lab["misere"], lab["par"]]
    seat_w = 16.0
    col_w = min(22.0, (w * 0.62 - seat_w) / 6)
    xs = [x + seat_w + i * col_w for i in range(6)]
    par_x = xs[-1] + col_w + 6
    line = y - TABLE_LINE
    c.setFont(FONT_BOLD, 7.5)
    for i, head in enumerate(heads[1:7]):
        c.setFillColor(RED if head in ("♦", "♥") else colors.black)
        c.drawCentredString(xs[i] + col_w / 2, line, head)
    c.setFillColor(colors.black)
    c.drawString(par_x, line, heads[7])
    c.setStrokeColor(DARK)
    c.setLineWidth(0.4)
    c.line(x, line - 2.5, x + w, line - 2.5)
    for row in table.rows:
        line -= TABLE_LINE
        c.setFont(FONT_BOLD, 7.5)
        c.drawString(x + 2, line, row.seat)
        c.setFont(FONT, 7.5)
        for i, tricks in enumerate(row.tricks):
            c.drawCentredString(xs[i] + col_w / 2, line, str(tricks))
        c.drawString(par_x, line, _par_text(row.par, lang) if row.par else "—")
    line -= TABLE_LINE + 1
    c.setFont(FONT_BOLD, 7.5)
    best = ", ".join(f"{p.seat} {_par_text(p, lang)}" for p in table.par) or lab["nothing"]
    c.drawString(x + 2, line, f"{lab['board_par']}: {best}")


def _draw_cell(
    c: Any,
    board: DealtBoard,
    x: float,
    y: float,
    w: float,
    h: float,
    lang: str,
    table: Makeable | None = None,
) -> None:
    lab = labels(lang)
    pad = 8.0
    # Heading: board number (bold, left) and set (right); then dealer and table size.
    top = y + h - pad
    c.setFillColor(colors.black)
    c.setFont(FONT_BOLD, 12)
    c.drawString(x + pad, top - 12, f"{lab['board']} {board.number}")
    c.setFont(FONT, 10)
    c.drawRightString(x + w - pad, top - 12, f"{lab['set']} {board.set_number}")
    c.setFont(FONT, 9.5)
    c.drawString(x + pad, top - 26, _dealer_line(board, lab))
    c.setFillColor(DARK)
    c.setFont(FONT, 7)
    c.drawString(x + pad, top - 37, lab["players_3"] if board.players == 3 else lab["players_4"])
    c.setFillColor(colors.black)
    # The diagram, as large as fits, centred in what is left of the cell.
    head = 44.0
    below = (len(table.rows) + 2) * TABLE_LINE + 4 if table is not None else 0.0
    avail_h = h - pad - head - pad - below
    size = 12.0
    dw, dh = diagram_size(size)
    while (dw > w - 2 * pad or dh > avail_h) and size > 6:
        size -= 0.25
        dw, dh = diagram_size(size)
    dx = x + (w - dw) / 2
    dy = y + pad + below + (avail_h - dh) / 2
    draw_diagram(c, board, dx, dy, lang=lang, size=size)
    if table is not None:
        _draw_makeable(c, table, x + pad, y + pad + below, w - 2 * pad, lang)


def _draw_page_frame(c: Any, title: str, subtitle: str | None, page: int, pages: int, lang: str) -> None:
    lab = labels(lang)
    width, height = A4
    c.setFillColor(colors.black)
    c.setFont(FONT_BOLD, 13)
    c.drawString(MARGIN, height - MARGIN - 10, title)
    if subtitle:
        c.setFont(FONT_BOLD, 11)
        c.drawRightString(width - MARGIN, height - MARGIN - 10, subtitle)
    c.setFont(FONT, 8)
    c.setFillColor(DARK)
    c.drawRightString(width - MARGIN, MARGIN - 10, f"{lab['page']} {page}/{pages}")
    c.setFillColor(colors.black)


def _render(
    c: Any,
    boards: Sequence[DealtBoard],
    *,
    title: str,
    subtitle: str | None,
    lang: str,
    makeable: Mapping[int, Makeable] | None = None,
) -> None:
    width, height = A4
    per_page = COLUMNS * ROWS
    cell_w = (width - 2 * MARGIN) / COLUMNS
    cell_h = (height - 2 * MARGIN - HEADER - FOOTER + 10) / ROWS
    grid_top = height - MARGIN - HEADER
    pages = max(1, -(-len(boards) // per_page))
    for page in range(pages):
        _draw_page_frame(c, title, subtitle, page + 1, pages, lang)
        chunk = boards[page * per_page : (page + 1) * per_page]
        for i, board in enumerate(chunk):
            col, row = i % COLUMNS, i // COLUMNS
            x = MARGIN + col * cell_w
            y = grid_top - (row + 1) * cell_h
            c.setStrokeColor(colors.Color(0.6, 0.6, 0.6))
            c.setLineWidth(0.5)
            c.setDash(3, 3)
            c.rect(x, y, cell_w, cell_h, stroke=1, fill=0)
            c.setDash()
            table = (makeable or {}).get(board.number)
            _draw_cell(c, board, x, y, cell_w, cell_h, lang, table)
        c.showPage()


def _new_canvas(buffer: io.BytesIO, title: str) -> Any:
    register_fonts()
    c = Canvas(buffer, pagesize=A4, pageCompression=1, initialFontName=FONT, initialFontSize=10)
    c.setTitle(title)
    c.setCreator("duplicate-preferans boards")
    return c


def hand_records_pdf(
    boards: Sequence[DealtBoard],
    *,
    lang: str = "ru",
    title: str | None = None,
    room: str | None = None,
    makeable: Mapping[int, Makeable] | None = None,
) -> bytes:
    """The hand records of ``boards`` (in the order given), six diagrams per A4 page.

    ``title`` heads every page (default «Расклады сдач» / "Hand records"); ``room`` adds «Зал: …» on the right;
    ``makeable`` (by board number) puts each analysed board's makeable table and par beneath its diagram.
    """
    lab = labels(lang)
    heading = title or lab["hand_records"]
    subtitle = f"{lab['room']}: {room}" if room else None
    buffer = io.BytesIO()
    c = _new_canvas(buffer, heading)
    _render(c, boards, title=heading, subtitle=subtitle, lang=lang, makeable=makeable)
    c.save()
    return buffer.getvalue()


def duplication_sheets_pdf(
    boards: Sequence[DealtBoard], *, rooms: Sequence[str], lang: str = "ru", title: str | None = None
) -> bytes:
    """For each room in ``rooms``, the same hand records under «Копия для дублирования коробок — Зал: …»."""
    if not rooms:
        raise ValueError("name at least one room to print duplication sheets for")
    lab = labels(lang)
    heading = title or lab["duplication"]
    buffer = io.BytesIO()
    c = _new_canvas(buffer, heading)
    for room in rooms:
        _render(c, boards, title=heading, subtitle=f"{lab['room']}: {room}", lang=lang)
    c.save()
    return buffer.getvalue()
