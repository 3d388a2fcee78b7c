"""The printed files of a pulka event: the standings, the Olympic bracket, a round's seating (to read aloud and
pin on the wall) and every table's pulka sheet of a round. (A round's table cards: :mod:`.table_cards`.)

Drawn with the duplicate files' page frame (:class:`results.pdf_common.PdfDoc`: the tournament, what the page
is, the publication stamp, page numbers, when it was made) in the project's embedded DejaVu font, so Russian
names render everywhere. Numbers are the exact values rounded half-up for print with two places (``5,33``,
``12,00``, a typographic minus), as on the pages (``ui.templatetags.scores.vists_text``).
"""

from __future__ import annotations

import datetime as dt
import io
import re
from dataclasses import dataclass

from reportlab.lib import colors  # type: ignore[import-untyped]
from reportlab.lib.pagesizes import A4  # type: ignore[import-untyped]
from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]

from boards.pdf.fonts import FONT, FONT_BOLD, register_fonts
from boards.pdf.text import text_width
from pulkas.services.sheet import load_sheet
from results.pdf_common import DARK, GREY, LINE, MARGIN, Cell, Col, PdfDoc, Row
from results.pulka_exports.labels import form_name, pulka_labels, sheet_labels
from results.pulka_exports.model import EventView, RoundView, TableView, ratings_before
from results.pulka_exports.workbook import round_title, table_state
from ui import pulka_sheet_pdf as sheet_pdf
from ui.pulka_shapes import clean, fit_text, wrap_text
from ui.templatetags.scores import vists_text

__all__ = ["bracket_pdf", "seating_pdf", "sheets_pdf", "standings_pdf"]

GREEN = colors.Color(0.89, 0.96, 0.91)
GOLD = colors.Color(1.0, 0.96, 0.84)
ARROW = "→"
STAR = "★"


def _doc(view: EventView, title: str, lang: str, now: dt.datetime, *, landscape: bool = False) -> PdfDoc:
    t = view.tournament
    subtitle = " · ".join(
        x for x in (f"{t.starts_on:%d.%m.%Y}" if t.starts_on else "", form_name(t.form, lang)) if x
    )
    return PdfDoc(
        title=title,
        tournament=t.name,
        publication=t.publication,
        lang=lang,
        landscape=landscape,
        generated_at=now,
        subtitle=subtitle,
    )


# -- standings -----------------------------------------------------------------------------------------------
def standings_pdf(view: EventView, *, lang: str, now: dt.datetime) -> bytes:
    lab = pulka_labels(lang)
    title = lab["standings"] if view.olympic else lab["rating_table"]
    doc = _doc(view, title, lang, now, landscape=len(view.rounds) > 5)
    y = doc.heading(doc.new_page(), title)
    if not view.rounds:
        doc.paragraph(y, lab["no_rounds"], size=11)
        return doc.finish()
    event = view.event
    if view.olympic:
        note = lab["olympic_rule"]
    else:
        note = lab["rating_per_deal"] if event.rating_base == "per_deal" else lab["rating_vists"]
        if event.compression_threshold:
            note += " " + lab["compression"].format(
                t=event.compression_threshold, d=event.compression_divisor or 2
            )
        note += " " + lab["order_rule"]
    y = doc.paragraph(y, note, size=8)
    cols = [Col(lab["place"], 6, "c"), Col(lab["number"], 5, "r"), Col(lab["name"], 28)]
    rows: list[Row] = []
    if view.olympic:
        cols.append(Col(lab["reached"], 14))
        cols += [Col(round_title(r, lang), 11, "r") for r in view.rounds]
        for line in view.standings.lines:
            p = line.participant
            reached = lab["out_in"].format(n=line.out_in_round) if line.out_in_round else lab["reached_final"]
            cells: list[str | Cell] = [line.place, str(p.number), p.name, reached if line.place else ""]
            for r in view.rounds:
                found = r.table_of(p.pk)
                if found is None:
                    cells.append(lab["bye"] if any(b.pk == p.pk for b in r.byes) else lab["not_played"])
                    continue
                table, seat = found
                text = f"{seat.rank} · {vists_text(seat.vists, lang)}" if table.started else ""
                cells.append(Cell(text, bold=seat.went_on or seat.winner))
            rows.append(Row(cells))
    else:
        cols += [Col(round_title(r, lang), 9, "r") for r in view.rounds]
        cols += [Col(lab["total"], 10, "r"), Col(lab["vists"], 10, "r")]
        cut_drawn = False
        for line in view.standings.lines:
            p = line.participant
            grey = DARK if line.cut else None
            cells = [
                Cell(line.place, colour=grey),
                Cell(str(p.number), colour=grey),
                Cell(p.name, colour=grey),
            ]
            for i, r in enumerate(view.rounds):
                rating = line.ratings[i] if i < len(line.ratings) else None
                if r.number in line.byes:
                    cells.append(Cell(lab["bye"], colour=grey))
                else:
                    cells.append(
                        Cell(
                            vists_text(rating, lang) if rating is not None else lab["not_played"], colour=grey
                        )
                    )
            cells += [
                Cell(vists_text(line.total, lang), bold=True, colour=grey),
                Cell(vists_text(line.vists, lang), colour=grey),
            ]
            rows.append(Row(cells, rule=line.cut and not cut_drawn))
            cut_drawn = cut_drawn or line.cut
    y = doc.table(y, cols, rows, size=9, row_h=14.5)
    if any(line.cut for line in view.standings.lines):
        doc.paragraph(y, lab["cut_line"].format(n=event.cut_after), size=8)
    return doc.finish()


