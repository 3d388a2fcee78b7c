"""Boards (сдачи), their layouts, dealing and board sets.

Pure Python, no Django. A :class:`DealtBoard` is one duplicate box: three hands of ten cards and the two-card
prikup (top card first, the seed's «верхняя», «нижняя»), the dealer pocket, the set and the board number.

Pockets (duplicate-rules §1, §3.2; movements §4; formats §2):

* 4-player table: the hands are those of the three seats other than ``dealer``; the dealer's pocket holds
  the prikup (the dealer sits out the deal).
* 3-player table: the hands are N, E, S; the prikup is always in pocket W; ``dealer`` marks the first hand.

So a board's player count follows from its pockets: the prikup in the dealer's pocket means a 4-player
board, the prikup in W with the dealer in N, E or S a 3-player one.

Randomness is passed in: :func:`secure_rng` for a real event, :func:`seeded_rng` to reproduce a deal.
"""

from __future__ import annotations

import enum
import random
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final, cast

from preferans.cards.deck import (
    DECK,
    Card,
    Issue,
    sort_cards,
)
from preferans.game import seats

__all__ = [
    "HAND_SIZE",
    "PRIKUP",
    "PRIKUP_SIZE",
    "DealtBoard",
    "BoardError",
    "DealtBoardSet",
    "Seat",
    "build_board",
    "check_layout",
    "deal_board",
    "deal_sets",
    "deal_boards",
    "dealer_for",
    "dealer_rotation",
    "first_hand",
    "hand_seats",
    "place_name",
    "secure_rng",
    "seeded_rng",
    "set_of_board",
]

HAND_SIZE: Final = 10
PRIKUP_SIZE: Final = 2
PRIKUP: Final = "prikup"
"""The place name of the prikup in issues and fouled-board differences."""


class Seat(enum.Enum):
    """Positions at the table, clockwise N → E → S → W."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def next(self) -> Seat:
        """The next seat clockwise."""
        order = tuple(Seat)
        return order[(order.index(self) + 1) % 4]

    @classmethod
    def parse(cls, text: str) -> Seat:
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise ValueError(f"{text!r} is not a seat (N, E, S or W)") from None


SEAT_ORDER: Final = tuple(Seat)
Hand = tuple[Card, ...]


def place_name(place: str) -> str:
    """How a place reads in an English message: ``"N"`` or ``"the prikup"``."""
    return "the prikup" if place == PRIKUP else place


class BoardError(ValueError):
    """A board or a layout breaks a rule; ``issues`` lists every problem found, each with a stable code."""

    def __init__(self, issues: Sequence[Issue], *, board: int | None = None) -> None:
        self.issues: tuple[Issue, ...] = tuple(issues)
        self.board = board
        prefix = f"board {board}: " if board is not None else ""
        super().__init__(prefix + "; ".join(i.message for i in self.issues))


# --- layout check ---------------------------------------------------------------------------------------

_TIMES: Final = {2: "twice", 3: "3 times", 4: "4 times"}


def _join_places(places: Sequence[str]) -> str:
    words = [f"in {place_name(p)}" for p in places]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def check_layout(
    hands: Mapping[str, Sequence[Card]], prikup: Sequence[Card], *, exact_counts: bool = True
) -> tuple[Issue, ...]:
    """Check that a layout uses the 32 cards exactly once: 3 × 10 + 2.

    ``hands`` maps a place (``"N"`` …) to its cards as written; ``prikup`` is top card first. Returns the
    issues (empty when the layout is right): ``wrong_count`` per place (unless ``exact_counts`` is off, as for
    a fouled board where a card may have gone to the wrong pocket), ``duplicate`` per card written more than
    once, and one ``missing`` listing the cards written nowhere.
    """
    issues: list[Issue] = []
    places: list[tuple[str, Sequence[Card]]] = [*hands.items(), (PRIKUP, prikup)]
    if exact_counts:
        for place, cards in places:
            expected = PRIKUP_SIZE if place == PRIKUP else HAND_SIZE
            if len(cards) != expected:
                what = "the prikup" if place == PRIKUP else place
                noun = "card" if len(cards) == 1 else "cards"
                rule = "it must have 2" if place == PRIKUP else "a hand must have 10"
                issues.append(
                    Issue(
                        code="wrong_count",
                        message=f"{what} has {len(cards)} {noun} — {rule}",
                        params={"place": place, "count": len(cards), "expected": expected},
                        place=place,
                    )
                )
    where: dict[Card, list[str]] = {}
    for place, cards in places:
        for card in cards:
            where.setdefault(card, []).append(place)
    for card in sort_cards(where):
        found = where[card]
        if len(found) < 2:
            continue
        times = _TIMES.get(len(found), f"{len(found)} times")
        distinct = list(dict.fromkeys(found))
        if len(distinct) == 1:
            text = f"{card.symbol_text} is written {times} in {place_name(distinct[0])}"
        else:
            text = f"{card.symbol_text} is written {times}: {_join_places(found)}"
        issues.append(
            Issue(
                code="duplicate",
                message=text,
                params={"card": card.symbol_text, "count": len(found), "places": tuple(found)},
                place=distinct[0] if len(distinct) == 1 else None,
            )
        )
    missing = [card for card in DECK if card not in where]
    if missing:
        listed = ", ".join(c.symbol_text for c in missing)
        issues.append(
            Issue(
                code="missing",
                message=f"missing: {listed}",
                params={"cards": tuple(c.symbol_text for c in missing), "count": len(missing)},
            )
        )
    return tuple(issues)


# --- dealer rotation (movements.md §4) ------------------------------------------------------------------


def _check_players(players: int) -> None:
    if players not in (3, 4):
        raise ValueError(f"a table has 3 or 4 players, not {players}")


def dealer_rotation(players: int) -> tuple[Seat, ...]:
    """The dealer pocket through a set: N, E, S, W at 4 players; N, E, S (the first hand) at 3."""
    _check_players(players)
    return SEAT_ORDER[:players]


def dealer_for(index_in_set: int, players: int) -> Seat:
    """The dealer of the set's board number ``index_in_set`` (0 for the first board of the set)."""
    rotation = dealer_rotation(players)
    return rotation[index_in_set % len(rotation)]


