"""A double-dummy position (formats.md §8.1): three hands as 32-bit masks, trump, leader, declarer, goal.

Card ``c`` is bit ``8 * suit + (7 - rank)`` with the suits in the notation's order S C D H and the ranks from
the ace (index 0) down to the seven, so that within a suit a higher bit is a higher card. The three active
seats are kept in their playing order (clockwise N → E → S → W, skipping the seat that is absent); ``hands``,
``leader`` and ``declarer`` index that order.

The play rules are the Code's: follow suit; without the led suit a player must trump if he holds a trump;
the highest trump wins, else the highest card of the led suit; the trick's winner leads next.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

from preferans.cards.deck import DECK, Card, NotationError, format_hand, parse_hand

__all__ = [
    "GOALS",
    "MAX_CARDS",
    "SEATS",
    "SUIT_MASKS",
    "TRUMPS",
    "Position",
    "PositionInvalid",
    "card_bit",
    "hand_mask",
    "legal_moves",
    "mask_cards",
    "parse_items",
    "parse_position",
    "parse_positions",
    "trick_winner",
]

SEATS: Final = ("N", "E", "S", "W")
TRUMPS: Final = ("S", "C", "D", "H", "NT")
GOALS: Final = ("max", "min")
KEYS: Final = frozenset({"hands", "trump", "leader", "declarer", "goal"})
MAX_CARDS: Final = 10
MAX_HAND_TEXT: Final = 200
MAX_POSITIONS: Final = 10_000
SUIT_MASKS: Final[tuple[int, ...]] = tuple(0xFF << (8 * s) for s in range(4))
NO_TRUMP: Final = -1
T = TypeVar("T")


def card_bit(card: Card) -> int:
    return 8 * card.suit.index + 7 - card.rank.index


_CARD_OF_BIT: Final[dict[int, Card]] = {card_bit(c): c for c in DECK}


def mask_cards(mask: int) -> tuple[Card, ...]:
    """The cards of a mask (canonical order)."""
    cards = [_CARD_OF_BIT[b] for b in range(32) if mask >> b & 1]
    return tuple(sorted(cards, key=lambda c: c.sort_key))


def hand_mask(cards: Sequence[Card]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card_bit(card)
    return mask


@dataclass(frozen=True)
class Position:
    """``hands[i]`` is the mask of ``seats[i]``; ``trump`` a suit index 0–3 (S C D H) or -1 for no trump."""

    seats: tuple[str, str, str]
    hands: tuple[int, int, int]
    trump: int
    leader: int
    declarer: int
    goal: str

    @property
    def tricks_left(self) -> int:
        return self.hands[0].bit_count()

    def describe(self) -> str:
        hands = ", ".join(
            f"{s}: {format_hand(mask_cards(h))}" for s, h in zip(self.seats, self.hands, strict=True)
        )
        trump = TRUMPS[self.trump] if self.trump >= 0 else "NT"
        return (
            f"{hands}; trump {trump}, {self.seats[self.leader]} leads, "
            f"{self.seats[self.declarer]} declares, goal {self.goal}"
        )


class PositionInvalid(ValueError):
    """One or more problems in a list of positions; each line names the position counted from 1."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = tuple(problems)


def legal_moves(hand: int, led_suit: int, trump: int) -> int:
    """The cards of ``hand`` that may be played; ``led_suit`` -1 when leading."""
    if led_suit < 0:
        return hand
    follow = hand & SUIT_MASKS[led_suit]
    if follow:
        return follow
    if trump >= 0:
        ruff = hand & SUIT_MASKS[trump]
        if ruff:
            return ruff
    return hand


def trick_winner(cards: Sequence[int], trump: int) -> int:
    """Index in ``cards`` (bit numbers in playing order, the first led) of the card that wins the trick — or,
    for a trick not yet complete, of the card winning it so far."""
    best = 0
    for i in range(1, len(cards)):
        card, top = cards[i], cards[best]
        suit, top_suit = card >> 3, top >> 3
        if suit == top_suit:
            if card > top:
                best = i
        elif suit == trump:
            best = i
    return best


