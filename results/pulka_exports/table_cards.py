"""The table cards of a pulka event's round: one A4 page per table, to stand on it.

Each card names the event, the round and the table in large type, carries a QR code of the table's sheet page
(``/pulka/<code>/``, the address in full with the site's host when the file is made from the exports page), the
table's code to type, the address, and who sits at which seat (the first dealer marked). Drawn in the results'
page frame (:class:`results.pdf_common.PdfDoc`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping

from reportlab.lib import colors  # type: ignore[import-untyped]

from boards.pdf.fonts import FONT, FONT_BOLD
from boards.pdf.text import text_width
from results.pdf_common import DARK, MARGIN, Cell, Col, PdfDoc, Row
from results.pdf_qr import TableLink, draw_qr
from results.pulka_exports.labels import pulka_labels
from results.pulka_exports.model import EventView, RoundView
from results.pulka_exports.workbook import round_title

__all__ = ["CARD_LABELS", "table_cards_pdf"]

# The cards' own words, kept here like the other printed files' (the file's language, whatever the catalogues say).
CARD_LABELS: Mapping[str, Mapping[str, str]] = {
    "ru": {
        "scan": "Пулька стола: отсканируйте код камерой телефона или откройте адрес",
        "write": "Сдачи записывает и подтверждает каждый игрок стола своим номером и PIN.",
        "first_dealer": "первым сдаёт",
        "no_tables": "В этом туре нет столов.",
    },
    "en": {
        "scan": "The table's pulka: scan the code with a phone's camera or open the address",
        "write": "Each player of the table writes and confirms deals with his number and PIN.",
        "first_dealer": "deals first",
        "no_tables": "This round has no tables.",
    },
}


def _fitted(text: str, font: str, size: float, width: float) -> float:
    """The largest size up to ``size`` at which ``text`` fits in ``width``."""
    wide = text_width(text, font, size)
    return size if wide <= width else max(6.0, size * width / wide)


def table_cards_pdf(
    view: EventView,
    r: RoundView,
    *,
    link: Callable[[str], TableLink],
    lang: str,
    now: dt.datetime,
) -> bytes:
    """One page per table of round ``r``; ``link(code)`` gives a table's code and the address its QR opens."""
    lab = pulka_labels(lang)
    words = CARD_LABELS["ru" if lang == "ru" else "en"]
    title = round_title(r, lang)
    doc = PdfDoc(
        title=lab["table_cards"],
        tournament=view.tournament.name,
        publication="",
        lang=lang,
        generated_at=now,
        subtitle=title,
    )
    if not r.tables:
        doc.paragraph(doc.new_page(), words["no_tables"], size=11)
        return doc.finish()
    c, centre, width = doc.c, doc.width / 2, doc.width - 2 * MARGIN
    for table in r.tables:
        found = link(table.table.code)
        y = doc.new_page(lab["table_n"].format(n=table.number))
        c.setFillColor(colors.black)
        c.setFont(FONT_BOLD, 64)
        c.drawCentredString(centre, y - 62, lab["table_n"].format(n=table.number))
        c.setFont(FONT_BOLD, _fitted(title, FONT_BOLD, 24, width))
        c.drawCentredString(centre, y - 94, title)
        c.setFillColor(DARK)
        name = view.tournament.name
        c.setFont(FONT, _fitted(name, FONT, 13, width))
        c.drawCentredString(centre, y - 114, name)
        qr = 250.0
        draw_qr(c, found.url, centre - qr / 2, y - 130 - qr, qr)
        y -= 130 + qr
        c.setFillColor(colors.black)
        code = f"{lab['table_code']}: {found.code}"
        c.setFont(FONT_BOLD, _fitted(code, FONT_BOLD, 28, width))
        c.drawCentredString(centre, y - 30, code)
        c.setFont(FONT, _fitted(found.url, FONT, 13, width))
        c.drawCentredString(centre, y - 50, found.url)
        c.setFillColor(DARK)
        c.setFont(FONT, _fitted(words["scan"], FONT, 10, width))
        c.drawCentredString(centre, y - 68, words["scan"])
        c.setFont(FONT, _fitted(words["write"], FONT, 10, width))
        c.drawCentredString(centre, y - 82, words["write"])
        rows = [
            Row(
                [
                    Cell(s.seat, bold=True),
                    Cell(str(s.participant.number), bold=True),
                    s.participant.name,
                    words["first_dealer"] if s.seat == table.table.first_dealer else "",
                ]
            )
            for s in table.seats
        ]
        cols = [Col(lab["seat"], 10, "c"), Col(lab["number"], 8, "r"), Col(lab["name"], 50), Col("", 20)]
        doc.table(y - 96, cols, rows, size=13, row_h=24, zebra=False)
    return doc.finish()
