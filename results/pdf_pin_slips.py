"""PIN slips, either form: one slip per participant, twelve to an A4 page with cut lines.

Each slip carries the event, the participant's number and name, his PIN, where he sits (a duplicate session: the
table where he sits down first; a pulka event: his table in the latest drawn round) with the table's code, and his
own link (``tournaments.personal_links``) as a QR code and an address: the same link for the whole event, it
opens his table of the moment in every round. The link identifies nobody: writing at the table still needs the
PIN.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib import colors  # type: ignore[import-untyped]

from boards.pdf.fonts import FONT, FONT_BOLD
from boards.pdf.text import text_width
from results.labels import labels
from results.pdf_common import DARK, LINE, MARGIN, PdfDoc
from results.pdf_qr import draw_qr

__all__ = ["PinSlip", "SlipSeat", "pin_slips_pdf"]

# The slips' own words, kept here (like results.labels) so that the file is in the tournament's language
# whatever the catalogues say.
SLIP_LABELS: dict[str, dict[str, str]] = {
    "ru": {
        "pin_slips": "PIN-карточки",
        "pin": "PIN",
        "starts": "Начало",
        "no_pin": "—",
        "no_start": "в этой сессии не играет",
        "keep": "PIN — для подтверждения протоколов за столом. Никому его не показывайте.",
        "your_table": "Ваш стол в любом туре: отсканируйте код или откройте",
    },
    "en": {
        "pin_slips": "PIN slips",
        "pin": "PIN",
        "starts": "Starts",
        "no_pin": "—",
        "no_start": "does not play in this session",
        "keep": "The PIN confirms your table's protocol rows. Show it to nobody.",
        "your_table": "Your table in any round: scan the code or open",
    },
}


@dataclass(frozen=True)
class SlipSeat:
    """Where the participant sits: the round, the room, the table, the seat and the table's code."""

    round: int
    room: int
    table: int
    seat: str
    code: str = ""


@dataclass(frozen=True)
class PinSlip:
    """One participant's slip: who he is, his PIN, where he sits (None: no table) and his own link."""

    number: int
    name: str
    pin: str
    seat: SlipSeat | None = None
    personal_url: str = ""


def pin_slips_pdf(
    slips: Sequence[PinSlip],
    *,
    tournament: str,
    subtitle: str,
    per_session: bool,
    many_rooms: bool,
    lang: str,
    generated_at: Any = None,
) -> bytes:
    """Two columns of slips, six rows to an A4 page, dashed cut lines between them.

    ``per_session``: the slips of a duplicate session («Starts: table 2, seat N», or «does not play in this
    session»); otherwise a pulka event's («Round 2: table 3, seat E», nothing without a table)."""
    lab = labels(lang)
    words = SLIP_LABELS["ru" if lang == "ru" else "en"]
    doc = PdfDoc(
        title=words["pin_slips"],
        tournament=tournament,
        publication="",
        lang=lang,
        generated_at=generated_at,
        subtitle=subtitle,
    )
    per_row, per_page = 2, 12
    c = doc.c
    for i, slip in enumerate(slips or [None]):  # type: ignore[list-item]
        if i % per_page == 0:
            top = doc.new_page()
            slip_w = (doc.width - 2 * MARGIN) / per_row
            slip_h = (top - doc.bottom) / (per_page // per_row)
            c.setStrokeColor(LINE)
            c.setLineWidth(0.6)
            c.setDash(4, 3)
            for k in range(per_page // per_row + 1):
                c.line(MARGIN, top - k * slip_h, doc.width - MARGIN, top - k * slip_h)
            for k in range(per_row + 1):
                c.line(MARGIN + k * slip_w, top, MARGIN + k * slip_w, doc.bottom)
            c.setDash()
        if slip is None:
            break
        k = i % per_page
        x, y = MARGIN + (k % per_row) * slip_w + 10, top - (k // per_row) * slip_h - 8
        where = _where(slip.seat, per_session=per_session, many_rooms=many_rooms, lab=lab, words=words)
        _draw_slip(c, slip, x, y, slip_w - 20, slip_h - 16, tournament, where, lab, words)
    return doc.finish()


def _where(
    seat: SlipSeat | None,
    *,
    per_session: bool,
    many_rooms: bool,
    lab: Mapping[str, str],
    words: Mapping[str, str],
) -> str:
    """«Начало: Стол 2, позиция N · K7M2QX» (a session; «Тур 2: …» when he rests in round 1), «Тур 3: Стол 1,
    позиция E · …» (a pulka event); empty for a pulka event's participant without a table."""
    if seat is None:
        return f"{words['starts']}: {words['no_start']}" if per_session else ""
    place = (f"{lab['room']} {seat.room} · " if many_rooms else "") + f"{lab['table']} {seat.table}"
    where = f"{place}, {lab['seat'].lower()} {seat.seat}" + (f" · {seat.code}" if seat.code else "")
    if not per_session:
        return f"{lab['round']} {seat.round}: {where}"
    if seat.round != 1:
        where = f"{lab['round']} {seat.round}: {where}"
    return f"{words['starts']}: {where}"


def _fit_font(text: str, font: str, size: float, width: float) -> float:
    return (
        size
        if text_width(text, font, size) <= width
        else max(5.0, size * width / text_width(text, font, size))
    )


def _draw_slip(
    c: Any,
    slip: PinSlip,
    x: float,
    y: float,
    w: float,
    h: float,
    tournament: str,
    where: str,
    lab: Mapping[str, str],
    words: Mapping[str, str],
) -> None:
    """The slip's lines left of its QR code; the link's address and the PIN's warning across the slip below."""
    qr = min(74.0, h - 30) if slip.personal_url else 0.0
    text_w = w - qr - (8 if qr else 0)
    c.setFillColor(DARK)
    c.setFont(FONT, _fit_font(tournament, FONT, 8, text_w))
    c.drawString(x, y - 8, tournament)
    who = f"{lab['number']} {slip.number}  {slip.name}".strip()
    c.setFillColor(colors.black)
    c.setFont(FONT_BOLD, _fit_font(who, FONT_BOLD, 13, text_w))
    c.drawString(x, y - 25, who)
    pin = f"{words['pin']}: {slip.pin or words['no_pin']}"
    c.setFont(FONT_BOLD, 20)
    c.drawString(x, y - 50, pin)
    if where:
        c.setFont(FONT_BOLD, _fit_font(where, FONT_BOLD, 9.5, text_w))
        c.drawString(x, y - 66, where)
    c.setFillColor(DARK)
    if slip.personal_url:
        draw_qr(c, slip.personal_url, x + w - qr, y - qr, qr)
        c.setFont(FONT, _fit_font(words["your_table"], FONT, 7, w))
        c.drawString(x, y - qr - 9, words["your_table"])
        c.setFillColor(colors.black)
        c.setFont(FONT_BOLD, _fit_font(slip.personal_url, FONT_BOLD, 8, w))
        c.drawString(x, y - qr - 19, slip.personal_url)
        c.setFillColor(DARK)
    c.setFont(FONT, _fit_font(words["keep"], FONT, 7, w))
    c.drawString(x, y - h + 4, words["keep"])
    c.setFillColor(colors.black)
