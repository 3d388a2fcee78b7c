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
ROW_H, HEAD_H, GAP = 13.0, 14.0, 7.0


def _box_height(table: TableView) -> float:
    return HEAD_H + ROW_H * len(table.seats)


def bracket_pdf(view: EventView, *, lang: str, now: dt.datetime) -> bytes:
    """Rounds as columns, each table a box (seat, player, vists, place), who went on in bold on green with an
    arrow; a column too long for the page continues on the next page (the later rounds are on the first)."""
    lab = pulka_labels(lang)
    doc = _doc(view, lab["bracket"], lang, now, landscape=True)
    y0 = doc.heading(doc.new_page(), lab["bracket"])
    if not view.rounds:
        doc.paragraph(y0, lab["no_rounds"], size=11)
        return doc.finish()
    y0 = doc.paragraph(y0, lab["legend"], size=8) - 4
    columns = view.rounds
    width = doc.width - 2 * MARGIN
    gap_x = 14.0
    col_w = (width - gap_x * (len(columns) - 1)) / len(columns)
    box_h = max((_box_height(t) for r in columns for t in r.tables), default=HEAD_H) + GAP
    capacity = max(1, int((y0 - doc.bottom - 16) // box_h))
    pages = max(-(-(len(r.tables) + bool(r.byes)) // capacity) for r in columns)
    for page in range(pages):
        top = y0 if page == 0 else doc.new_page() - 4
        for k, r in enumerate(columns):
            x = MARGIN + k * (col_w + gap_x)
            items: list[TableView | None] = [*r.tables, *([None] if r.byes else [])]  # None: the byes' box
            chunk = items[page * capacity : (page + 1) * capacity]
            doc.c.setFillColor(colors.black)
            doc.c.setFont(FONT_BOLD, 10.5)
            doc.c.drawString(x, top - 10, round_title(r, lang))
            if not chunk:
                continue
            room = top - 16 - doc.bottom
            used = sum((_box_height(t) if t else HEAD_H + ROW_H * len(r.byes)) for t in chunk)
            space = max(GAP, (room - used) / (len(chunk) + 1))  # spread down the column like a bracket
            y = top - 16 - space
            for item in chunk:
                y = _draw_box(doc, item, r, x, y, col_w, lang) - space
    return doc.finish()


def _draw_box(
    doc: PdfDoc, table: TableView | None, r: RoundView, x: float, y: float, w: float, lang: str
) -> float:
    lab = pulka_labels(lang)
    c = doc.c
    if table is None:
        head, state = lab["byes"], ""
        lines = [(None, p.name or str(p.number), "", "", True, False) for p in r.byes]
    else:
        head, state = lab["table_n"].format(n=table.number), table_state(table, lang)
        lines = [
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
    h = HEAD_H + ROW_H * len(lines)
    c.setFillColor(GREY)
    c.rect(x, y - HEAD_H, w, HEAD_H, stroke=0, fill=1)
    for i, line in enumerate(lines):
        if line[4] or line[5]:
            c.setFillColor(GOLD if line[5] else GREEN)
            c.rect(x, y - HEAD_H - ROW_H * (i + 1), w, ROW_H, stroke=0, fill=1)
    c.setFillColor(colors.black)
    c.setFont(FONT_BOLD, 8.5)
    c.drawString(x + 4, y - HEAD_H + 4, head)
    if state:
        c.setFont(FONT, 6.8)
        c.setFillColor(DARK)
        c.drawRightString(
            x + w - 4, y - HEAD_H + 4, _fit(state, FONT, 6.8, w - text_width(head, FONT_BOLD, 8.5) - 14)
        )
    seat_w, rank_w, vists_w = 14.0, 22.0, 40.0
    for i, (seat, name, vists, rank, went_on, winner) in enumerate(lines):
        base = y - HEAD_H - ROW_H * (i + 1) + 3.8
        font = FONT_BOLD if went_on or winner else FONT
        c.setFillColor(DARK)
        c.setFont(FONT, 8)
        if seat:
            c.drawString(x + 4, base, seat)
        c.setFillColor(colors.black)
        c.setFont(font, 8)
        mark = f"{STAR} " if winner else f"{ARROW} " if went_on else ""
        c.drawString(x + 4 + seat_w, base, _fit(mark + name, font, 8, w - seat_w - rank_w - vists_w - 10))
        c.setFont(FONT, 8)
        c.drawRightString(x + w - rank_w - 4, base, vists)
        c.setFont(FONT_BOLD, 8)
        c.drawRightString(x + w - 4, base, rank)
    c.setStrokeColor(LINE)
    c.setLineWidth(0.4)
    for i in range(len(lines)):
        c.line(x, y - HEAD_H - ROW_H * i, x + w, y - HEAD_H - ROW_H * i)
    c.setStrokeColor(colors.Color(0.6, 0.48, 0.1) if r.final else colors.black)
    c.setLineWidth(1.4 if r.final else 0.8)
    c.rect(x, y - h, w, h, stroke=1, fill=0)
    return y - h


def _fit(text: str, font: str, size: float, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width``."""
    if text_width(text, font, size) <= width:
        return text
    while text and text_width(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


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
