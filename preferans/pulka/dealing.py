"""Breaks in the dealing order, written by the director on a pulka row (two optional fields, formats §7.1):

- ``"dealt_by": seat`` — the deal was dealt out of turn by ``seat`` and stands (Code 3.2.14: «Если же сдача
  окончена и хотя бы один из участников игры поднял карты, сдача считается законной ... Следующая сдача в этом
  случае принадлежит игроку, сидящему слева от сдавшего»): this deal's dealer is ``seat``, and the order goes on
  from him.
- ``"not_written": true`` — the deal passes without a written game (Code 3.2.17 «условленный ремиз ... и переход
  сдачи»; 4.2.10, a forgotten entry a partner refuses to «вспомнить»): the row holds only the extra entries the
  director writes (a penalty), if any. The software's choices: it counts as a deal of the order (the next dealer,
  the deal limit, the number of deals), it leaves the raspasy chain as it was, and it writes nothing in the
  compensation column (nothing was played).

Pure Python: no Django import.
"""

from __future__ import annotations

from collections.abc import Mapping

from preferans.game import Deal, DealKind, TableSeats
from preferans.game.row_fields import ErrorList, RowError, check_table
from preferans.game.rows import parse_extra_entries

from .setup import PulkaSetup, row_dealer_label

__all__ = ["DEALING_FIELDS", "Dealing", "not_written_deal", "dealing_of"]

DEALING_FIELDS = ("dealt_by", "not_written")
NOT_WRITTEN_KEYS = frozenset({"not_written", "dealt_by", "extra_entries"})


class Dealing:
    """Who deals deal ``number``: the rotation from the first dealer (P-11), shifted by every ``dealt_by``."""

    def __init__(self, setup: PulkaSetup, shift: int = 0) -> None:
        self.setup = setup
        self.shift = shift

    def dealer(self, number: int) -> str:
        seats = self.setup.seats
        start = seats.index(self.setup.first_dealer)
        return seats[(start + number - 1 + self.shift) % len(seats)]

    def first_hand(self, number: int) -> str:
        seats = self.setup.seats
        return seats[(seats.index(self.dealer(number)) + 1) % len(seats)]

    def row_dealer(self, number: int) -> str:
        return row_dealer_label(self.setup.players, self.dealer(number), self.first_hand(number))

    def with_dealer(self, number: int, seat: str) -> Dealing:
        """The order after deal ``number`` was dealt by ``seat`` (Code 3.2.14)."""
        seats = self.setup.seats
        start = seats.index(self.setup.first_dealer)
        return Dealing(self.setup, (seats.index(seat) - (start + number - 1)) % len(seats))


def dealing_of(row: Mapping[str, object], number: int, dealing: Dealing) -> tuple[Dealing, RowError | None]:
    """The order for deal ``number`` given the row's ``dealt_by`` (or the order as it is), or why not."""
    seat = row.get("dealt_by")
    if seat is None:
        return dealing, None
    if not isinstance(seat, str) or seat not in dealing.setup.seats:
        seats = ", ".join(dealing.setup.seats)
        return dealing, RowError(
            "dealt_by", "dealt_by", f"dealt_by: the seat who dealt, one of {seats}", {"seats": seats}
        )
    return dealing.with_dealer(number, seat), None


def not_written_deal(
    row: Mapping[str, object], setup: PulkaSetup, label: str
) -> tuple[Deal | None, TableSeats | None, list[RowError]]:
    """A deal that passes without a written game: only its extra entries (Code 3.2.17, 4.2.10)."""
    errors = ErrorList()
    if row.get("not_written") is not True:
        errors.add("not_written", "not_written", "not_written is true or absent")
    for key in sorted(set(row) - NOT_WRITTEN_KEYS):
        errors.add(
            "not_written_field",
            key,
            "{key} has no place in a deal not written: it holds only extra entries (Code 3.2.17, 4.2.10)",
            key=key,
        )
    table = check_table(setup.players, label, errors)
    if table is None or errors:
        return None, None, list(errors)
    extras = parse_extra_entries(row, table, errors)
    if errors:
        return None, None, list(errors)
    return Deal(DealKind.NONE, extra_entries=extras), table, []
