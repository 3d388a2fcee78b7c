"""The 32-card preferans deck and its notation (docs formats.md §2).

Pure Python, no Django. A card is written as a suit letter ``S C D H`` (пики, трефы, бубны, черви) followed
by a rank ``A K Q J 10 9 8 7``; a hand groups its cards by suit: ``"SAKQ C7 DJ98 H10"``.

Printing is canonical (suits in the order S C D H, ranks from the ace down, void suits left out). Parsing is
forgiving where nothing can be misread: lower case, ``T`` for the ten, the suit symbols ``♠ ♣ ♦ ♥``, suits
written without spaces (``SAKQC7``), ``-`` for a void suit, and the Cyrillic letters that look exactly like
the Latin ones (А, К, С, Н). Anything else is refused with a :class:`NotationError` saying what is wrong.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

__all__ = [
    "DECK",
    "Card",
    "Issue",
    "NotationError",
    "ParamValue",
    "Rank",
    "Suit",
    "cards_text",
    "format_card",
    "format_hand",
    "format_hand_symbols",
    "parse_card",
    "parse_hand",
    "sort_cards",
]


class Suit(enum.Enum):
    """The four suits in the notation's order: пики, трефы, бубны, черви."""

    SPADES = "S"
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"

    @property
    def letter(self) -> str:
        return self.value

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def index(self) -> int:
        return _SUIT_ORDER.index(self)


class Rank(enum.Enum):
    """The eight ranks, from the ace (туз) down to the seven."""

    ACE = "A"
    KING = "K"
    QUEEN = "Q"
    JACK = "J"
    TEN = "10"
    NINE = "9"
    EIGHT = "8"
    SEVEN = "7"

    @property
    def text(self) -> str:
        return self.value

    @property
    def index(self) -> int:
        """0 for the ace … 7 for the seven."""
        return _RANK_ORDER.index(self)


