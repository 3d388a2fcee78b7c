"""What the director prints for a duplicate session's movement.

* Table cards (duplicate-rules §5: «such instructions must be put on every table»): one A4 page per table,
  for every round the set to play and the place of the director's row to take it from, and after the round
  where each seat goes («3S–2W» = S of table 3 goes to table 2, seat W); a QR code opens the table's
  protocol-entry page.
* The director's row of sets: per round, what lies at each place of the row (a table number, or Z when that
  set is not played), and where resting players sit next.
* Both carry a column «Отдыхает»: who sits out each round and where he sits again
  (``preferans.movements.rests``, the same list the seating page, the dashboard and the hand-over show).
* The seating of a session (issue 17): every round's tables with who sits at N, E, S, W (number and name) and
  the round's resting players, a round never split over two pages.

The PIN slips are :mod:`results.pdf_pin_slips`, the table of game costs :mod:`results.pdf_costs`, the QR code
:mod:`results.pdf_qr`.

The data come from the pure core: ``preferans.movements.table_cards`` / ``director_rows`` / ``rests``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reportlab.lib import colors  # type: ignore[import-untyped]

from boards.pdf.fonts import FONT, FONT_BOLD
from results.labels import labels
from results.pdf_common import DARK, MARGIN, Cell, Col, PdfDoc, Row, table_height
from results.pdf_qr import TableLink, draw_qr

__all__ = ["correction_note", "rest_text", "row_of_sets_pdf", "seating_pdf", "table_cards_pdf"]


# The note a printout carries when its route corrects a misprint of the book (preferans.movements.book_correction).
# Kept here, like results.labels, so that the file is in the tournament's language whatever the catalogues say.
CORRECTION_NOTES: dict[str, dict[str, str]] = {
    "book_misprint_16": {
        "ru": "Маршрут группы 2 (игроки 9–16, столы 3–4) исправляет опечатку книги: в книге напечатано "
        "{printed} (4S дважды, 3S нет); здесь используется {used} — маршрут для 8 участников, перенесённый "
        "на столы 3–4, № 16 постоянно на 3E.",
        "en": "The route of group 2 (players 9–16, tables 3–4) corrects a misprint of the book: the book prints "
        "{printed} (4S twice, 3S missing); used here is {used}, the 8-player route moved to tables 3–4 with "
        "No. 16 fixed at 3E.",
    },
}


def correction_note(movement: Any, lang: str) -> tuple[str, tuple[int, ...]] | None:
    """The printed note about a corrected misprint of the book, and the tables it concerns; None if none."""
    from preferans.movements import book_correction

    found = book_correction(movement)
    if found is None:
        return None
    reason, tables = found
    texts = CORRECTION_NOTES.get(reason.code)
    if texts is None:
        return str(reason), tables
    return texts["ru" if lang == "ru" else "en"].format(**reason.params), tables


# The column of who sits out each round (issue: nobody was told who rests and where he comes back). Kept here,
# like CORRECTION_NOTES, so that the file is in the tournament's language whatever the catalogues say.
REST_LABELS: dict[str, dict[str, str]] = {
    "ru": {"resting": "Отдыхает", "nobody": "—"},
    "en": {"resting": "Resting", "nobody": "—"},
}
# The seating (issue 17), kept here for the same reason.
PRINT_LABELS: dict[str, dict[str, str]] = {
    "ru": {"seating": "Рассадка", "resting_in": "Отдыхают"},
    "en": {"seating": "Seating", "resting_in": "Resting"},
}


def rest_text(found: Any, lab: Mapping[str, str], names: Mapping[int, str] | None = None) -> str:
    """Who rests in one round and where he sits again: «№ 13 → 2W» (next round), «№ 13 → тур 5: 2W» (later);
    with ``names``, «№ 13 Иванов → 2W»."""
    parts = []
    for r in found:
        text = f"{lab['number']} {r.participant}"
        if names and names.get(r.participant):
            text += f" {names[r.participant]}"
        if r.back is not None:
            seat = f"{lab['room']} {r.back.room}, {r.back.seat}" if r.back.room > 1 else str(r.back.seat)
            text += f" → {seat}" if r.back_next_round else f" → {lab['round'].lower()} {r.back.round}: {seat}"
        parts.append(text)
    return ", ".join(parts)


def _move_text(move: str, lab: Mapping[str, str]) -> str:
    if move.endswith(" stays"):
        return f"{move[:-6]} {lab['stays']}"
    if move.endswith("–P"):
        return f"{move} ({lab['rest']})"
    return move


def _heading_size(name: str, link: TableLink | None, lab: Mapping[str, str], right: float) -> float:
    """The card's heading («Стол 3 · Зал 2») as large as fits left of the code and its caption (34 pt at most)."""
    from reportlab.pdfbase.pdfmetrics import stringWidth  # type: ignore[import-untyped]

    if link is None:
        return 34.0
    caption = max(
        stringWidth(f"{lab['table_code']}: {link.code}", FONT_BOLD, 12),
        stringWidth(lab["scan_to_enter"], FONT, 7.5),
        stringWidth(link.url, FONT, 7.5),
    )
    room = right - caption - 12 - MARGIN
    size = 34.0
    while size > 14 and stringWidth(name, FONT_BOLD, size) > room:
        size -= 1
    return size