# -- the Olympic bracket ---------------------------------------------------------------------------------------
HEAD_H, ROW_H, GAP, GAP_X = 14.0, 13.0, 7.0, 14.0  # a box's head and row, between boxes, between columns
SEAT_W, PAD = 14.0, 4.0  # the seat letter's column; a box's inner margin and the space between its columns
BASE, BELOW = 9.2, 3.8  # a row's first baseline below its top, its last baseline above its bottom
NAME_SIZES = (8.0, 7.5, 7.0, 6.5)  # a name's type: smaller only when it must
BESIDE_SIZES = NAME_SIZES[:2]  # beside the figures; a name needing smaller type there goes on under them


def _measure(text: str, size: float, bold: bool = False) -> float:
    return float(text_width(text, FONT_BOLD if bold else FONT, size))


@dataclass(frozen=True)
class _Line:
    """One row of a box: a player's name in as many lines as it takes (in ``size`` pt), his figures."""

    seat: str
    name: list[str]
    size: float
    vists: str
    rank: str
    went_on: bool
    winner: bool

    @property
    def height(self) -> float:
        return max(ROW_H, BASE + (len(self.name) - 1) * _leading(self.size) + BELOW)


@dataclass(frozen=True)
class _Box:
    """A table's box (or the round's byes'): its head, the table's state, its rows, its figures' widths."""

    head: str
    state: str
    lines: list[_Line]
    vists_w: float
    rank_w: float

    @property
    def height(self) -> float:
        return HEAD_H + sum(line.height for line in self.lines)


def _leading(size: float) -> float:
    return round(size * 1.15, 2)


def name_lines(
    name: str, width: float, bold: bool = False, mark: str = "", beside: float = 0.0
) -> tuple[float, list[str]]:
    """A name (after its ``mark``) as the bracket prints it in a row ``width`` points wide whose first line
    keeps ``beside`` points on the right for the figures, and in what size. Beside the figures: on one line at
    8 pt if it fits, else on two lines cut between words or after a hyphen, in the larger type of
    :data:`BESIDE_SIZES` that allows it. A name that no two such lines hold (a narrow column) goes on under
    the figures, over the row's whole width: in the largest type of :data:`NAME_SIZES` that keeps its words
    whole, at worst in the smallest with a word too long for the row cut between letters
    (:func:`wrap_text`). Every letter is printed: a name is never cut short."""
    parts = [part for word in name.split() for part in re.findall(r"[^-]+-*|-+", word)]

    def whole(size: float, room: float) -> bool:  # no word cut between its letters
        return all(_measure(part, size, bold) <= room for part in parts)

    def wrap(size: float, room: float, indent: float) -> list[str]:
        lines = wrap_text(name, room, size, _measure, bold, indent + _measure(mark, size, bold))
        return [mark + lines[0], *lines[1:]]

    for size in BESIDE_SIZES:
        if whole(size, width - beside):
            lines = wrap(size, width - beside, 0.0)
            if len(lines) <= 2 and lines[0] != mark:
                return size, lines
    for size in NAME_SIZES:
        if whole(size, width):
            return size, wrap(size, width, beside)
    return NAME_SIZES[-1], wrap(NAME_SIZES[-1], width, beside)