_SUIT_ORDER: Final = tuple(Suit)
_RANK_ORDER: Final = tuple(Rank)
_SUIT_SYMBOLS: Final = {Suit.SPADES: "♠", Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥"}


@dataclass(frozen=True, order=False)
class Card:
    suit: Suit
    rank: Rank

    @property
    def sort_key(self) -> tuple[int, int]:
        """Canonical order: suits S C D H, then ace down to seven."""
        return (self.suit.index, self.rank.index)

    @property
    def notation(self) -> str:
        """The interchange form, e.g. ``"H10"``."""
        return self.suit.letter + self.rank.text

    @property
    def symbol_text(self) -> str:
        """The readable form, e.g. ``"♥10"``."""
        return self.suit.symbol + self.rank.text

    def __str__(self) -> str:
        return self.notation

    def __lt__(self, other: Card) -> bool:
        return self.sort_key < other.sort_key


DECK: Final[tuple[Card, ...]] = tuple(Card(suit, rank) for suit in Suit for rank in Rank)
"""The 32 cards in canonical order."""

ParamValue = str | int | tuple[str, ...]


@dataclass(frozen=True)
class Issue:
    """One problem found in a notation or a layout.

    ``code`` is stable (the UI translates by it), ``params`` fill the translated template, ``message`` is the
    English text, and ``place`` names the pocket concerned (``"N"``, ``"E"``, ``"S"``, ``"W"``, ``"prikup"``)
    when there is exactly one.
    """

    code: str
    message: str
    params: Mapping[str, ParamValue] = field(default_factory=dict, hash=False)
    place: str | None = None

    def __str__(self) -> str:
        return self.message


class NotationError(ValueError):
    """A card or a hand is not written in the notation of formats.md §2."""

    def __init__(self, issue: Issue) -> None:
        super().__init__(issue.message)
        self.issue = issue

    @property
    def code(self) -> str:
        return self.issue.code


# --- parsing --------------------------------------------------------------------------------------------

_SUIT_CHARS: Final = {
    "S": Suit.SPADES,
    "C": Suit.CLUBS,
    "D": Suit.DIAMONDS,
    "H": Suit.HEARTS,
    "♠": Suit.SPADES,
    "♣": Suit.CLUBS,
    "♦": Suit.DIAMONDS,
    "♥": Suit.HEARTS,
    "♤": Suit.SPADES,
    "♧": Suit.CLUBS,
    "♢": Suit.DIAMONDS,
    "♡": Suit.HEARTS,
    "С": Suit.CLUBS,  # Cyrillic Es, looks exactly like C
    "Н": Suit.HEARTS,  # Cyrillic En, looks exactly like H
}
_RANK_CHARS: Final = {
    "A": Rank.ACE,
    "K": Rank.KING,
    "Q": Rank.QUEEN,
    "J": Rank.JACK,
    "T": Rank.TEN,
    "9": Rank.NINE,
    "8": Rank.EIGHT,
    "7": Rank.SEVEN,
    "А": Rank.ACE,  # Cyrillic A
    "К": Rank.KING,  # Cyrillic Ka
}
_VOID_CHARS: Final = frozenset("-—–")
_SEPARATORS: Final = frozenset(" \t\r\n,;/.")
_CYRILLIC_HINT: Final = "write cards with Latin letters: suits S C D H, ranks A K Q J 10 9 8 7"


def _issue(code: str, message: str, place: str | None = None, **params: ParamValue) -> Issue:
    return Issue(code=code, message=message, params=params, place=place)


def _is_cyrillic(char: str) -> bool:
    return "\u0400" <= char <= "\u04ff"


def _describe(char: str) -> str:
    if _is_cyrillic(char):
        return f"'{char}' is a Cyrillic letter; {_CYRILLIC_HINT}"
    return f"'{char}' is neither a suit letter (S, C, D, H) nor a rank (A K Q J 10 9 8 7)"


def parse_hand(text: str, *, place: str | None = None) -> tuple[Card, ...]:
    """Read the cards of a hand as written (duplicates kept, in writing order; no count check).

    >>> [c.notation for c in parse_hand("SAKQ C7 DJ98 H10")]
    ['SA', 'SK', 'SQ', 'C7', 'DJ', 'D9', 'D8', 'H10']
    """
    where = f" in {place}" if place else ""
    cards: list[Card] = []
    suit: Suit | None = None
    suit_cards = 0
    i = 0
    upper = text.upper()
    while i < len(upper):
        char = upper[i]
        if char in _SEPARATORS:
            i += 1
            continue
        if char in _SUIT_CHARS:
            suit = _SUIT_CHARS[char]
            suit_cards = 0
            i += 1
            continue
        if char in _VOID_CHARS:
            if suit is None or suit_cards:
                raise NotationError(
                    _issue(
                        "misplaced_void",
                        f"'{text[i]}' (a void suit) must follow a suit letter directly{where}: {text.strip()!r}",
                        place,
                        text=text.strip(),
                    )
                )
            i += 1
            continue
        rank: Rank | None = None
        width = 1
        if char == "1" and upper[i + 1 : i + 2] == "0":
            rank, width = Rank.TEN, 2
        elif char in _RANK_CHARS:
            rank = _RANK_CHARS[char]
        if rank is None:
            if _is_cyrillic(char):
                raise NotationError(
                    _issue(
                        "cyrillic_letter",
                        f"{_describe(text[i])}{where}: {text.strip()!r}",
                        place,
                        char=text[i],
                        text=text.strip(),
                    )
                )
            if suit is None and char.isalpha():
                raise NotationError(
                    _issue(
                        "unknown_suit",
                        f"'{text[i]}' is not a suit letter (use S, C, D, H){where}: {text.strip()!r}",
                        place,
                        char=text[i],
                        text=text.strip(),
                    )
                )
            raise NotationError(
                _issue(
                    "unknown_rank",
                    f"{_describe(text[i])}{where}: {text.strip()!r}",
                    place,
                    char=text[i],
                    text=text.strip(),
                )
            )
        if suit is None:
            raise NotationError(
                _issue(
                    "rank_without_suit",
                    f"the rank '{rank.text}' comes before any suit letter{where}: {text.strip()!r} "
                    "(write the suit first, e.g. SAKQ)",
                    place,
                    text=text.strip(),
                )
            )
        cards.append(Card(suit, rank))
        suit_cards += 1
        i += width
    return tuple(cards)


def parse_card(text: str, *, place: str | None = None) -> Card:
    """Read one card, e.g. ``"H7"``, ``"♥7"``, ``"d10"``."""
    stripped = text.strip()
    where = f" in {place}" if place else ""
    if not stripped:
        raise NotationError(_issue("empty_card", f"no card written{where}", place))
    cards = parse_hand(stripped, place=place)
    if len(cards) != 1:
        raise NotationError(
            _issue(
                "not_one_card",
                f"{stripped!r}{where} is not one card (write a suit letter and a rank, e.g. H7)",
                place,
                text=stripped,
            )
        )
    return cards[0]


# --- printing -------------------------------------------------------------------------------------------


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=lambda c: c.sort_key))


def _group(cards: Iterable[Card]) -> dict[Suit, list[Card]]:
    groups: dict[Suit, list[Card]] = {suit: [] for suit in Suit}
    for card in sort_cards(cards):
        groups[card.suit].append(card)
    return groups


def format_hand(cards: Iterable[Card]) -> str:
    """The interchange form: ``"SAKQ C7 DJ98 H10"`` (void suits left out)."""
    return " ".join(
        suit.letter + "".join(c.rank.text for c in group) for suit, group in _group(cards).items() if group
    )


def format_hand_symbols(cards: Iterable[Card], *, void: str = "—") -> str:
    """A readable form with every suit: ``"♠AKQ ♣7 ♦J98 ♥10"``; a void suit shows ``void``."""
    return " ".join(
        suit.symbol + ("".join(c.rank.text for c in group) if group else void)
        for suit, group in _group(cards).items()
    )


def format_card(card: Card, *, symbols: bool = False) -> str:
    return card.symbol_text if symbols else card.notation


def cards_text(cards: Sequence[Card]) -> str:
    """``"♠7, ♦J"``: a list of cards for messages."""
    return ", ".join(c.symbol_text for c in cards)