def hand_seats(dealer: Seat, players: int) -> tuple[Seat, Seat, Seat]:
    """The three pockets holding hands: the seats other than the dealer (4 players) or N, E, S (3)."""
    _check_players(players)
    a, b, c = (Seat(s) for s in seats.active_seats(players, dealer.value))
    return (a, b, c)


def first_hand(dealer: Seat, players: int) -> Seat:
    """First hand: the seat after the dealer clockwise (4 players), the dealer label itself (3 players)."""
    _check_players(players)
    return Seat(seats.first_hand(players, dealer.value))


def set_of_board(number: int, per_set: int) -> int:
    """Set ``s`` holds boards ``(s−1)·k+1 … s·k`` (movements.md §4)."""
    return (number - 1) // per_set + 1


# --- the board ------------------------------------------------------------------------------------------


def _pocket_issue(dealer: Seat, seats: Iterable[Seat]) -> Issue | None:
    held = set(seats)
    strangers = [s for s in held if not isinstance(s, Seat)]
    if strangers:
        return Issue(
            code="bad_seat",
            message=f"hands must be keyed by Seat, not {', '.join(map(repr, strangers))}",
            params={"value": repr(strangers[0])},
        )
    if len(held) != 3:
        names = ", ".join(s.value for s in SEAT_ORDER if s in held) or "none"
        return Issue(
            code="hand_seats",
            message=f"a board has hands in exactly three pockets, not {len(held)} ({names})",
            params={"seats": tuple(s.value for s in SEAT_ORDER if s in held)},
        )
    (pocket,) = (s for s in SEAT_ORDER if s not in held)
    if pocket is dealer or (pocket is Seat.W and dealer is not Seat.W):
        return None
    return Issue(
        code="prikup_pocket",
        message=(
            f"the hands are in {', '.join(s.value for s in SEAT_ORDER if s in held)}, so the prikup is in "
            f"{pocket.value}; it must be in the dealer's pocket ({dealer.value}) at a 4-player table "
            "or in W at a 3-player table"
        ),
        params={"pocket": pocket.value, "dealer": dealer.value},
    )