def _box(table: TableView | None, r: RoundView, w: float, lang: str) -> _Box:
    """A table's box (``None``: the round's byes) laid out for a column ``w`` points wide: the figures' columns
    as wide as their widest text, the rest for the names."""
    lab = pulka_labels(lang)
    if table is None:
        head, state = lab["byes"], ""
        rows = [("", p.name or str(p.number), "", "", True, False) for p in r.byes]
    else:
        head, state = lab["table_n"].format(n=table.number), table_state(table, lang)
        rows = [
            (
                s.seat,
                s.participant.name or str(s.participant.number),
                vists_text(s.vists, lang) if table.started else "",
                s.rank if table.started else "",
                s.went_on,
                s.winner,
            )
            for s in table.by_rank
        ]
    vists_w = max((_measure(row[2], 8) for row in rows), default=0.0)
    rank_w = max((_measure(row[3], 8, True) for row in rows), default=0.0)
    beside = (vists_w + PAD if vists_w else 0.0) + (rank_w + PAD if rank_w else 0.0)
    lines = []
    for seat, name, vists, rank, went_on, winner in rows:
        mark = f"{STAR} " if winner else f"{ARROW} " if went_on else ""
        size, text = name_lines(clean(name), w - PAD - SEAT_W - PAD, went_on or winner, mark, beside)
        lines.append(_Line(seat, text, size, vists, rank, went_on, winner))
    return _Box(head, state, lines, vists_w, rank_w)


def _pages(boxes: list[_Box], room: float) -> list[list[_Box]]:
    """A column's boxes split into the pages they fill, each page holding as many as its ``room`` allows (at
    least one)."""
    pages: list[list[_Box]] = [[]]
    used = GAP
    for box in boxes:
        if pages[-1] and used + box.height + GAP > room:
            pages.append([])
            used = GAP
        pages[-1].append(box)
        used += box.height + GAP
    return pages


def bracket_pdf(view: EventView, *, lang: str, now: dt.datetime) -> bytes:
    """Rounds as columns, each table a box (seat, player, vists, place), who went on in bold on green with an
    arrow, every name whole (on two lines when long); a column too long for the page continues on the next
    page (the later rounds are on the first)."""
    lab = pulka_labels(lang)
    doc = _doc(view, lab["bracket"], lang, now, landscape=True)
    y0 = doc.heading(doc.new_page(), lab["bracket"])
    if not view.rounds:
        doc.paragraph(y0, lab["no_rounds"], size=11)
        return doc.finish()
    y0 = doc.paragraph(y0, lab["legend"], size=8) - 4
    columns = view.rounds
    width = doc.width - 2 * MARGIN
    col_w = (width - GAP_X * (len(columns) - 1)) / len(columns)
    boxes = [[_box(t, r, col_w, lang) for t in [*r.tables, *([None] if r.byes else [])]] for r in columns]
    chunks = [_pages(col, y0 - doc.bottom - 16) for col in boxes]
    for page in range(max(len(col) for col in chunks)):
        top = y0 if page == 0 else doc.new_page() - 4
        for k, (r, col) in enumerate(zip(columns, chunks, strict=True)):
            x = MARGIN + k * (col_w + GAP_X)
            doc.c.setFillColor(colors.black)
            doc.c.setFont(FONT_BOLD, 10.5)
            doc.c.drawString(x, top - 10, round_title(r, lang))
            if page >= len(col) or not col[page]:
                continue
            chunk = col[page]
            room = top - 16 - doc.bottom
            used = sum(b.height for b in chunk)
            space = max(GAP, (room - used) / (len(chunk) + 1))  # spread down the column like a bracket
            y = top - 16 - space
            for box in chunk:
                y = _draw_box(doc, box, r.final, x, y, col_w) - space
    return doc.finish()


def _draw_box(doc: PdfDoc, box: _Box, final: bool, x: float, y: float, w: float) -> float:
    c = doc.c
    c.setFillColor(GREY)
    c.rect(x, y - HEAD_H, w, HEAD_H, stroke=0, fill=1)
    c.setFillColor(colors.black)
    c.setFont(FONT_BOLD, 8.5)
    c.drawString(x + PAD, y - HEAD_H + 4, box.head)
    if box.state:
        c.setFont(FONT, 6.8)
        c.setFillColor(DARK)
        room = w - _measure(box.head, 8.5, True) - 3 * PAD - 2
        c.drawRightString(x + w - PAD, y - HEAD_H + 4, fit_text(box.state, room, 6.8, _measure))
    top = y - HEAD_H
    for line in box.lines:
        h = line.height
        if line.went_on or line.winner:
            c.setFillColor(GOLD if line.winner else GREEN)
            c.rect(x, top - h, w, h, stroke=0, fill=1)
        base = top - BASE
        c.setFillColor(DARK)
        c.setFont(FONT, 8)
        if line.seat:
            c.drawString(x + PAD, base, line.seat)
        c.setFillColor(colors.black)
        c.setFont(FONT_BOLD if line.went_on or line.winner else FONT, line.size)
        for i, text in enumerate(line.name):
            c.drawString(x + PAD + SEAT_W, base - i * _leading(line.size), text)
        c.setFont(FONT, 8)
        c.drawRightString(x + w - PAD - (box.rank_w + PAD if box.rank_w else 0), base, line.vists)
        c.setFont(FONT_BOLD, 8)
        c.drawRightString(x + w - PAD, base, line.rank)
        top -= h
    c.setStrokeColor(LINE)
    c.setLineWidth(0.4)
    top = y - HEAD_H
    for line in box.lines:
        c.line(x, top, x + w, top)
        top -= line.height
    c.setStrokeColor(colors.Color(0.6, 0.48, 0.1) if final else colors.black)
    c.setLineWidth(1.4 if final else 0.8)
    c.rect(x, y - box.height, w, box.height, stroke=1, fill=0)
    return y - box.height


