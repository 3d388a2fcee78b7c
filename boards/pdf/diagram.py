"""The board diagram shared by the hand records and the protocol form, and the PDF labels in both languages.

A diagram is the usual compass: N on top, W left, E right, S below, a square in the middle with the board
number, the seat letters and the dealer marked. Each hand is four lines, one per suit ♠ ♣ ♦ ♥ (♦ ♥ in red);
the prikup sits in its pocket (the dealer's at 4 players, W at 3), top card first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from reportlab.lib import colors  # type: ignore[import-untyped]
from reportlab.pdfbase.pdfmetrics import stringWidth  # type: ignore[import-untyped]

from boards.pdf.fonts import FONT, FONT_BOLD, register_fonts
from preferans.cards.deal import DealtBoard, Seat
from preferans.cards.deck import Card, Suit, sort_cards

__all__ = ["LABELS", "Lang", "diagram_size", "draw_diagram", "draw_rich", "labels", "lang_or_error"]

Lang = Literal["ru", "en"]
RED: Final = colors.Color(0.78, 0.0, 0.0)
GREY: Final = colors.Color(0.85, 0.85, 0.85)
DARK: Final = colors.Color(0.35, 0.35, 0.35)

LABELS: Final[dict[str, dict[str, str]]] = {
    "ru": {
        "hand_records": "Расклады сдач",
        "duplication": "Копия для дублирования коробок",
        "room": "Зал",
        "set": "Комплект",
        "board": "Сдача",
        "dealer": "Сдающий",
        "first_hand": "первая рука",
        "prikup": "Прикуп",
        "pocket": "карман",
        "top": "верхняя",
        "bottom": "нижняя",
        "page": "стр.",
        "players_3": "3 игрока: прикуп в кармане W, «dealer» — первая рука",
        "players_4": "4 игрока: прикуп в кармане сдающего",
        "protocol": "ПРОТОКОЛ",
        "tournament": "Турнир",
        "organiser": "Организатор",
        "chief_director": "Гл. судья",
        "prepared_by": "Готовил сдачу",
        "set_no": "№ комплекта",
        "board_no": "№ сдачи",
        "contract": "Конт-\nракт",
        "declarer": "Разыгрывающий",
        "first_whister": "Первый\nвистующий",
        "second_whister": "Второй\nвистующий",
        "position": "Пози-\nция",
        "tricks": "Взят-\nки",
        "number": "№",
        "vists": "Висты",
        "mp": "МП",
        "protocol_note": (
            "Заполняет игрок N после сдачи: все графы, кроме «МП». "
            "Распасы: в графе «Контракт» прочерк, взятки — с первой руки по часовой стрелке."
        ),
    },
    "en": {
        "hand_records": "Hand records",
        "duplication": "Duplication sheet",
        "room": "Room",
        "set": "Set",
        "board": "Board",
        "dealer": "Dealer",
        "first_hand": "first hand",
        "prikup": "Prikup",
        "pocket": "pocket",
        "top": "top",
        "bottom": "bottom",
        "page": "page",
        "players_3": "3 players: prikup in pocket W, “dealer” marks the first hand",
        "players_4": "4 players: prikup in the dealer's pocket",
        "protocol": "PROTOCOL",
        "tournament": "Tournament",
        "organiser": "Organiser",
        "chief_director": "Chief director",
        "prepared_by": "Deal prepared by",
        "set_no": "Set No.",
        "board_no": "Board No.",
        "contract": "Con-\ntract",
        "declarer": "Declarer",
        "first_whister": "First\nwhister",
        "second_whister": "Second\nwhister",
        "position": "Posi-\ntion",
        "tricks": "Tricks",
        "number": "No.",
        "vists": "Vists",
        "mp": "MP",
        "protocol_note": (
            "Filled in by N after the deal: every column except MP. "
            "Raspasy: a dash under Contract, tricks from the first hand clockwise."
        ),
    },
}


def lang_or_error(lang: str) -> Lang:
    if lang == "ru":
        return "ru"
    if lang == "en":
        return "en"
    raise ValueError(f"lang must be 'ru' or 'en', not {lang!r}")


def labels(lang: str) -> dict[str, str]:
    return LABELS[lang_or_error(lang)]


@dataclass(frozen=True)
class _Metrics:
    size: float  # font size of the hands
    line: float  # line height
    hand_w: float  # width of a hand block
    box: float  # side of the compass square
    gap: float


def _metrics(size: float) -> _Metrics:
    register_fonts()
    widest = max(
        stringWidth("♠ A K Q J 10 9 8 7", FONT, size),
        max(stringWidth(f"2. ♥10 ({word})", FONT, size) for word in ("верхняя", "нижняя", "bottom")),
    )
    return _Metrics(size=size, line=size * 1.3, hand_w=widest, box=size * 5.4, gap=size * 0.6)


def diagram_size(size: float = 9.5) -> tuple[float, float]:
    """Width and height of a diagram drawn with hands at font ``size``."""
    m = _metrics(size)
    width = 2 * m.hand_w + m.box + 2 * m.gap
    height = 2 * (4 * m.line) + m.box + 2 * m.gap
    return width, height


def draw_rich(
    c: Any, x: float, y: float, parts: Sequence[str | Card], *, font: str = FONT, size: float = 10
) -> float:
    """Draw text and cards in a row (suit symbols of ♦ ♥ in red); return the x after the last part."""
    c.setFont(font, size)
    for part in parts:
        if isinstance(part, Card):
            c.setFillColor(RED if part.suit.is_red else colors.black)
            c.drawString(x, y, part.suit.symbol)
            x += stringWidth(part.suit.symbol, font, size)
            c.setFillColor(colors.black)
            c.drawString(x, y, part.rank.text)
            x += stringWidth(part.rank.text, font, size)
        else:
            c.setFillColor(colors.black)
            c.drawString(x, y, part)
            x += stringWidth(part, font, size)
    c.setFillColor(colors.black)
    return x


def _ranks(cards: list[Card]) -> str:
    return " ".join(card.rank.text for card in cards) if cards else "—"


def _draw_hand(c: Any, cards: tuple[Card, ...], x: float, top: float, m: _Metrics) -> None:
    by_suit: dict[Suit, list[Card]] = {suit: [] for suit in Suit}
    for card in sort_cards(cards):
        by_suit[card.suit].append(card)
    y = top - m.size
    symbol_w = stringWidth("♠ ", FONT, m.size)
    for suit, group in by_suit.items():
        c.setFillColor(RED if suit.is_red else colors.black)
        c.setFont(FONT, m.size)
        c.drawString(x, y, suit.symbol)
        c.setFillColor(colors.black)
        ranks = _ranks(group)
        size = m.size
        while stringWidth(ranks, FONT, size) > m.hand_w - symbol_w and size > 5:
            size -= 0.5
        c.setFont(FONT, size)
        c.drawString(x + symbol_w, y, ranks)
        y -= m.line


def _draw_prikup(c: Any, board: DealtBoard, x: float, top: float, m: _Metrics, lab: dict[str, str]) -> None:
    c.setFont(FONT_BOLD, m.size)
    c.setFillColor(colors.black)
    y = top - m.size
    c.drawString(x, y, lab["prikup"])
    small = m.size * 0.85
    for n, (card, word) in enumerate(zip(board.prikup, (lab["top"], lab["bottom"]), strict=True), start=1):
        y -= m.line
        c.setFont(FONT, m.size)
        c.setFillColor(colors.black)
        c.drawString(x, y, f"{n}.")
        cx = x + stringWidth("2. ", FONT, m.size)
        c.setFillColor(RED if card.suit.is_red else colors.black)
        c.drawString(cx, y, card.suit.symbol)
        cx += stringWidth(card.suit.symbol, FONT, m.size)
        c.setFillColor(colors.black)
        c.drawString(cx, y, card.rank.text)
        cx += stringWidth(card.rank.text + " ", FONT, m.size)
        c.setFont(FONT, small)
        c.setFillColor(DARK)
        c.drawString(cx, y, f"({word})")
    c.setFillColor(colors.black)


def _draw_compass(c: Any, board: DealtBoard, x: float, y: float, m: _Metrics) -> None:
    """The centre square: seat letters on its sides, the dealer's letter on a grey tab, the number inside."""
    side = m.box
    c.setStrokeColor(colors.black)
    c.setLineWidth(0.8)
    c.rect(x, y, side, side, stroke=1, fill=0)
    letter_size = m.size * 0.95
    pad = letter_size * 0.35
    centres = {
        Seat.N: (x + side / 2, y + side - pad - letter_size * 0.8),
        Seat.S: (x + side / 2, y + pad),
        Seat.W: (x + pad + letter_size * 0.4, y + side / 2 - letter_size * 0.35),
        Seat.E: (x + side - pad - letter_size * 0.4, y + side / 2 - letter_size * 0.35),
    }
    for seat, (cx, cy) in centres.items():
        if seat is board.dealer:
            w = stringWidth(seat.value, FONT_BOLD, letter_size) + 3
            c.setFillColor(GREY)
            c.rect(cx - w / 2, cy - 2, w, letter_size + 2.5, stroke=0, fill=1)
            c.setFillColor(colors.black)
            c.setFont(FONT_BOLD, letter_size)
        else:
            c.setFillColor(colors.black)
            c.setFont(FONT, letter_size)
        c.drawCentredString(cx, cy, seat.value)
    c.setFont(FONT_BOLD, m.size * 1.5)
    c.drawCentredString(x + side / 2, y + side / 2 - m.size * 0.5, str(board.number))


def draw_diagram(
    c: Any, board: DealtBoard, x: float, y: float, *, lang: str = "ru", size: float = 9.5
) -> None:
    """Draw ``board`` with its lower-left corner at (``x``, ``y``); the size is :func:`diagram_size`."""
    lab = labels(lang)
    m = _metrics(size)
    width, height = diagram_size(size)
    box_x = x + m.hand_w + m.gap
    box_y = y + 4 * m.line + m.gap
    hand_h = 4 * m.line
    tops = {
        Seat.N: (box_x + (m.box - m.hand_w) / 2 + m.size, y + height),
        Seat.S: (box_x + (m.box - m.hand_w) / 2 + m.size, y + hand_h),
        Seat.W: (x, box_y + m.box / 2 + hand_h / 2),
        Seat.E: (box_x + m.box + m.gap, box_y + m.box / 2 + hand_h / 2),
    }
    for seat, (hx, top) in tops.items():
        if seat in board.hands:
            _draw_hand(c, board.hands[seat], hx, top, m)
        else:
            _draw_prikup(c, board, hx, top - (m.line / 2), m, lab)
    _draw_compass(c, board, box_x, box_y, m)