@dataclass(frozen=True)
class DealtBoard:
    """One duplicate box (дубликатная коробка): hands, prikup (top first), dealer, set and number.

    Construction checks everything and raises :class:`BoardError`; hands are stored sorted, in seat order.
    """

    number: int
    set_number: int
    dealer: Seat
    hands: Mapping[Seat, Hand]
    prikup: tuple[Card, Card]

    def __post_init__(self) -> None:
        issues: list[Issue] = []
        for name, value in (("number", self.number), ("set", self.set_number)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                issues.append(
                    Issue(
                        code=f"bad_{name}",
                        message=f"the {name} must be a positive whole number, not {value!r}",
                        params={"value": repr(value)},
                    )
                )
        pocket = _pocket_issue(self.dealer, self.hands)
        if pocket is not None:
            issues.append(pocket)
        prikup = tuple(self.prikup)
        if pocket is None or pocket.code != "bad_seat":
            issues.extend(check_layout({seat.value: cards for seat, cards in self.hands.items()}, prikup))
        if issues:
            number = self.number if isinstance(self.number, int) else None
            raise BoardError(issues, board=number)
        ordered = {seat: sort_cards(self.hands[seat]) for seat in SEAT_ORDER if seat in self.hands}
        object.__setattr__(self, "hands", MappingProxyType(ordered))
        object.__setattr__(self, "prikup", (prikup[0], prikup[1]))

    def __hash__(self) -> int:
        return hash((self.number, self.set_number, self.dealer, tuple(self.hands.items()), self.prikup))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DealtBoard):
            return NotImplemented
        return (
            self.number == other.number
            and self.set_number == other.set_number
            and self.dealer is other.dealer
            and dict(self.hands) == dict(other.hands)
            and self.prikup == other.prikup
        )

    @property
    def prikup_pocket(self) -> Seat:
        """The pocket holding the prikup: the dealer's (4 players) or W (3 players)."""
        (pocket,) = (s for s in SEAT_ORDER if s not in self.hands)
        return pocket

    @property
    def players(self) -> int:
        """3 when the prikup is in W and the dealer label marks a hand, else 4."""
        return 4 if self.prikup_pocket is self.dealer else 3

    @property
    def first_hand(self) -> Seat:
        return first_hand(self.dealer, self.players)

    def place_of(self, card: Card) -> str:
        """``"N"``, ``"E"``, ``"S"``, ``"W"`` or ``"prikup"``."""
        for seat, cards in self.hands.items():
            if card in cards:
                return seat.value
        return PRIKUP

    def cards_at(self, place: str) -> tuple[Card, ...]:
        if place == PRIKUP:
            return self.prikup
        return self.hands.get(Seat(place), ())

    def same_layout(self, other: DealtBoard) -> bool:
        """Same cards in the same pockets and the same prikup order (number, set and dealer aside)."""
        return dict(self.hands) == dict(other.hands) and self.prikup == other.prikup


@dataclass(frozen=True)
class DealtBoardSet:
    """A set (комплект): the boards one table plays in one round, in number order."""

    number: int
    boards: tuple[DealtBoard, ...]


# --- dealing --------------------------------------------------------------------------------------------


def secure_rng() -> random.Random:
    """The operating system's secure randomness, for dealing a real event."""
    return secrets.SystemRandom()


def seeded_rng(seed: int) -> random.Random:
    """A reproducible generator: the same seed deals the same boards."""
    return random.Random(seed)


def deal_board(rng: random.Random, *, number: int, set_number: int, dealer: Seat, players: int) -> DealtBoard:
    """Shuffle the 32 cards with ``rng`` and fill the three hand pockets and the prikup (top card first)."""
    cards = list(DECK)
    rng.shuffle(cards)
    seats = hand_seats(dealer, players)
    hands = {seat: tuple(cards[HAND_SIZE * i : HAND_SIZE * (i + 1)]) for i, seat in enumerate(seats)}
    return DealtBoard(
        number=number, set_number=set_number, dealer=dealer, hands=hands, prikup=(cards[30], cards[31])
    )


def _check_positive(name: str, value: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive whole number, not {value!r}")


def deal_sets(rng: random.Random, *, sets: int, per_set: int, players: int) -> tuple[DealtBoardSet, ...]:
    """Deal ``sets · per_set`` boards: set ``s`` holds boards ``(s−1)·k+1 … s·k``, dealer rotating per set."""
    _check_positive("the number of sets", sets)
    _check_positive("the number of boards per set", per_set)
    _check_players(players)
    result: list[DealtBoardSet] = []
    for s in range(1, sets + 1):
        boards = tuple(
            deal_board(
                rng,
                number=(s - 1) * per_set + j + 1,
                set_number=s,
                dealer=dealer_for(j, players),
                players=players,
            )
            for j in range(per_set)
        )
        result.append(DealtBoardSet(number=s, boards=boards))
    return tuple(result)


def deal_boards(rng: random.Random, *, sets: int, per_set: int, players: int) -> tuple[DealtBoard, ...]:
    """:func:`deal_sets`, flattened in board-number order."""
    return tuple(
        board
        for board_set in deal_sets(rng, sets=sets, per_set=per_set, players=players)
        for board in board_set.boards
    )


def build_board(
    *,
    number: int,
    set_number: int,
    dealer: Seat,
    hands: Mapping[Seat, Sequence[Card]],
    prikup: Sequence[Card],
) -> DealtBoard:
    """Make a board from cards (e.g. a hand-entered layout), raising :class:`BoardError` with every issue."""
    return DealtBoard(
        number=number,
        set_number=set_number,
        dealer=dealer,
        hands={seat: tuple(cards) for seat, cards in hands.items()},
        prikup=cast("tuple[Card, Card]", tuple(prikup)),  # the length is checked by Board
    )
