"""The page frame and a fast table writer shared by the results PDFs.

Every page carries the tournament's name, what the document is, the publication state as a coloured stamp
(provisional / official / final, or «not published»), the page number out of the total and when the file was
made. The font is the one of the hand records (DejaVu: Cyrillic and suit symbols).

Tables are drawn straight on the canvas (not as platypus flowables): a results pack has tens of thousands of
rows, and direct drawing keeps the whole pack within seconds. A table flows over as many pages as it needs,
repeating its column titles.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from reportlab import rl_config  # type: ignore[import-untyped]
from reportlab.lib import colors  # type: ignore[import-untyped]
from reportlab.lib.pagesizes import A4, landscape  # type: ignore[import-untyped]
from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]

from boards.pdf.fonts import FONT, FONT_BOLD, register_fonts
from boards.pdf.text import clip_text, text_width, wrap_text
from results.labels import labels

__all__ = ["MARGIN", "Cell", "Col", "PdfDoc", "Row", "table_height", "text_width", "wrap_text"]

MARGIN: Final = 28.0
GREY: Final = colors.Color(0.9, 0.91, 0.93)
LIGHT: Final = colors.Color(0.965, 0.97, 0.975)
LINE: Final = colors.Color(0.72, 0.74, 0.77)
DARK: Final = colors.Color(0.35, 0.35, 0.35)
RED: Final = colors.Color(0.75, 0.05, 0.05)
STAMP_COLOURS: Final = {
    "draft": colors.Color(0.45, 0.45, 0.45),
    "provisional": colors.Color(0.62, 0.42, 0.0),
    "official": colors.Color(0.04, 0.29, 0.53),
    "final": colors.Color(0.07, 0.36, 0.17),
}


def _fit(text: str, font: str, size: float, width: float) -> float:
    """The font size (at most ``size``) at which ``text`` fits in ``width``."""
    w = text_width(text, font, size)
    return size if w <= width or w == 0 else max(4.0, size * width / w)


def _wrap_title(title: str, size: float, width: float) -> str:
    """A column title too wide for its column is broken at the space that balances the two lines best."""
    if "\n" in title or " " not in title or text_width(title, FONT_BOLD, size) <= width:
        return title
    words = title.split(" ")
    best = min(
        range(1, len(words)),
        key=lambda i: max(
            text_width(" ".join(words[:i]), FONT_BOLD, size), text_width(" ".join(words[i:]), FONT_BOLD, size)
        ),
    )
    return " ".join(words[:best]) + "\n" + " ".join(words[best:])


def _layout_head(cols: Sequence[Col], width: float, size: float) -> tuple[list[float], list[Col], float]:
    """The columns' widths, their titles wrapped to fit, and the height of one row of titles."""
    total = sum(col.width for col in cols)
    widths = [col.width * width / total for col in cols]
    wrapped = [
        Col(_wrap_title(col.title, size * 0.92, w - 3), col.width, col.align)
        for col, w in zip(cols, widths, strict=True)
    ]
    lines_head = max(len(col.title.split("\n")) for col in wrapped)
    return widths, wrapped, max(size * 2.1, size * (1.1 * lines_head + 0.9))


def table_height(
    cols: Sequence[Col], rows: int, *, width: float, size: float, row_h: float, groups: bool = False
) -> float:
    """The height :meth:`PdfDoc.table` takes for ``rows`` rows on one page (with the gap below it)."""
    head_h = _layout_head(cols, width, size)[2]
    return head_h * (2 if groups else 1) + rows * row_h + 6


@dataclass(frozen=True)
class Col:
    title: str
    width: float  # a relative width; the table scales the columns to the width it is given
    align: str = "l"  # "l", "r" or "c"


@dataclass(frozen=True)
class Cell:
    """A cell with its own look: bold, red (for ♦ ♥ or negative numbers), grey text."""

    text: str
    bold: bool = False
    colour: Any = None


@dataclass
class Row:
    cells: Sequence[str | Cell]
    shade: bool = False  # a subtotal or a highlighted line
    bold: bool = False
    rule: bool = False  # a heavier line above