def _problems_of(number: int, data: object) -> tuple[Position | None, list[str]]:
    where = f"position {number}"
    if not isinstance(data, Mapping):
        return None, [f"{where}: not an object with hands, trump, leader, declarer and goal"]
    problems: list[str] = []
    missing = sorted(KEYS - data.keys())
    unknown = sorted(str(k) for k in data.keys() - KEYS)
    if missing:
        problems.append(f"{where}: missing key(s) {', '.join(missing)}")
    if unknown:
        problems.append(f"{where}: unknown key(s) {', '.join(unknown)}")
    hands = data.get("hands")
    seats: tuple[str, ...] = ()
    masks: dict[str, int] = {}
    if "hands" in data:
        if not isinstance(hands, Mapping):
            problems.append(f"{where}: hands must be an object of three seats (N, E, S, W) and their cards")
        else:
            bad = [str(s) for s in hands if s not in SEATS]
            if bad:
                problems.append(f"{where}: unknown seat(s) {', '.join(bad)} in hands (use N, E, S, W)")
            seats = tuple(s for s in SEATS if s in hands)
            if len(hands) != 3:
                problems.append(f"{where}: hands must hold exactly three seats, not {len(hands)}")
            seen: dict[int, str] = {}
            counts: dict[str, int] = {}
            for seat in seats:
                text = hands[seat]
                if not isinstance(text, str):
                    problems.append(f'{where}: the hand of {seat} must be text such as "SAK CA H8"')
                    continue
                if len(text) > MAX_HAND_TEXT:
                    problems.append(f"{where}: the hand of {seat} is longer than {MAX_HAND_TEXT} characters")
                    continue
                try:
                    cards = parse_hand(text, place=seat)
                except NotationError as exc:
                    problems.append(f"{where}: {exc}")
                    continue
                counts[seat] = len(cards)
                for card in cards:
                    bit = card_bit(card)
                    if bit in seen:
                        other = seen[bit]
                        twice = "twice in " + seat if other == seat else f"in {other} and in {seat}"
                        problems.append(f"{where}: the card {card.notation} appears {twice}")
                    else:
                        seen[bit] = seat
                        masks[seat] = masks.get(seat, 0) | 1 << bit
            sizes = set(counts.values())
            if len(sizes) > 1:
                listed = ", ".join(f"{s} {n}" for s, n in counts.items())
                problems.append(f"{where}: the hands must hold the same number of cards ({listed})")
            for seat, n in counts.items():
                if n < 1 or n > MAX_CARDS:
                    problems.append(
                        f"{where}: the hand of {seat} holds {n} cards; 1 to {MAX_CARDS} are allowed"
                    )
    trump = data.get("trump")
    if "trump" in data and trump not in TRUMPS:
        problems.append(f"{where}: unknown trump {trump!r} (use S, C, D, H or NT)")
    goal = data.get("goal")
    if "goal" in data and goal not in GOALS:
        problems.append(f"{where}: unknown goal {goal!r} (use max or min)")
    for key in ("leader", "declarer"):
        value = data.get(key)
        if key in data and (not isinstance(value, str) or value not in seats):
            if isinstance(value, str) and value in SEATS:
                problems.append(f"{where}: the {key} {value} is not one of the three seats in hands")
            else:
                problems.append(f"{where}: unknown {key} {value!r} (use one of the seats in hands)")
    if problems:
        return None, problems
    assert isinstance(trump, str) and isinstance(goal, str)
    assert isinstance(data["leader"], str) and isinstance(data["declarer"], str)
    order = (seats[0], seats[1], seats[2])
    position = Position(
        seats=order,
        hands=(masks[order[0]], masks[order[1]], masks[order[2]]),
        trump=TRUMPS.index(trump) if trump != "NT" else NO_TRUMP,
        leader=order.index(data["leader"]),
        declarer=order.index(data["declarer"]),
        goal=goal,
    )
    return position, []


def parse_position(data: object, number: int = 1) -> Position:
    """One position of formats.md §8.1; :class:`PositionInvalid` lists every problem."""
    position, problems = _problems_of(number, data)
    if position is None:
        raise PositionInvalid(problems)
    return position


def parse_items(
    data: object, noun: str, limit: int, problems_of: Callable[[int, object], tuple[T | None, list[str]]]
) -> list[T]:
    """A JSON list of ``noun`` (at most ``limit``), each read by ``problems_of(number, item)``; every problem of
    every item is reported at once (:class:`PositionInvalid`)."""
    if not isinstance(data, list):
        raise PositionInvalid([f"the input must be a JSON list of {noun}"])
    if len(data) > limit:
        raise PositionInvalid([f"more than {limit} {noun} in one file"])
    items: list[T] = []
    problems: list[str] = []
    for number, item in enumerate(data, start=1):
        parsed, found = problems_of(number, item)
        problems.extend(found)
        if parsed is not None:
            items.append(parsed)
    if problems:
        raise PositionInvalid(problems)
    return items


def parse_positions(data: object) -> list[Position]:
    """The input of ``solve_positions``: a JSON list of positions, every problem of every position reported."""
    return parse_items(data, "positions", MAX_POSITIONS, _problems_of)