def table_cards_pdf(
    movement: Any,
    *,
    tournament: str,
    publication: str,
    session: int,
    lang: str,
    links: Mapping[tuple[int, int], TableLink] | None = None,
    generated_at: Any = None,
) -> bytes:
    """One page per table (and room): rounds, sets, row places, moves after each round, QR to the entry page."""
    from preferans.movements import rests, table_cards

    lab = labels(lang)
    rest_lab = REST_LABELS["ru" if lang == "ru" else "en"]
    resting = rests(movement)
    any_rest = any(resting.values())
    rest_chars = max((len(rest_text(found, lab)) for found in resting.values()), default=0)
    doc = PdfDoc(
        title=lab["table_cards"],
        tournament=tournament,
        publication="",
        lang=lang,
        generated_at=generated_at,
        subtitle=f"{lab['session']} {session}",
    )
    seats = [str(line) for line in movement.lines]
    correction = correction_note(movement, lang)
    for card in table_cards(movement):
        name = f"{lab['table']} {card.table}" + (
            f" · {lab['room']} {card.room}" if movement.rooms > 1 else ""
        )
        y = doc.new_page(name)
        c = doc.c
        link = (links or {}).get((card.room, card.table))
        qr_size = 92.0
        c.setFont(FONT_BOLD, _heading_size(name, link, lab, doc.width - MARGIN - qr_size - 8))
        c.drawString(MARGIN, y - 34, name)
        c.setFont(FONT, 10)
        c.setFillColor(DARK)
        c.drawString(MARGIN, y - 52, f"{lab['session']} {session} · {lab['rounds_n']}: {len(card.rounds)}")
        c.setFillColor(colors.black)
        if link is not None:
            qx = doc.width - MARGIN - qr_size
            draw_qr(c, link.url, qx, y - qr_size, qr_size)
            c.setFont(FONT_BOLD, 12)
            c.drawRightString(qx - 8, y - 14, f"{lab['table_code']}: {link.code}")
            c.setFont(FONT, 7.5)
            c.setFillColor(DARK)
            words = lab["scan_to_enter"]
            c.drawRightString(qx - 8, y - 30, words)
            c.drawRightString(qx - 8, y - 41, link.url)
            c.setFillColor(colors.black)
        y -= max(64, qr_size + 8) if link is not None else 64
        y = doc.paragraph(y, lab["card_rules"], size=8.5)
        if correction is not None and card.table in correction[1]:
            y = doc.paragraph(y, correction[0], size=8.5, colour=colors.black)
        cols = [
            Col(lab["round"], 7, "c"),
            Col(lab["set"], 8, "c"),
            Col(lab["take_set"].replace(": ", ":\n"), 16, "c"),
        ]
        if any_rest:  # as wide as its longest line (three resting players need more room than one)
            cols.append(Col(rest_lab["resting"], max(16.0, 1.3 * rest_chars), "c"))
        cols += [Col(seat, 14, "c") for seat in seats]
        groups = [("", len(cols) - len(seats)), (lab["then"], len(seats))]
        rows: list[Row] = []
        for entry in card.rounds:
            moves = {m.split("–")[0].split(" ")[0][-1]: m for m in entry.moves}
            cells: list[str | Cell] = [
                Cell(str(entry.round), bold=True),
                Cell(str(entry.set), bold=True),
                Cell(str(entry.place), bold=True),
            ]
            if any_rest:
                cells.append(rest_text(resting.get(entry.round, ()), lab) or rest_lab["nobody"])
            if entry.moves:
                cells += [_move_text(moves[s], lab) if s in moves else "" for s in seats]
            else:
                cells += [lab["last_round"]] + [""] * (len(seats) - 1)
            rows.append(Row(cells))
        dense = len(rows) > 30
        doc.table(y - 4, cols, rows, size=8.5 if dense else 10, row_h=20.0, fit_min=9.5, groups=groups)
    return doc.finish()


