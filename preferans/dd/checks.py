"""What a board's double-dummy analysis says about one protocol row (issue 19): the suspicious-row findings for
the director, and the personal card's "tricks taken / possible".

The analysis is the ``seats`` object of formats.md §8.2 for the layout the row was played with:
``{"N": {"S": 6, "C": 5, "D": 4, "H": 7, "NT": 5, "misere": 2, "discards": {…}}, …}`` — for S C D H NT the most
tricks the seat takes as declarer after his best discard against the best defence, for ``misere`` the fewest
tricks he cannot avoid (0: the misère is made). The row is the core's :class:`preferans.game.ledger.Deal`
(``preferans.game.rows.parse_row`` of a valid row).

Findings (:func:`row_findings`), each a stable ``code`` with the numbers (taken, possible):

- ``over_possible`` — a trick contract was played (someone whisted) and the declarer took more tricks than the
  layout allows him in the contract's strain by best defence: the defence erred, or the row or the board is
  wrong.
- ``made_unmakeable`` — the same, and the row has the contract made although no play against best defence makes
  it (taken ≥ level > possible): the contract and the tricks do not fit this layout together; most often the
  strain or the declarer was written wrong, or the table played another layout (a fouled board).
- ``misere_under_possible`` — a misère where the declarer took fewer tricks than the defence can force on him.
- ``seat_not_in_layout`` — the row's declarer holds no hand in the analysed layout (the row and the layout
  disagree about who sits out): the row cannot be of this layout.

Each of the first three also names ``fits``: the other seats whose analysis allows the recorded tricks in the
same strain (a hint that the declarer's seat was mistyped).

No finding, on purpose:

- raspasy (all passed): the analysis holds no raspasy values, and raspasy play is not a declarer against two
  defenders;
- a trick contract that nobody whisted (including a half-whist): there was no play, the tricks are nominal;
- a row with a wrong number of cards at some seat (Code 3.9.18): the table did not play the dealt layout;
- a deal with only extra entries (no deal played).

What is already refused when a row is saved (tricks not totalling 10, a seat out of range, the dealer of a
4-player table in a column) is not checked again here.

The personal card's line (:func:`tricks_line`): the declarer of a trick contract — his tricks against the
analysis in the contract's strain; a whister (a defender who said whist) — the two defenders' tricks together
against 10 minus the declarer's analysis (what best defence takes); a misère — the declarer's tricks against
the misère value, for the declarer (lower is better) and for both catchers (higher is better). Raspasy, a deal
without play and a passer or the 4-player dealer: no line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from preferans.game.contracts import ContractKind
from preferans.game.ledger import Call, Deal, DealKind, Play

__all__ = [
    "MADE_UNMAKEABLE",
    "MISERE_UNDER_POSSIBLE",
    "OVER_POSSIBLE",
    "SEAT_NOT_IN_LAYOUT",
    "Finding",
    "TricksLine",
    "row_findings",
    "tricks_line",
]

OVER_POSSIBLE: Final = "over_possible"
MADE_UNMAKEABLE: Final = "made_unmakeable"
MISERE_UNDER_POSSIBLE: Final = "misere_under_possible"
SEAT_NOT_IN_LAYOUT: Final = "seat_not_in_layout"
MISERE_KEY: Final = "misere"

Seats = Mapping[str, Mapping[str, Any]]


@dataclass(frozen=True)
class Finding:
    """One reason to look at a row again. ``possible`` is None for ``seat_not_in_layout``."""

    code: str
    declarer: str
    strain: str  # S C D H NT, or "misere"
    taken: int
    possible: int | None
    level: int | None = None  # the contract's level (trick contracts)
    fits: tuple[str, ...] = ()  # other seats whose analysis allows the recorded tricks in this strain

    @property
    def message(self) -> str:
        """Plain English (the web pages translate by ``code``)."""
        if self.code == SEAT_NOT_IN_LAYOUT:
            return f"the declarer {self.declarer} holds no hand in the analysed layout"
        if self.code == MISERE_UNDER_POSSIBLE:
            return f"misère by {self.declarer}: took {self.taken}, the defence can force {self.possible}"
        return (
            f"{self.level}{self.strain} by {self.declarer}: took {self.taken}, "
            f"best defence allows {self.possible}"
        )


@dataclass(frozen=True)
class TricksLine:
    """The personal card's "taken / possible" for one seat of a row.

    ``role``: "declarer", "whister" (trick contracts) or "misere_declarer", "misere_catcher". ``better``:
    "more" when taking more than ``possible`` is better for the seat, "fewer" for a misère declarer.
    """

    role: str
    taken: int
    possible: int
    better: str

    @property
    def difference(self) -> int:
        """Positive when the seat did better than best play by everyone, negative when worse."""
        return self.taken - self.possible if self.better == "more" else self.possible - self.taken


def _value(seats: Seats, seat: str, key: str) -> int | None:
    entry = seats.get(seat)
    if not isinstance(entry, Mapping):
        return None
    value = entry.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _fits(seats: Seats, declarer: str, key: str, allows: Callable[[int], bool]) -> tuple[str, ...]:
    found = []
    for seat in seats:
        value = _value(seats, seat, key)
        if seat != declarer and value is not None and allows(value):
            found.append(seat)
    return tuple(found)


def _played_contract(deal: Deal) -> bool:
    """A trick contract that was really played: someone whisted and every seat had its cards."""
    return (
        deal.kind is DealKind.CONTRACT
        and deal.contract is not None
        and deal.contract.kind is ContractKind.TRICKS
        and deal.play in (Play.OPEN, Play.CLOSED)
        and not deal.wrong_cards
    )


def row_findings(deal: Deal, seats: Seats) -> tuple[Finding, ...]:
    """Every finding of the row ``deal`` against the analysis ``seats`` (see the module's docstring)."""
    declarer = deal.declarer
    if declarer is None or deal.kind not in (DealKind.CONTRACT, DealKind.MISERE):
        return ()  # raspasy, or no deal played
    if deal.kind is DealKind.CONTRACT and not _played_contract(deal):
        return ()
    if declarer not in seats:
        strain = (
            MISERE_KEY if deal.kind is DealKind.MISERE else str(deal.contract.strain if deal.contract else "")
        )
        level = deal.contract.level if deal.contract else None
        return (Finding(SEAT_NOT_IN_LAYOUT, declarer, strain, deal.tricks.get(declarer, 0), None, level),)
    taken = deal.tricks.get(declarer)
    if taken is None:
        return ()
    if deal.kind is DealKind.MISERE:
        possible = _value(seats, declarer, MISERE_KEY)
        if possible is None or taken >= possible:
            return ()
        fits = _fits(seats, declarer, MISERE_KEY, lambda v: v <= taken)
        return (Finding(MISERE_UNDER_POSSIBLE, declarer, MISERE_KEY, taken, possible, None, fits),)
    assert deal.contract is not None and deal.contract.strain is not None and deal.contract.level is not None
    strain, level = deal.contract.strain, deal.contract.level
    possible = _value(seats, declarer, strain)
    if possible is None or taken <= possible:
        return ()
    code = MADE_UNMAKEABLE if taken >= level > possible else OVER_POSSIBLE
    fits = _fits(seats, declarer, strain, lambda v: v >= taken)
    return (Finding(code, declarer, strain, taken, possible, level, fits),)


def tricks_line(deal: Deal, seat: str, seats: Seats) -> TricksLine | None:
    """The personal card's line for ``seat`` of the row ``deal``, or None (see the module's docstring)."""
    declarer = deal.declarer
    if declarer is None or declarer not in seats or deal.wrong_cards:
        return None
    taken = deal.tricks.get(declarer)
    if taken is None:
        return None
    if deal.kind is DealKind.MISERE:
        value = _value(seats, declarer, MISERE_KEY)
        if value is None or seat not in deal.tricks:
            return None
        if seat == declarer:
            return TricksLine("misere_declarer", taken, value, "fewer")
        return TricksLine("misere_catcher", taken, value, "more")
    if not _played_contract(deal):
        return None
    assert deal.contract is not None and deal.contract.strain is not None
    value = _value(seats, declarer, deal.contract.strain)
    if value is None:
        return None
    if seat == declarer:
        return TricksLine("declarer", taken, value, "more")
    if seat in deal.tricks and deal.calls.get(seat) is Call.WHIST:
        return TricksLine("whister", 10 - taken, 10 - value, "more")
    return None