# -- seating of a round ----------------------------------------------------------------------------------------
def seating_pdf(view: EventView, r: RoundView, *, lang: str, now: dt.datetime) -> bytes:
    """The table assignment of round ``r``: by table with its code (to read aloud: «table 1, code K7M2QX: N …,
    E …»), then every player by name with his table and seat (to pin on the wall)."""
    lab = pulka_labels(lang)
    title = lab["seating_final"] if r.final else lab["seating_of"].format(n=r.number)
    doc = _doc(view, title, lang, now)
    y = doc.heading(doc.new_page(), title, size=16)
    by_rating = r.pulka_round.drawn_by in (
        "rating",
        "swiss",
    )  # both show the rating each player was seated by
    how = {"rating": "seated_by_rating", "swiss": "seated_by_swiss"}.get(
        r.pulka_round.drawn_by, "seated_by_lot"
    )
    y = doc.paragraph(y, f"{lab['seating']}: {lab[how]}.")
    before = ratings_before(view.standings, r.number) if by_rating else {}
    cols = [
        Col(lab["table"], 8, "c"),
        Col(lab["table_code"], 12, "c"),
        Col(lab["seat"], 9, "c"),
        Col(lab["name"], 44),
        Col(lab["number"], 7, "r"),
    ]
    if by_rating:
        cols.append(Col(lab["rating_before"], 16, "r"))
    rows: list[Row] = []
    for table in r.tables:
        for i, s in enumerate(table.seats):
            cells: list[str | Cell] = [
                Cell(str(table.number) if i == 0 else "", bold=True),
                Cell(table.table.code if i == 0 else "", bold=True),
                Cell(s.seat, bold=True),
                s.participant.name or str(s.participant.number),
                str(s.participant.number),
            ]
            if by_rating:
                cells.append(vists_text(before.get(s.participant.pk), lang))
            rows.append(Row(cells, rule=i == 0))
    y = doc.heading(y - 4, lab["by_table"], size=12)
    y = doc.table(y, cols, rows, size=11, row_h=18, zebra=False)
    if r.byes:
        y = doc.paragraph(y, f"{lab['byes']}: " + ", ".join(p.name or str(p.number) for p in r.byes), size=10)
    people = [(s.participant, str(t.number), s.seat) for t in r.tables for s in t.seats]
    people += [(p, lab["bye"], "") for p in r.byes]
    people.sort(key=lambda x: ((x[0].name or "").casefold(), x[0].number))
    y = doc.heading(y - 6, lab["by_name"], size=12)
    cols = [
        Col(lab["name"], 40),
        Col(lab["number"], 8, "r"),
        Col(lab["table"], 10, "c"),
        Col(lab["seat"], 10, "c"),
    ]
    rows = [
        Row([p.name, str(p.number), Cell(table, bold=True), Cell(seat, bold=True)])
        for p, table, seat in people
    ]
    doc.table(y, cols, rows, size=10, row_h=16)
    return doc.finish()


# -- the pulka sheets of a round -------------------------------------------------------------------------------
def sheets_pdf(view: EventView, r: RoundView, *, lang: str, now: dt.datetime) -> bytes:
    """One A4 page per table of the round: the sheet as drawn on paper, the final figures and every deal
    (:mod:`ui.pulka_sheet_pdf`), all in one file to print."""
    lab = pulka_labels(lang)
    words = sheet_labels(lang)
    register_fonts()
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=A4, pageCompression=1, initialFontName=FONT)
    c.setTitle(f"{view.tournament.name} — {lab['sheets'].format(n=r.number)}")
    c.setAuthor(view.tournament.name)
    for table in r.tables:
        score = load_sheet(table.table, event=view.event).score()
        names = {s.seat: f"{s.participant.number} {s.participant.name}".strip() for s in table.seats}
        title = f"{view.tournament.name} · {round_title(r, lang)} · {lab['table_n'].format(n=table.number)}"
        sheet_pdf.draw_sheet_page(c, score, names=names, labels=words, title=title)
        c.showPage()
    if not r.tables:
        c.showPage()
    c.save()
    return buffer.getvalue()
