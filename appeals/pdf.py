"""The appeal form («АПЕЛЛЯЦИЯ», duplicate-rules Appendix B), blank or filled in.

Fields in the book's order: 1 the player filing the appeal; 2 round; 3 deal; 4 layout (the compass with
♠ ♣ ♦ ♥ lines for each hand and the prikup); 5 the participants of the deal (W, N, E, S numbers); 6 bidding
(columns W, N, E, S); 7 play; 8 substance of the claim; 9 director's comment; 10 the appeals committee's
decision; 11 the committee's members and signatures; 12 date.

    from appeals.pdf import AppealFormData, appeal_form_pdf
    pdf = appeal_form_pdf(None, lang="ru")                    # blank form
    pdf = appeal_form_pdf(AppealFormData(appellant="№ 12 Иванов И.", round=3, board=14, ...), lang="ru")

``layout`` is a :class:`preferans.cards.deal.DealtBoard` or a board in the bundle's notation (a mapping with ``number``,
``dealer``, ``hands``, ``prikup``); anything that cannot be read leaves the diagram blank for handwriting.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from reportlab.lib import colors  # type: ignore[import-untyped]
from reportlab.lib.pagesizes import A4  # type: ignore[import-untyped]
from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped]

from boards.pdf.diagram import diagram_size, draw_diagram
from boards.pdf.fonts import FONT, FONT_BOLD, register_fonts
from boards.pdf.text import lang_of, wrap_text

__all__ = ["APPEAL_LABELS", "AppealFormData", "appeal_form_pdf"]

APPEAL_LABELS: Final[dict[str, dict[str, str]]] = {
    "ru": {
        "title": "АПЕЛЛЯЦИЯ",
        "tournament": "Турнир",
        "appellant": "1. Игрок, подающий апелляцию",
        "round": "2. Тур №",
        "board": "3. Сдача №",
        "layout": "4. Расклад",
        "prikup": "Прикуп",
        "top": "верхняя",
        "bottom": "нижняя",
        "participants": "5. Участники сдачи",
        "bidding": "6. Торговля",
        "play": "7. Розыгрыш",
        "claim": "8. Суть претензии",
        "director": "9. Комментарий судьи",
        "decision": "10. Решение Апелляционного комитета",
        "members": "11. Состав Апелляционного комитета",
        "signatures": "Подписи",
        "date": "12. Дата",
        "blank_date": "«____» ______________ 20____ г.",
        "months": "января февраля марта апреля мая июня июля августа сентября октября ноября декабря",
    },
    "en": {
        "title": "APPEAL",
        "tournament": "Tournament",
        "appellant": "1. Player filing the appeal",
        "round": "2. Round No.",
        "board": "3. Deal No.",
        "layout": "4. Layout",
        "prikup": "Prikup",
        "top": "top",
        "bottom": "bottom",
        "participants": "5. Participants of the deal",
        "bidding": "6. Bidding",
        "play": "7. Play",
        "claim": "8. Substance of the claim",
        "director": "9. Director's comment",
        "decision": "10. Decision of the Appeals Committee",
        "members": "11. Members of the Appeals Committee",
        "signatures": "Signatures",
        "date": "12. Date",
        "blank_date": "____ / ____ / 20____",
        "months": "",
    },
}

BIDDING_SEATS: Final = ("W", "N", "E", "S")
DARK: Final = colors.Color(0.35, 0.35, 0.35)
LINE: Final = colors.Color(0.55, 0.57, 0.6)
MARGIN: Final = 36.0


@dataclass(frozen=True)
class AppealFormData:
    """The fields of Appendix B. Every field may be left empty: it is then printed blank for handwriting."""

    appellant: str = ""  # 1: who appeals, e.g. "№ 12 Иванов Иван"
    round: int | None = None  # 2
    board: int | None = None  # 3
    layout: Any = None  # 4: preferans.cards.deal.Board or a bundle-notation mapping
    participants: Mapping[str, str] = field(default_factory=dict)  # 5: seat → "№ 12 Иванов"
    bidding: Sequence[Sequence[str]] = ()  # 6: rows of calls in the order W, N, E, S ("" for none)
    play: str = ""  # 7
    claim: str = ""  # 8: substance of the claim
    director_comment: str = ""  # 9
    committee_decision: str = ""  # 10
    committee_members: Sequence[str] = ()  # 11: each member, with the vote that elected him if recorded
    signed_by: Sequence[str] = ()  # 11: signatures (names of those who signed)
    date: dt.date | None = None  # 12
    tournament: str = ""


def _board(layout: Any) -> Any:
    if layout is None:
        return None
    from preferans.cards.board_form import board_from_dict
    from preferans.cards.deal import BoardError, DealtBoard

    if isinstance(layout, DealtBoard):
        return layout
    if isinstance(layout, Mapping):
        data = dict(layout)
        data.setdefault("number", 1)
        data.setdefault("set", 1)
        try:
            return board_from_dict(data)
        except (BoardError, TypeError, ValueError):
            return None
    return None


def _label(c: Any, x: float, y: float, text: str, size: float = 10) -> float:
    c.setFillColor(colors.black)
    c.setFont(FONT_BOLD, size)
    c.drawString(x, y, text)
    return x + c.stringWidth(text + "  ", FONT_BOLD, size)


def _value_line(c: Any, x0: float, x1: float, y: float, value: str) -> None:
    c.setStrokeColor(LINE)
    c.setLineWidth(0.5)
    c.line(x0, y - 2.5, x1, y - 2.5)
    if value:
        size = (
            10.5  # a long value (a member with the vote that elected him) is set smaller to stay on its line
        )
        while size > 6 and c.stringWidth(value, FONT, size) > x1 - x0 - 4:
            size -= 0.5
        c.setFont(FONT, size)
        c.setFillColor(colors.black)
        c.drawString(x0 + 2, y, value)


def _text_box(c: Any, x: float, y: float, w: float, h: float, title: str, text: str) -> None:
    """A titled box: the text if filled in, otherwise ruled lines to write on."""
    _label(c, x, y - 11, title)
    top = y - 16
    c.setStrokeColor(LINE)
    c.setLineWidth(0.5)
    c.rect(x, top - h, w, h, stroke=1, fill=0)
    line_h = 15.0
    if text:
        c.setFont(FONT, 9.5)
        c.setFillColor(colors.black)
        ty = top - 12
        for line in wrap_text(text, FONT, 9.5, w - 10):
            if ty < top - h + 4:
                break
            c.drawString(x + 5, ty, line)
            ty -= 12
    else:
        c.setStrokeColor(colors.Color(0.82, 0.83, 0.85))
        ly = top - line_h
        while ly > top - h + 3:
            c.line(x + 5, ly, x + w - 5, ly)
            ly -= line_h


def _blank_diagram(c: Any, x: float, y: float, w: float, h: float, lab: Mapping[str, str]) -> None:
    """A compass to fill in by hand: a square in the middle, four hands of ♠ ♣ ♦ ♥ lines, the prikup."""
    suits = (
        ("♠", colors.black),
        ("♣", colors.black),
        ("♦", colors.Color(0.78, 0, 0)),
        ("♥", colors.Color(0.78, 0, 0)),
    )
    box = 50.0
    cx, cy = x + w / 2, y + h / 2
    c.setStrokeColor(colors.black)
    c.setLineWidth(0.8)
    c.rect(cx - box / 2, cy - box / 2, box, box, stroke=1, fill=0)
    c.setFont(FONT_BOLD, 10)
    c.drawCentredString(cx, cy + box / 2 - 12, "N")
    c.drawCentredString(cx, cy - box / 2 + 4, "S")
    c.drawString(cx - box / 2 + 4, cy - 4, "W")
    c.drawRightString(cx + box / 2 - 4, cy - 4, "E")
    hand_w, line_h = 120.0, 14.0

    def hand(hx: float, top: float) -> None:
        for i, (symbol, colour) in enumerate(suits):
            yy = top - (i + 1) * line_h
            c.setFillColor(colour)
            c.setFont(FONT, 10)
            c.drawString(hx, yy + 3, symbol)
            c.setStrokeColor(LINE)
            c.setLineWidth(0.4)
            c.line(hx + 12, yy + 1, hx + hand_w, yy + 1)
        c.setFillColor(colors.black)

    hand(cx - hand_w / 2, y + h)  # N
    hand(cx - hand_w / 2, y + 4 * line_h + 2)  # S
    hand(cx - box / 2 - hand_w - 12, cy + 2 * line_h)  # W
    hand(cx + box / 2 + 12, cy + 2 * line_h)  # E
    # The prikup, top card first (duplicate-rules §2: «верхняя», «нижняя»), in the upper right corner.
    px = cx + hand_w / 2 + 14
    c.setFillColor(colors.black)
    c.setFont(FONT_BOLD, 9)
    c.drawString(px, y + h - 9, lab["prikup"])
    c.setFont(FONT, 8.5)
    for i, word in enumerate((lab["top"], lab["bottom"])):
        yy = y + h - 26 - i * 16
        c.drawString(px, yy, f"{i + 1}.")
        c.setStrokeColor(LINE)
        c.line(px + 12, yy - 1, px + 50, yy - 1)
        c.setFillColor(DARK)
        c.drawString(px + 53, yy, f"({word})")
        c.setFillColor(colors.black)


def appeal_form_pdf(data: AppealFormData | None, *, lang: str = "ru") -> bytes:
    """Appendix B as one A4 page: blank (``data=None``) or filled with ``data``."""
    lab = APPEAL_LABELS[lang_of(lang)]
    d = data or AppealFormData()
    register_fonts()
    buffer = io.BytesIO()
    width, height = A4
    c = Canvas(buffer, pagesize=A4, pageCompression=1, initialFontName=FONT)
    c.setTitle(lab["title"])
    c.setCreator("duplicate preferans: appeals")
    right = width - MARGIN
    y = height - MARGIN
    c.setFont(FONT_BOLD, 20)
    c.drawCentredString(width / 2, y - 20, lab["title"])
    y -= 34
    if d.tournament:
        c.setFont(FONT, 10)
        c.setFillColor(DARK)
        c.drawCentredString(width / 2, y - 4, d.tournament)
        c.setFillColor(colors.black)
        y -= 16
    # 1. appellant; 2. round; 3. deal.
    y -= 14
    x = _label(c, MARGIN, y, lab["appellant"])
    _value_line(c, x, right, y, d.appellant)
    y -= 22
    x = _label(c, MARGIN, y, lab["round"])
    _value_line(c, x, x + 70, y, "" if d.round is None else str(d.round))
    x = _label(c, x + 100, y, lab["board"])
    _value_line(c, x, x + 70, y, "" if d.board is None else str(d.board))
    y -= 16
    # 4. layout (left) and 5. participants (right).
    _label(c, MARGIN, y - 12, lab["layout"])
    area_w, area_h = 330.0, 178.0
    area_y = y - 18 - area_h
    board = _board(d.layout)
    if board is not None:
        size = 10.0
        dw, dh = diagram_size(size)
        while (dw > area_w or dh > area_h) and size > 6:
            size -= 0.25
            dw, dh = diagram_size(size)
        draw_diagram(
            c, board, MARGIN + (area_w - dw) / 2, area_y + (area_h - dh) / 2, lang=lang_of(lang), size=size
        )
    else:
        _blank_diagram(c, MARGIN, area_y, area_w, area_h, lab)
    px = MARGIN + area_w + 24
    _label(c, px, y - 12, lab["participants"])
    py = y - 40
    for seat in BIDDING_SEATS:
        xx = _label(c, px, py, f"{seat} – №", 11)
        _value_line(c, xx, right, py, d.participants.get(seat, ""))
        py -= 30
    y = area_y - 10
    # 6. bidding: columns W N E S.
    _label(c, MARGIN, y - 11, lab["bidding"])
    bid_top = y - 16
    rows = max(5, len(d.bidding))
    row_h = 14.0
    col_w = (right - MARGIN) / 4
    c.setStrokeColor(LINE)
    c.setLineWidth(0.5)
    c.setFillColor(colors.Color(0.92, 0.93, 0.95))
    c.rect(MARGIN, bid_top - row_h, right - MARGIN, row_h, stroke=0, fill=1)
    c.setFillColor(colors.black)
    for i in range(rows + 2):
        c.line(MARGIN, bid_top - i * row_h, right, bid_top - i * row_h)
    for i in range(5):
        c.line(MARGIN + i * col_w, bid_top, MARGIN + i * col_w, bid_top - (rows + 1) * row_h)
    c.setFont(FONT_BOLD, 9.5)
    for i, seat in enumerate(BIDDING_SEATS):
        c.drawCentredString(MARGIN + (i + 0.5) * col_w, bid_top - row_h + 4, seat)
    c.setFont(FONT, 9.5)
    for r, calls in enumerate(d.bidding):
        for i, call in enumerate(list(calls)[:4]):
            if call:
                c.drawCentredString(MARGIN + (i + 0.5) * col_w, bid_top - (r + 2) * row_h + 4, str(call))
    y = bid_top - (rows + 1) * row_h - 6
    # 7. play; 8. claim; 9. director; 10. decision.
    full = right - MARGIN
    remaining = y - MARGIN - 124
    boxes = [
        (lab["play"], d.play, 0.2),
        (lab["claim"], d.claim, 0.3),
        (lab["director"], d.director_comment, 0.22),
        (lab["decision"], d.committee_decision, 0.28),
    ]
    for title, text, share in boxes:
        h = max(34.0, (remaining - 16 * len(boxes)) * share)
        _text_box(c, MARGIN, y, full, h, title, text)
        y -= h + 20
    # 11. members and signatures; 12. date.
    y -= 12
    _label(c, MARGIN, y, lab["members"])
    _label(c, MARGIN + full * 0.6, y, lab["signatures"])
    members = list(d.committee_members) or [""] * 3
    signed = list(d.signed_by)
    for i in range(max(3, len(members))):
        y -= 18
        _value_line(c, MARGIN, MARGIN + full * 0.55, y, members[i] if i < len(members) else "")
        _value_line(c, MARGIN + full * 0.6, right, y, signed[i] if i < len(signed) else "")
    y -= 26
    x = _label(c, MARGIN, y, lab["date"])
    if d.date is not None:
        months = lab["months"].split()
        text = (
            f"«{d.date.day}» {months[d.date.month - 1]} {d.date.year} г." if months else f"{d.date:%d.%m.%Y}"
        )
        _value_line(c, x, x + 200, y, text)
    else:
        c.setFont(FONT, 10.5)
        c.drawString(x, y, lab["blank_date"])
    c.showPage()
    c.save()
    return buffer.getvalue()
