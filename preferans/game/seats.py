"""Where the players sit: the seats of a table, who holds cards, who defends, who is first hand (spec §2).

The one home of the table's geometry: the ledger, the bundle, the director's and the players' row forms and the
write path all ask here.

* A 4-player table seats N, E, S, W; the dealer sits out the deal (but shares in its settlement).
* A 3-player table seats N, E, S; W holds the prikup. The board's «dealer» label then marks the first hand.
* Play goes clockwise N → E → S → W; a declarer's defenders are the two active seats after him.
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "SEATS",
    "active_seats",
    "clockwise_after",
    "defenders",
    "first_hand",
    "hands_in_order",
    "table_seats",
]

SEATS: Final[tuple[str, ...]] = ("N", "E", "S", "W")


def table_seats(players: int) -> tuple[str, ...]:
    """The seats of a table: N, E, S, W at 4 players; N, E, S at 3 (W holds the prikup)."""
    if players not in (3, 4):
        raise ValueError(f"a table has 3 or 4 players, not {players}")
    return SEATS if players == 4 else SEATS[:3]


def active_seats(players: int, dealer: str | None) -> tuple[str, ...]:
    """The three seats holding cards, clockwise (the 4-player dealer sits out)."""
    return tuple(s for s in table_seats(players) if players == 3 or s != dealer)


def clockwise_after(active: tuple[str, ...], seat: str) -> tuple[str, str]:
    """The two other seats of the three ``active`` ones, clockwise after ``seat``."""
    i = active.index(seat)
    return active[(i + 1) % 3], active[(i + 2) % 3]


def defenders(players: int, dealer: str | None, declarer: str) -> tuple[str, str]:
    """The declarer's defenders d1, d2: the other two active seats, clockwise after him (spec §2)."""
    return clockwise_after(active_seats(players, dealer), declarer)


def first_hand(players: int, dealer: str) -> str:
    """First hand: the seat after the 4-player dealer; at 3 players the board's «dealer» label itself (N when
    the label is W, the prikup's pocket)."""
    if players == 4:
        return SEATS[(SEATS.index(dealer) + 1) % 4]
    return dealer if dealer in table_seats(3) else SEATS[0]


def hands_in_order(players: int, dealer: str) -> tuple[str, str, str]:
    """First, second and third hand (the raspasy columns, spec §8)."""
    first = first_hand(players, dealer)
    second, third = defenders(players, dealer, first)
    return first, second, third
