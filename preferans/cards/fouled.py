"""Fouled boards («испорченная сдача», duplicate-rules §10).

A board is fouled when cards were displaced, so tables whose results should be compared did not play the
same deal. The director enters the layout a table actually played; :func:`compare_layouts` says which cards
moved compared with the board's deal (``"♠A: N → E"``, ``"♦7: prikup → S"``), and :func:`version_labels`
splits the tables into versions (``"A"`` = as dealt, ``"B"``, ``"C"`` … one per distinct altered layout),
which are matchpointed separately (formats.md §2.1 ``version``).

Pure Python, no Django. A played layout need not be 3 × 10 + 2 (a card may have gone into the wrong pocket),
but it must hold each of the 32 cards exactly once, in the same pockets as the board.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from preferans.cards.deal import (
    HAND_SIZE,
    PRIKUP,
    PRIKUP_SIZE,
    BoardError,
    DealtBoard,
    Seat,
    check_layout,
    place_name,
)
from preferans.cards.deck import DECK, Card, Issue, sort_cards

__all__ = ["CardMove", "FouledComparison", "PlayedLayout", "compare_layouts", "version_labels"]

_ARROW: Final = "→"


@dataclass(frozen=True)
class PlayedLayout:
    """The pockets as a table played them: hands by seat and the prikup, top card first."""

    hands: Mapping[Seat, tuple[Card, ...]]
    prikup: tuple[Card, ...]

    def __post_init__(self) -> None:
        ordered = {seat: sort_cards(self.hands[seat]) for seat in Seat if seat in self.hands}
        object.__setattr__(self, "hands", MappingProxyType(ordered))
        object.__setattr__(self, "prikup", tuple(self.prikup))

    def _key(self) -> tuple[object, ...]:
        return (tuple(self.hands.items()), self.prikup)

    def __hash__(self) -> int:
        return hash(self._key())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlayedLayout):
            return NotImplemented
        return self._key() == other._key()

    @classmethod
    def of(cls, board: DealtBoard) -> PlayedLayout:
        """The board's own layout (played as dealt)."""
        return cls(hands=board.hands, prikup=board.prikup)

    def place_of(self, card: Card) -> str:
        for seat, cards in self.hands.items():
            if card in cards:
                return seat.value
        return PRIKUP


@dataclass(frozen=True)
class CardMove:
    """One card found in another pocket than the deal put it in."""

    card: Card
    source: str  # "N", "E", "S", "W" or "prikup": where the board's deal has it
    target: str  # where the table had it

    @property
    def text(self) -> str:
        return f"{self.card.symbol_text}: {self.source} {_ARROW} {self.target}"


@dataclass(frozen=True)
class FouledComparison:
    """The differences between a board's deal and the layout a table played."""

    moves: tuple[CardMove, ...]
    prikup_dealt: tuple[Card, ...]
    prikup_played: tuple[Card, ...]
    counts: Mapping[str, int] = field(default_factory=dict, hash=False)
    """Pockets whose played card count is not the normal one (10, or 2 for the prikup): place → count."""

    @property
    def prikup_order_changed(self) -> bool:
        """The same two prikup cards, but top and bottom swapped (matters when raspasy open the prikup)."""
        return self.prikup_dealt != self.prikup_played and sorted(
            self.prikup_dealt, key=lambda c: c.sort_key
        ) == sorted(self.prikup_played, key=lambda c: c.sort_key)

    @property
    def is_fouled(self) -> bool:
        return bool(self.moves) or self.prikup_dealt != self.prikup_played

    @property
    def lines(self) -> tuple[str, ...]:
        if not self.is_fouled:
            return ("no difference: the table played the board as dealt",)
        out = [move.text for move in self.moves]
        if self.prikup_dealt != self.prikup_played:
            out.append(
                f"prikup (top, bottom): {_pair(self.prikup_dealt)} {_ARROW} {_pair(self.prikup_played)}"
            )
        for place, count in self.counts.items():
            what = place_name(place)
            normal = PRIKUP_SIZE if place == PRIKUP else HAND_SIZE
            out.append(f"{what} had {count} card{'s' if count != 1 else ''} instead of {normal}")
        return tuple(out)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def _pair(cards: Sequence[Card]) -> str:
    return ", ".join(c.symbol_text for c in cards) if cards else "—"


def compare_layouts(board: DealtBoard, played: PlayedLayout) -> FouledComparison:
    """Which cards moved between the board's deal and ``played``.

    Raises :class:`BoardError` when ``played`` does not use the board's hand pockets or does not hold each
    of the 32 cards exactly once.
    """
    if set(played.hands) != set(board.hands):
        wanted = ", ".join(seat.value for seat in board.hands)
        got = ", ".join(seat.value for seat in played.hands)
        raise BoardError(
            [
                Issue(
                    code="hand_seats",
                    message=f"board {board.number} has hands in {wanted}; the played layout has them in {got}",
                    params={
                        "expected": tuple(s.value for s in board.hands),
                        "got": tuple(s.value for s in played.hands),
                    },
                )
            ],
            board=board.number,
        )
    issues = check_layout({s.value: c for s, c in played.hands.items()}, played.prikup, exact_counts=False)
    if issues:
        raise BoardError(issues, board=board.number)
    moves = tuple(
        CardMove(card=card, source=board.place_of(card), target=played.place_of(card))
        for card in DECK
        if board.place_of(card) != played.place_of(card)
    )
    counts: dict[str, int] = {
        seat.value: len(cards) for seat, cards in played.hands.items() if len(cards) != HAND_SIZE
    }
    if len(played.prikup) != PRIKUP_SIZE:
        counts[PRIKUP] = len(played.prikup)
    return FouledComparison(
        moves=moves, prikup_dealt=board.prikup, prikup_played=played.prikup, counts=MappingProxyType(counts)
    )


def version_labels(board: DealtBoard, played: Sequence[PlayedLayout | None]) -> tuple[str, ...]:
    """Label each table's layout: ``"A"`` when played as dealt (or ``None``: not entered, taken as dealt),
    then ``"B"``, ``"C"`` … for each distinct altered layout in order of first appearance.

    Every altered layout is checked with :func:`compare_layouts` first (raising :class:`BoardError`).
    """
    dealt = PlayedLayout.of(board)
    labels: dict[PlayedLayout, str] = {dealt: "A"}
    out: list[str] = []
    for layout in played:
        if layout is None:
            out.append("A")
            continue
        if layout not in labels:
            compare_layouts(board, layout)
            labels[layout] = _label(len(labels))
        out.append(labels[layout])
    return tuple(out)


def _label(index: int) -> str:
    """0 → A, 25 → Z, 26 → AA …"""
    label = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        label = chr(ord("A") + rest) + label
    return label