@dataclass
class PdfDoc:
    """A PDF being written: pages with the common frame, and tables that flow over pages."""

    title: str
    tournament: str
    publication: str
    lang: str = "ru"
    landscape: bool = False
    generated_at: dt.datetime | None = None
    subtitle: str = ""
    buffer: io.BytesIO = field(default_factory=io.BytesIO)

    def __post_init__(self) -> None:
        register_fonts()
        # Plain zlib streams (no ASCII85 layer): smaller files and, without reportlab's C accelerator, a
        # third faster on a pack of a thousand pages. Restored when the document is finished.
        self._a85 = rl_config.useA85
        rl_config.useA85 = 0
        self.size = landscape(A4) if self.landscape else A4
        self.c = Canvas(self.buffer, pagesize=self.size, pageCompression=1, initialFontName=FONT)
        self.c.setTitle(f"{self.title} — {self.tournament}")
        self.c.setAuthor(self.tournament)
        self.c.setCreator("duplicate preferans: results")
        self.lab = labels(self.lang)
        self.page = 0
        self.section = ""
        self.in_page = False

    @property
    def width(self) -> float:
        return float(self.size[0])

    @property
    def height(self) -> float:
        return float(self.size[1])

    @property
    def bottom(self) -> float:
        return MARGIN + 14

    def new_page(self, section: str | None = None) -> float:
        """Close the current page, open the next with its frame; return the y where content starts."""
        if self.in_page:
            self.c.showPage()
        if section is not None:
            self.section = section
        self.page += 1
        self.in_page = True
        return self._frame()

    def _frame(self) -> float:
        c, w, h = self.c, self.width, self.height
        top = h - MARGIN
        c.setFillColor(colors.black)
        c.setFont(FONT_BOLD, 11)
        name = self.tournament
        stamp = self.lab.get(f"status_{self.publication}", "")
        stamp_w = text_width(stamp, FONT_BOLD, 8.5) + 12 if stamp else 0
        while text_width(name, FONT_BOLD, 11) > w - 2 * MARGIN - stamp_w - 10 and len(name) > 10:
            name = name[:-2]
        c.drawString(MARGIN, top - 10, name)
        if stamp:
            colour = STAMP_COLOURS.get(self.publication, DARK)
            c.setStrokeColor(colour)
            c.setFillColor(colour)
            c.setLineWidth(1.2)
            c.roundRect(w - MARGIN - stamp_w, top - 14, stamp_w, 15, 3, stroke=1, fill=0)
            c.setFont(FONT_BOLD, 8.5)
            c.drawCentredString(w - MARGIN - stamp_w / 2, top - 10, stamp)
        c.setFillColor(DARK)
        c.setFont(FONT, 9)
        line = self.title + (f" — {self.subtitle}" if self.subtitle else "")
        if self.section:
            line += f" · {self.section}"
        c.drawString(MARGIN, top - 24, line)
        c.setStrokeColor(LINE)
        c.setLineWidth(0.6)
        c.line(MARGIN, top - 29, w - MARGIN, top - 29)
        # Footer: when made, and the page out of the total (the total is a form filled in at the end).
        c.setFont(FONT, 7.5)
        if self.generated_at is not None:
            c.drawString(MARGIN, MARGIN - 2, f"{self.lab['generated']}: {self.generated_at:%d.%m.%Y %H:%M}")
        label = f"{self.lab['page']} {self.page} / "
        c.drawRightString(w - MARGIN - 16, MARGIN - 2, label)
        c.saveState()
        c.translate(w - MARGIN - 16, MARGIN - 2)
        c.doForm("pagetotal")
        c.restoreState()
        c.setFillColor(colors.black)
        return top - 42

    def heading(self, y: float, text: str, size: float = 14, right: str = "") -> float:
        if y - size - 6 < self.bottom:
            y = self.new_page()
        self.c.setFillColor(colors.black)
        self.c.setFont(FONT_BOLD, size)
        self.c.drawString(MARGIN, y - size, text)
        if right:
            self.c.setFont(FONT, size * 0.72)
            self.c.drawRightString(self.width - MARGIN, y - size, right)
        return y - size - 8

    def paragraph(
        self,
        y: float,
        text: str,
        size: float = 8.5,
        width: float | None = None,
        x: float = MARGIN,
        colour: Any = DARK,
    ) -> float:
        width = width or (self.width - 2 * MARGIN)
        self.c.setFont(FONT, size)
        self.c.setFillColor(colour)
        for line in wrap_text(text, FONT, size, width):
            if y - size * 1.3 < self.bottom:
                y = self.new_page()
                self.c.setFont(FONT, size)
                self.c.setFillColor(colour)
            self.c.drawString(x, y - size, line)
            y -= size * 1.3
        self.c.setFillColor(colors.black)
        return y - 2

    def table(
        self,
        y: float,
        cols: Sequence[Col],
        rows: Sequence[Row],
        *,
        x: float = MARGIN,
        width: float | None = None,
        size: float = 8.0,
        row_h: float | None = None,
        groups: Sequence[tuple[str, int]] | None = None,
        continued: Callable[[], float] | None = None,
        zebra: bool = True,
        min_rows_first: int = 3,
        fit_min: float | None = None,
    ) -> float:
        """Draw the rows under column titles (and title groups above them), page after page; return y below."""
        width = width or (self.width - x - MARGIN)
        widths, cols, head_h = _layout_head(cols, width, size)
        row_h = row_h or size * 1.55
        heads = 2 if groups else 1
        if fit_min is not None and rows:  # shrink the rows (down to fit_min) to keep the table on this page
            room = y - self.bottom - head_h * (2 if groups else 1) - 1
            row_h = max(fit_min, min(row_h, room / len(rows)))
        start = 0
        first = True
        while start < len(rows) or (first and not rows):
            room = y - self.bottom - head_h * heads
            fits = int(room // row_h)
            if fits < min(min_rows_first, len(rows) - start) or (fits < 1 and rows):
                y = continued() if continued else self.new_page()
                room = y - self.bottom - head_h * heads
                fits = max(1, int(room // row_h))
            chunk = rows[start : start + fits]
            y = self._draw_chunk(x, y, widths, cols, chunk, size, row_h, head_h, groups, zebra)
            start += len(chunk)
            first = False
            if not rows:
                break
        return y

    def _draw_chunk(
        self,
        x: float,
        y: float,
        widths: list[float],
        cols: Sequence[Col],
        rows: Sequence[Row],
        size: float,
        row_h: float,
        head_h: float,
        groups: Sequence[tuple[str, int]] | None,
        zebra: bool,
    ) -> float:
        c = self.c
        full_w = sum(widths)
        top = y
        edges = [x]
        for w in widths:
            edges.append(edges[-1] + w)
        # Column titles (with their groups above them).
        heads = 2 if groups else 1
        c.setFillColor(GREY)
        c.rect(x, y - head_h * heads, full_w, head_h * heads, stroke=0, fill=1)
        c.setFillColor(colors.black)
        # With groups, a column of an untitled group has its title over both header rows; the vertical
        # rules of the group row stand only at group boundaries.
        tall: set[int] = set()
        inner_edges: set[int] = set()
        if groups:
            i = 0
            for title, span in groups:
                gx0, gx1 = edges[i], edges[i + span]
                if title:
                    fs = _fit(title, FONT_BOLD, size, gx1 - gx0 - 4)
                    c.setFont(FONT_BOLD, fs)
                    c.drawCentredString((gx0 + gx1) / 2, y - head_h / 2 - fs * 0.35, title)
                    c.setStrokeColor(LINE)
                    c.setLineWidth(0.5)
                    c.line(gx0, y - head_h, gx1, y - head_h)
                    inner_edges.update(range(i + 1, i + span))
                else:
                    tall.update(range(i, i + span))
                i += span
        c.setFillColor(colors.black)
        for k, (col, x0, w) in enumerate(zip(cols, edges, widths, strict=False)):
            lines = col.title.split("\n")
            centre = y - head_h * heads / 2 if k in tall else y - head_h * (heads - 1) - head_h / 2
            ty = centre + (len(lines) - 1) * size * 0.5 - size * 0.35
            for line in lines:
                c.setFont(FONT_BOLD, _fit(line, FONT_BOLD, size * 0.92, w - 3))
                c.drawCentredString(x0 + w / 2, ty, line)
                ty -= size * 1.05
        y -= head_h * heads
        header_bottom_of_inner = top - head_h * (heads - 1)
        # Rows: shading first, then all the text in one text object, then the rules.
        body_top = y
        for i, row in enumerate(rows):
            if row.shade:
                c.setFillColor(GREY)
                c.rect(x, y - row_h * (i + 1), full_w, row_h, stroke=0, fill=1)
            elif zebra and i % 2 == 1:
                c.setFillColor(LIGHT)
                c.rect(x, y - row_h * (i + 1), full_w, row_h, stroke=0, fill=1)
        t = c.beginText()
        current: tuple[str, Any] = ("", None)
        pad = 2.5
        for i, row in enumerate(rows):
            base_y = y - row_h * (i + 1) + (row_h - size) / 2 + size * 0.18
            for col, x0, w, cell in zip(cols, edges, widths, row.cells, strict=False):
                if isinstance(cell, Cell):
                    text, bold, colour = cell.text, cell.bold or row.bold, cell.colour
                else:
                    text, bold, colour = cell, row.bold, None
                if not text:
                    continue
                font = FONT_BOLD if bold else FONT
                tw = text_width(text, font, size)
                if (
                    tw > w - 2 * pad
                ):  # too long: shrink this cell's text to fit, and cut it if even that fails
                    fs = max(4.5, size * (w - 2 * pad) / tw)
                    text = clip_text(text, font, fs, w - 2 * pad)
                    tw = text_width(text, font, fs)
                else:
                    fs = size
                if (font, fs) != current[0] or colour is not current[1]:
                    t.setFont(font, fs)
                    t.setFillColor(colour or colors.black)
                    current = ((font, fs), colour)  # type: ignore[assignment]
                if col.align == "r":
                    tx = x0 + w - pad - tw
                elif col.align == "c":
                    tx = x0 + (w - tw) / 2
                else:
                    tx = x0 + pad
                t.setTextOrigin(tx, base_y)
                t.textOut(text)
        c.drawText(t)
        c.setFillColor(colors.black)
        bottom = body_top - row_h * len(rows)
        c.setStrokeColor(LINE)
        c.setLineWidth(0.4)
        p = c.beginPath()
        for i in range(len(rows) + 1):
            p.moveTo(x, body_top - row_h * i)
            p.lineTo(x + full_w, body_top - row_h * i)
        for k, e in enumerate(edges):
            p.moveTo(e, header_bottom_of_inner if k in inner_edges else top)
            p.lineTo(e, bottom)
        c.drawPath(p, stroke=1, fill=0)
        for i, row in enumerate(rows):
            if row.rule:
                c.setStrokeColor(colors.black)
                c.setLineWidth(0.9)
                c.line(x, body_top - row_h * i, x + full_w, body_top - row_h * i)
        c.setStrokeColor(colors.black)
        c.setLineWidth(0.9)
        c.rect(x, bottom, full_w, top - bottom, stroke=1, fill=0)
        c.line(x, body_top, x + full_w, body_top)
        return bottom - 6

    def finish(self) -> bytes:
        """Close the last page and fill in the total number of pages on every page."""
        if not self.in_page:
            self.new_page()
        self.c.showPage()
        self.c.beginForm("pagetotal")
        self.c.setFont(FONT, 7.5)
        self.c.setFillColor(DARK)
        self.c.drawString(0, 0, str(self.page))
        self.c.endForm()
        try:
            self.c.save()
        finally:
            rl_config.useA85 = self._a85
        return self.buffer.getvalue()
