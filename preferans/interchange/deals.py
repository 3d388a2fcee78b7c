"""The deal notation, version 1 (docs/deal-notation.md): one line per board of preferans, PBN-like.

::

    % duplicate-preferans-deals 1
    % Кубок клуба
    1.1 N 4 E:AKQJ.7.J98.A10 S:1098.AKQ.AK.K9 W:7.J1098.Q10.QJ8 H7,D7
    1.2 E 4 -

A line is ``<session>.<board> <dealer> <players> <hand> <hand> <hand> <prikup>``: the three hands in playing
order (first hand first), each ``SEAT:spades.clubs.diamonds.hearts`` with ranks ``A K Q J 10 9 8 7`` (a void suit
is empty), then the prikup's two cards, top card first. A board without a layout is written ``-`` after the
players. Lines starting with ``%`` are comments; blank lines are ignored. ``read_deals(write_deals(d)) == d`` and
``write_deals(read_deals(text)) == text`` for every text the writer wrote.

Pure Python, no Django import.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from preferans.bundle.bounds import BOARDS_MAX, TEXT_MAX, control_characters
from preferans.cards.deck import DECK, Card, NotationError, Rank, Suit, format_hand, parse_hand, sort_cards
from preferans.game.seats import hands_in_order, table_seats

__all__ = [
    "HEADER",
    "DealLine",
    "DealsInvalid",
    "board_of",
    "deal_of",
    "read_deals",
    "write_deals",
]

HEADER = "% duplicate-preferans-deals 1"
HAND_SIZE = 10
SESSIONS_MAX = 99
LINES_MAX = SESSIONS_MAX * BOARDS_MAX
_KEY = re.compile(r"^(\d{1,4})\.(\d{1,4})$")
_RANK = re.compile(r"10|[AKQJ987]")
_RANKS = {rank.text: rank for rank in Rank}


@dataclass(frozen=True)
class DealLine:
    """One board: where it is, its dealer pocket and table size, and its layout when it has one —
    ``hands`` are ``(seat, cards)`` in playing order, each hand sorted; ``prikup`` top card first."""

    session: int
    board: int
    dealer: str
    players: int
    hands: tuple[tuple[str, tuple[Card, ...]], ...] | None = None
    prikup: tuple[Card, Card] | None = None


class DealsInvalid(ValueError):
    """The text breaks the notation; ``problems`` name every problem by its line (``line 3: …``)."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(self.problems))


# -- writing ----------------------------------------------------------------------------------------------
def _hand_text(cards: Iterable[Card]) -> str:
    groups: dict[Suit, list[str]] = {suit: [] for suit in Suit}
    for card in sort_cards(cards):
        groups[card.suit].append(card.rank.text)
    return ".".join("".join(groups[suit]) for suit in Suit)


def _line(deal: DealLine) -> str:
    head = f"{deal.session}.{deal.board} {deal.dealer} {deal.players}"
    if deal.hands is None or deal.prikup is None:
        return f"{head} -"
    hands = " ".join(f"{seat}:{_hand_text(cards)}" for seat, cards in deal.hands)
    return f"{head} {hands} {deal.prikup[0].notation},{deal.prikup[1].notation}"


def write_deals(deals: Iterable[DealLine], *, title: str = "") -> str:
    """The text of the deals, in the order given (each checked as the reader checks it)."""
    lines = [HEADER]
    if title:
        lines.append("% " + " ".join(title.split()))
    body = [_line(deal) for deal in deals]
    lines.extend(body)
    text = "\n".join(lines) + "\n"
    read_deals(text)  # the writer writes nothing its reader refuses
    return text


def deal_of(session: int, players: int, board: Mapping[str, Any]) -> DealLine:
    """A board as the tournament bundle writes it (formats.md §2: number, dealer, hands by seat in the
    ``"SAKQ C7 DJ98 H10"`` form, prikup top first) as a deal line; ``ValueError`` when its layout is not a whole
    deck (``export_deals`` then writes the board without its layout and says so in a comment)."""
    dealer = str(board["dealer"])
    hands_raw = board.get("hands")
    prikup_raw = board.get("prikup")
    if not hands_raw or not prikup_raw:
        return DealLine(session, int(board["number"]), dealer, players)
    order = hands_in_order(players, dealer)
    if set(hands_raw) != set(order):
        raise ValueError(f"board {board['number']}: hands are not given for {', '.join(order)}")
    try:
        hands = tuple((seat, sort_cards(parse_hand(str(hands_raw[seat]), place=seat))) for seat in order)
        prikup = tuple(parse_hand(str(card)) for card in prikup_raw)
    except NotationError as exc:
        raise ValueError(f"board {board['number']}: {exc}") from exc
    if len(prikup) != 2 or any(len(c) != 1 for c in prikup):
        raise ValueError(f"board {board['number']}: the prikup is not two cards")
    deal = DealLine(session, int(board["number"]), dealer, players, hands, (prikup[0][0], prikup[1][0]))
    problem = _layout_problem(deal)
    if problem:
        raise ValueError(f"board {board['number']}: {problem}")
    return deal


def board_of(deal: DealLine) -> dict[str, Any]:
    """The deal line as a bundle board (formats.md §2) without its set: number, dealer, hands, prikup."""
    out: dict[str, Any] = {"number": deal.board, "dealer": deal.dealer}
    if deal.hands is not None and deal.prikup is not None:
        out["hands"] = {seat: format_hand(cards) for seat, cards in deal.hands}
        out["prikup"] = [card.notation for card in deal.prikup]
    return out