def row_of_sets_pdf(
    movement: Any, *, tournament: str, session: int, lang: str, generated_at: Any = None
) -> bytes:
    """The director's row of sets, round by round (Z = not played; a number = the table taking that set)."""
    from preferans.movements import director_rows, rests

    lab = labels(lang)
    rest_lab = REST_LABELS["ru" if lang == "ru" else "en"]
    resting = rests(movement)
    any_rest = any(resting.values())
    doc = PdfDoc(
        title=lab["row_of_sets"],
        tournament=tournament,
        publication="",
        lang=lang,
        landscape=True,
        generated_at=generated_at,
        subtitle=f"{lab['session']} {session}",
    )
    y = doc.new_page()
    y = doc.heading(
        y, lab["row_of_sets"], right=f"{lab['session']} {session} · {lab['sets_n']}: {movement.sets}"
    )
    y = doc.paragraph(y, lab["row_rules"], size=8.5)
    correction = correction_note(movement, lang)
    if correction is not None:
        y = doc.paragraph(y, correction[0], size=8.5, colour=colors.black)
    rows_data = director_rows(movement)
    many_rooms = movement.rooms > 1
    cols = [Col(lab["round"], 1.6 * 16, "c")]
    if many_rooms:
        cols.append(Col(lab["room"], 20, "c"))
    cols += [Col(str(place), 16, "c") for place in range(1, movement.sets + 1)]
    rest_w = max(48.0, 2.3 * max((len(rest_text(found, lab)) for found in resting.values()), default=0))
    if any_rest:  # as wide as its longest line
        cols.append(Col(rest_lab["resting"], rest_w, "c"))
    rows: list[Row] = []
    for rr in rows_data:
        cells: list[str | Cell] = [Cell(str(rr.round), bold=True)]
        if many_rooms:
            cells.append(str(rr.room))
        cells += [
            Cell("Z", colour=colors.Color(0.6, 0.6, 0.6)) if p == "Z" else Cell(p, bold=True)
            for p in rr.places
        ]
        if any_rest:  # the round's resting players, named in the first room's line only
            cells.append(rest_text(resting.get(rr.round, ()), lab) if rr.room == 1 else "")
        rows.append(Row(cells))
    groups = [("", len(cols) - movement.sets - int(any_rest)), (lab["place_in_row"], movement.sets)]
    if any_rest:
        groups.append(("", 1))
    width = min(doc.width - 2 * MARGIN, 70.0 + 40.0 * movement.sets + (2.5 * rest_w if any_rest else 0.0))
    y = doc.table(
        y - 2,
        cols,
        rows,
        width=width,
        size=8.5 if movement.sets > 30 else 10,
        row_h=16.0,
        fit_min=8.6,
        groups=groups,
    )
    back = [(rr, text) for rr in rows_data for text in rr.returning]
    if back:
        y = doc.heading(y - 4, lab["resting_back"], size=11)
        room_word = lab["room"]
        items = [
            f"{lab['round']} {rr.round}"
            + (f" ({room_word} {rr.room})" if many_rooms else "")
            + ": "
            + text.replace("No. ", lab["number"] + " ")
            for rr, text in back
        ]
        y = doc.paragraph(y, ";   ".join(items), size=8.5)
    return doc.finish()


# -- seating -----------------------------------------------------------------------------------------------
def _seat_place(room: int, table: int, many_rooms: bool, lab: Mapping[str, str]) -> str:
    return (f"{lab['room']} {room} · " if many_rooms else "") + f"{lab['table']} {table}"


def seating_pdf(
    movement: Any,
    *,
    tournament: str,
    session: int,
    names: Mapping[int, str],
    lang: str,
    rounds: Sequence[int] | None = None,
    generated_at: Any = None,
) -> bytes:
    """Every round (or the ``rounds`` asked for): table, set and the participant at each seat, then who rests."""
    from preferans.movements import rests

    lab = labels(lang)
    words = PRINT_LABELS["ru" if lang == "ru" else "en"]
    resting = rests(movement)
    many_rooms = movement.rooms > 1
    seats = [str(line) for line in movement.lines]
    # Four seats of names need the width of a landscape page to stay readable (three fit a portrait one).
    doc = PdfDoc(
        title=words["seating"],
        tournament=tournament,
        publication="",
        lang=lang,
        generated_at=generated_at,
        subtitle=f"{lab['session']} {session}",
        landscape=len(seats) == 4,
    )
    cols = ([Col(lab["room"], 7, "c")] if many_rooms else []) + [
        Col(lab["table"], 7, "c"),
        Col(lab["set"], 8, "c"),
    ]
    cols += [Col(seat, 30) for seat in seats]
    width, size, row_h = doc.width - 2 * MARGIN, 9.0, 15.0
    y = doc.new_page()
    for rnd in movement.rounds:
        if rounds and rnd.number not in rounds:
            continue
        rows: list[Row] = []
        for ta in sorted(rnd.tables, key=lambda ta: (ta.room, ta.table)):
            at = {str(line): p for line, p in ta.seats}
            cells: list[str | Cell] = [str(ta.room)] if many_rooms else []
            cells += [Cell(str(ta.table), bold=True), str(ta.set)]
            cells += [
                Cell(f"{at[s]}  {names.get(at[s], '')}".strip(), bold=True) if s in at else "" for s in seats
            ]
            rows.append(Row(cells))
        rest_line = rest_text(resting.get(rnd.number, ()), lab, names)
        need = (
            22 + table_height(cols, len(rows), width=width, size=size, row_h=row_h) + (14 if rest_line else 0)
        )
        if (
            y - need < doc.bottom and y < doc.height - MARGIN - 42
        ):  # a round is never split (unless taller than a page)
            y = doc.new_page()
        y = doc.heading(y, f"{lab['round']} {rnd.number}", size=12)
        y = doc.table(y, cols, rows, width=width, size=size, row_h=row_h, min_rows_first=len(rows))
        if rest_line:
            y = doc.paragraph(y + 2, f"{words['resting_in']}: {rest_line}", size=8.5, colour=colors.black)
        y -= 6
    return doc.finish()
