"""The protocol form («ПРОТОКОЛ», duplicate-rules §6 and Appendix A; scoring-spec §11.1), one A4 landscape
page per board.

Header: tournament, organiser, chief director, «готовил сдачу», set and board numbers, the dealer and the
layout diagram with the prikup order. Table: «Контракт»; «Разыгрывающий», «Первый вистующий», «Второй
вистующий» (each: position, tricks); then N, E, S, W (each: player number, vists, MP). A 3-player board has
no W columns (W holds the prikup). One empty line per table that will play the board.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any, Final

from reportlab.lib import colors  # type: ignore[import-untyped]
from reportlab.lib.pagesizes import A4, landscape  # type: ignore[import-untyped]
from reportlab.pdfbase.pdfmetrics import stringWidth  # type: ignore[import-untyped]
from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]
from reportlab.platypus import Table, TableStyle  # type: ignore[import-untyped]

from boards.pdf.diagram import DARK, GREY, diagram_size, draw_diagram, draw_rich, labels
from boards.pdf.fonts import FONT, FONT_BOLD, register_fonts
from preferans.cards.deal import DealtBoard, Seat
from preferans.cards.deck import Card

__all__ = ["protocol_forms_pdf"]

MARGIN: Final = 28.0
DEFAULT_ROWS: Final = 13


def _seats(board: DealtBoard) -> tuple[Seat, ...]:
    return (Seat.N, Seat.E, Seat.S) if board.players == 3 else (Seat.N, Seat.E, Seat.S, Seat.W)


def _table(board: DealtBoard, rows: int, width: float, lang: str, row_height: float = 21.0) -> Any:
    lab = labels(lang)
    seats = _seats(board)
    head1: list[str] = [
        lab["contract"],
        lab["declarer"],
        "",
        lab["first_whister"],
        "",
        lab["second_whister"],
        "",
    ]
    head2: list[str] = [
        "",
        lab["position"],
        lab["tricks"],
        lab["position"],
        lab["tricks"],
        lab["position"],
        lab["tricks"],
    ]
    for seat in seats:
        head1 += [seat.value, "", ""]
        head2 += [lab["number"], lab["vists"], lab["mp"]]
    data = [head1, head2] + [[""] * len(head1) for _ in range(rows)]
    # Widths: contract, 3 × (position, tricks), then per seat (number, vists, MP); scaled to the page.
    raw = [48.0] + [47.0, 45.0] * 3 + [34.0, 52.0, 38.0] * len(seats)
    scale = width / sum(raw)
    widths = [w * scale for w in raw]
    style = TableStyle(
        [
            ("FONT", (0, 0), (-1, -1), FONT, 9),
            ("FONT", (0, 0), (-1, 1), FONT_BOLD, 8.5),
            ("ALIGN", (0, 0), (-1, -1), "CENTER"),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
            ("BOX", (0, 0), (-1, -1), 1.2, colors.black),
            ("BACKGROUND", (0, 0), (-1, 1), GREY),
            ("SPAN", (0, 0), (0, 1)),
            ("SPAN", (1, 0), (2, 0)),
            ("SPAN", (3, 0), (4, 0)),
            ("SPAN", (5, 0), (6, 0)),
            ("LINEAFTER", (0, 0), (0, -1), 1.2, colors.black),
            ("LINEAFTER", (6, 0), (6, -1), 1.2, colors.black),
            ("LINEBELOW", (0, 1), (-1, 1), 1.2, colors.black),
            ("TOPPADDING", (0, 0), (-1, -1), 2),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
            ("LEFTPADDING", (0, 0), (-1, -1), 2),
            ("RIGHTPADDING", (0, 0), (-1, -1), 2),
        ]
    )
    for i, _seat in enumerate(seats):
        first = 7 + 3 * i
        style.add("SPAN", (first, 0), (first + 2, 0))
        style.add("FONT", (first, 0), (first, 0), FONT_BOLD, 11)
        style.add("LINEAFTER", (first + 2, 0), (first + 2, -1), 1.2, colors.black)
        # The MP column is filled by the director when the session is scored: shade it lightly.
        style.add("BACKGROUND", (first + 2, 2), (first + 2, -1), colors.Color(0.95, 0.95, 0.95))
    heights = [26.0, 26.0] + [row_height] * rows
    table = Table(data, colWidths=widths, rowHeights=heights, repeatRows=0)
    table.setStyle(style)
    return table


def _field(c: Any, x: float, y: float, label: str, value: str, width: float) -> None:
    c.setFont(FONT, 10)
    c.setFillColor(colors.black)
    c.drawString(x, y, f"{label}:")
    start = x + stringWidth(f"{label}: ", FONT, 10)
    if value:
        c.setFont(FONT_BOLD, 10)
        c.drawString(start, y, value)
    c.setStrokeColor(DARK)
    c.setLineWidth(0.4)
    c.line(start, y - 2, x + width, y - 2)


def _draw_page(
    c: Any,
    board: DealtBoard,
    *,
    lang: str,
    rows: int,
    tournament: str,
    organiser: str,
    chief_director: str,
    prepared_by: str,
) -> None:
    lab = labels(lang)
    width, height = landscape(A4)
    top = height - MARGIN
    # Title and header fields on the left.
    c.setFont(FONT_BOLD, 20)
    c.setFillColor(colors.black)
    c.drawString(MARGIN, top - 20, lab["protocol"])
    field_w = 360.0
    y = top - 46
    for key, value in (
        ("tournament", tournament),
        ("organiser", organiser),
        ("chief_director", chief_director),
        ("prepared_by", prepared_by),
    ):
        _field(c, MARGIN, y, lab[key], value, field_w)
        y -= 19
    y -= 6
    c.setFont(FONT, 11)
    parts = (
        (lab["set_no"], str(board.set_number)),
        (lab["board_no"], str(board.number)),
        (lab["dealer"], board.dealer.value + (f" ({lab['first_hand']})" if board.players == 3 else "")),
    )
    x = MARGIN
    for label, value in parts:
        c.setFont(FONT, 11)
        c.drawString(x, y, f"{label}:")
        x += stringWidth(f"{label}: ", FONT, 11)
        c.setFont(FONT_BOLD, 13)
        c.drawString(x, y, value)
        x += stringWidth(value, FONT_BOLD, 13) + 22
    y -= 18
    line: list[str | Card] = [f"{lab['prikup']} ({lab['pocket']} {board.prikup_pocket.value}):  "]
    for n, (card, word) in enumerate(zip(board.prikup, (lab["top"], lab["bottom"]), strict=True), start=1):
        line += [f"{n}. ", card, f" ({word})    "]
    draw_rich(c, MARGIN, y, line, size=10)
    y -= 14
    c.setFillColor(DARK)
    c.setFont(FONT, 8)
    c.drawString(MARGIN, y, lab["players_3"] if board.players == 3 else lab["players_4"])
    c.setFillColor(colors.black)
    header_bottom = y - 10
    # The result table, and above it on the right as large a layout diagram as the page leaves room for.
    row_height = min(21.0, (header_bottom - MARGIN - 16 - 52) / rows)
    table = _table(board, rows, width - 2 * MARGIN, lang, row_height)
    _tw, th = table.wrapOn(c, width - 2 * MARGIN, height)
    room = height - 2 * MARGIN - th - 22  # the note under the table takes the rest
    size = 11.0
    dw, dh = diagram_size(size)
    while (dh + 8 > room or dw + 12 > width - 2 * MARGIN - 400) and size > 6:
        size -= 0.25
        dw, dh = diagram_size(size)
    dx = width - MARGIN - 6 - dw
    dy = top - 4 - dh
    c.setStrokeColor(colors.Color(0.6, 0.6, 0.6))
    c.setLineWidth(0.5)
    c.rect(dx - 6, dy - 4, dw + 12, dh + 8, stroke=1, fill=0)
    draw_diagram(c, board, dx, dy, lang=lang, size=size)
    table_top = min(header_bottom, dy - 14)
    table.drawOn(c, MARGIN, table_top - th)
    c.setFillColor(DARK)
    c.setFont(FONT, 7.5)
    c.drawString(MARGIN, table_top - th - 12, lab["protocol_note"])
    c.setFillColor(colors.black)


def protocol_forms_pdf(
    boards: Sequence[DealtBoard],
    *,
    lang: str = "ru",
    rows: int = DEFAULT_ROWS,
    tournament: str = "",
    organiser: str = "",
    chief_director: str = "",
    prepared_by: str = "",
) -> bytes:
    """One protocol form per board (A4 landscape) with ``rows`` empty lines (one per table)."""
    lab = labels(lang)
    if not 1 <= rows <= 16:
        raise ValueError(f"a protocol page holds 1 to 16 lines, not {rows}")
    register_fonts()
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=landscape(A4), pageCompression=1, initialFontName=FONT, initialFontSize=10)
    c.setTitle(lab["protocol"])
    c.setCreator("duplicate-preferans boards")
    for board in boards:
        _draw_page(
            c,
            board,
            lang=lang,
            rows=rows,
            tournament=tournament,
            organiser=organiser,
            chief_director=chief_director,
            prepared_by=prepared_by,
        )
        c.showPage()
    c.save()
    return buffer.getvalue()
