"""Hand records («расклады»): one diagram per board, six boards to an A4 page, for duplicating the boxes.

Each diagram carries the set, the board number, the dealer (and, at a 3-player table, that the «dealer»
label marks the first hand) and the prikup in its pocket, top card first. Duplication sheets for the other
rooms (duplicate-rules §2: the boxes are copied once for every other room) print the same boards under a
header naming the room.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any, Final

from reportlab.lib import colors  # type: ignore[import-untyped]
from reportlab.lib.pagesizes import A4  # type: ignore[import-untyped]
from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]

from boards.pdf.diagram import DARK, diagram_size, draw_diagram, labels
from boards.pdf.fonts import FONT, FONT_BOLD, register_fonts
from preferans.cards.deal import DealtBoard

__all__ = ["duplication_sheets_pdf", "hand_records_pdf"]

COLUMNS: Final = 2
ROWS: Final = 3
MARGIN: Final = 28.0
HEADER: Final = 34.0
FOOTER: Final = 20.0


def _dealer_line(board: DealtBoard, lab: dict[str, str]) -> str:
    text = f"{lab['dealer']}: {board.dealer.value}"
    if board.players == 3:
        text += f" ({lab['first_hand']})"
    return text


def _draw_cell(c: Any, board: DealtBoard, x: float, y: float, w: float, h: float, lang: str) -> None:
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
    avail_h = h - pad - head - pad
    size = 12.0
    dw, dh = diagram_size(size)
    while (dw > w - 2 * pad or dh > avail_h) and size > 6:
        size -= 0.25
        dw, dh = diagram_size(size)
    dx = x + (w - dw) / 2
    dy = y + pad + (avail_h - dh) / 2
    draw_diagram(c, board, dx, dy, lang=lang, size=size)


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


def _render(c: Any, boards: Sequence[DealtBoard], *, title: str, subtitle: str | None, lang: str) -> None:
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
            _draw_cell(c, board, x, y, cell_w, cell_h, lang)
        c.showPage()


def _new_canvas(buffer: io.BytesIO, title: str) -> Any:
    register_fonts()
    c = Canvas(buffer, pagesize=A4, pageCompression=1, initialFontName=FONT, initialFontSize=10)
    c.setTitle(title)
    c.setCreator("duplicate-preferans boards")
    return c


def hand_records_pdf(
    boards: Sequence[DealtBoard], *, lang: str = "ru", title: str | None = None, room: str | None = None
) -> bytes:
    """The hand records of ``boards`` (in the order given), six diagrams per A4 page.

    ``title`` heads every page (default «Расклады сдач» / "Hand records"); ``room`` adds «Зал: …» on the right.
    """
    lab = labels(lang)
    heading = title or lab["hand_records"]
    subtitle = f"{lab['room']}: {room}" if room else None
    buffer = io.BytesIO()
    c = _new_canvas(buffer, heading)
    _render(c, boards, title=heading, subtitle=subtitle, lang=lang)
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