# -- reading ----------------------------------------------------------------------------------------------
def read_deals(text: str) -> list[DealLine]:
    """The deals of a text, or :class:`DealsInvalid` naming every problem with its line number."""
    problems: list[str] = []
    deals: list[DealLine] = []
    seen: dict[tuple[int, int], int] = {}
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    if len(lines) > LINES_MAX + 100:
        raise DealsInvalid([f"more than {LINES_MAX} lines"])
    if not lines or lines[0].strip() != HEADER:
        problems.append(f"line 1: the first line must be {HEADER!r}")
    for number, raw in enumerate(lines[1:] if lines and lines[0].strip() == HEADER else lines, start=2):
        line = raw.strip()
        if len(raw) > 4 * TEXT_MAX:
            problems.append(f"line {number}: longer than {4 * TEXT_MAX} characters")
            continue
        if not line or line.startswith("%"):
            if control_characters(line):
                problems.append(f"line {number}: a control character in a comment")
            continue
        deal, problem = _read_line(line)
        if problem is not None:
            problems.append(f"line {number}: {problem}")
            continue
        assert deal is not None
        key = (deal.session, deal.board)
        if key in seen:
            problems.append(f"line {number}: session {key[0]}, board {key[1]} is also on line {seen[key]}")
            continue
        seen[key] = number
        deals.append(deal)
    if problems:
        raise DealsInvalid(problems)
    return deals


def _read_line(line: str) -> tuple[DealLine | None, str | None]:
    tokens = line.split()
    if len(tokens) not in (4, 7):
        return None, (
            "a line is <session>.<board> <dealer> <players> and then three hands and the prikup, or -"
            f" ({len(tokens)} fields)"
        )
    match = _KEY.match(tokens[0])
    if not match or int(match.group(1)) == 0 or int(match.group(2)) == 0:
        return None, f"{tokens[0]!r} is not <session>.<board> (two positive integers, such as 1.3)"
    session, board = int(match.group(1)), int(match.group(2))
    if session > SESSIONS_MAX or board > BOARDS_MAX:
        return None, f"session at most {SESSIONS_MAX}, board at most {BOARDS_MAX}"
    if tokens[2] not in ("3", "4"):
        return None, f"players must be 3 or 4, not {tokens[2]!r}"
    players = int(tokens[2])
    dealer = tokens[1]
    if dealer not in table_seats(players):
        return (
            None,
            f"dealer {dealer!r} is not a seat of a {players}-player table ({' '.join(table_seats(players))})",
        )
    if len(tokens) == 4:
        if tokens[3] != "-":
            return None, f"{tokens[3]!r}: a board without a layout is written -"
        return DealLine(session, board, dealer, players), None
    order = hands_in_order(players, dealer)
    hands: list[tuple[str, tuple[Card, ...]]] = []
    for position, (token, seat) in enumerate(zip(tokens[3:6], order, strict=True), start=1):
        if not token.startswith(f"{seat}:"):
            return None, f"hand {position} is {seat}'s (playing order {' '.join(order)}), written {seat}:…"
        cards, problem = _read_hand(token[2:])
        if problem is not None:
            return None, f"{seat}: {problem}"
        hands.append((seat, sort_cards(cards)))
    prikup: list[Card] = []
    for text in tokens[6].split(","):
        card = _read_card(text)
        if card is None:
            return None, f"prikup {tokens[6]!r} is not two cards such as H7,D8"
        prikup.append(card)
    if len(prikup) != 2:
        return None, f"prikup {tokens[6]!r} is not two cards such as H7,D8"
    deal = DealLine(session, board, dealer, players, tuple(hands), (prikup[0], prikup[1]))
    return (None, problem) if (problem := _layout_problem(deal)) else (deal, None)


def _read_hand(text: str) -> tuple[list[Card], str | None]:
    suits = text.split(".")
    if len(suits) != 4:
        return [], f"{text!r} is not four suits S.C.D.H separated by dots"
    cards: list[Card] = []
    for suit, ranks in zip(Suit, suits, strict=True):
        found = _RANK.findall(ranks)
        if "".join(found) != ranks:
            return [], f"{ranks!r} is not ranks A K Q J 10 9 8 7 of {suit.letter}"
        cards.extend(Card(suit, _RANKS[r]) for r in found)
    return cards, None


def _read_card(text: str) -> Card | None:
    if len(text) < 2 or text[0] not in "SCDH" or text[1:] not in _RANKS:
        return None
    return Card(Suit(text[0]), _RANKS[text[1:]])


def _layout_problem(deal: DealLine) -> str | None:
    """Whether the layout is a whole deck: three hands of ten and the prikup, every card once."""
    assert deal.hands is not None and deal.prikup is not None
    for seat, cards in deal.hands:
        if len(cards) != HAND_SIZE:
            return f"{seat} holds {len(cards)} cards, not {HAND_SIZE}"
    every = [card for _seat, cards in deal.hands for card in cards] + list(deal.prikup)
    if len(set(every)) != len(every) or set(every) != set(DECK):
        twice = sorted({c for c in every if every.count(c) > 1})
        return (
            "a card is dealt twice: " + ", ".join(c.notation for c in twice)
            if twice
            else "not the 32-card deck"
        )
    return None
