"""The protocol row's errors and the checks every kind of deal shares (spec §11.4): the table, the three
[seat, tricks] columns, their clockwise order and total, true/false flags and small whole numbers.

Each check appends :class:`RowError` values to an :class:`ErrorList`; the kinds of deal are checked by
:mod:`.contract_checks` and :mod:`.misere_raspasy_checks`, and :mod:`.rows` puts them together.
Pure Python: no Django import.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field

from .ledger import SEATS, TableSeats

__all__ = [
    "CONTRACT_COLUMN_NAMES",
    "RASPASY_COLUMN_NAMES",
    "ErrorList",
    "RowError",
    "RowInvalid",
    "bool_field",
    "check_order",
    "check_table",
    "int_field",
    "positions",
    "present",
    "totals_and_order",
]

_COLUMNS = ("declarer", "w1", "w2")
CONTRACT_COLUMN_NAMES = {"declarer": "declarer", "w1": "first whister", "w2": "second whister"}
RASPASY_COLUMN_NAMES = {"declarer": "first hand", "w1": "second hand", "w2": "third hand"}


@dataclass(frozen=True)
class RowError:
    """One broken rule of a protocol row."""

    code: str  # stable machine code, e.g. "tricks_total"
    field: str  # the row field at fault: "declarer", "w1", "calls.E", "play", "vists.N", …
    message: str  # plain English, e.g. "tricks total 11 — they must total 10"
    params: Mapping[str, object] = dataclass_field(default_factory=dict)


class RowInvalid(ValueError):
    """A protocol row breaks one or more rules of spec §11.4; ``errors`` lists them all."""

    def __init__(self, errors: Sequence[RowError]) -> None:
        self.errors: tuple[RowError, ...] = tuple(errors)
        super().__init__("; ".join(error.message for error in self.errors))

    def __reduce__(self) -> tuple[type[RowInvalid], tuple[tuple[RowError, ...]]]:
        return (RowInvalid, (self.errors,))  # survives pickling (task queues) with its errors


class ErrorList(list[RowError]):
    """The problems found so far; ``add`` formats the message from its params."""

    def add(self, code: str, field_name: str, template: str, **params: object) -> None:
        self.append(RowError(code, field_name, template.format(**params), params))


def present(row: Mapping[str, object], key: str) -> bool:
    """An optional row field counts as absent when missing or null."""
    return row.get(key) is not None


def bool_field(row: Mapping[str, object], key: str, errors: ErrorList) -> bool:
    """An optional true/false field (absent: false)."""
    raw = row.get(key)
    if raw is None:
        return False
    if not isinstance(raw, bool):
        errors.add("not_boolean", key, "{key} must be true or false, not {value!r}", key=key, value=raw)
        return False
    return raw


def int_field(row: Mapping[str, object], key: str, errors: ErrorList, low: int, high: int) -> int | None:
    """An optional whole number from ``low`` to ``high`` (absent or wrong: ``None``)."""
    raw = row.get(key)
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        errors.add(
            "out_of_range",
            key,
            "{key} {value!r} — it must be a whole number {low} to {high}",
            key=key,
            value=raw,
            low=low,
            high=high,
        )
        return None
    return raw


def check_table(players: object, dealer: str | None, errors: ErrorList) -> TableSeats | None:
    """The table's seats: 3 or 4 players, and the dealer's seat at a 4-player table."""
    if players not in (3, 4):
        errors.add("players", "players", "a table has 3 or 4 players, not {players!r}", players=players)
        return None
    if players == 4:
        if dealer not in SEATS:
            errors.add(
                "dealer",
                "dealer",
                "a 4-player table needs the dealer's seat (N, E, S or W), not {dealer!r}",
                dealer=dealer,
            )
            return None
        return TableSeats.standard(4, dealer)
    if dealer is not None and dealer not in ("N", "E", "S"):
        errors.add(
            "dealer",
            "dealer",
            "the first hand of a 3-player table is N, E or S, not {dealer!r} (W holds the prikup)",
            dealer=dealer,
        )
        return None
    return TableSeats.standard(3, None)


def positions(
    row: Mapping[str, object], table: TableSeats, names: Mapping[str, str], errors: ErrorList
) -> dict[str, tuple[str, int]] | None:
    """The three [seat, tricks] columns, checked for shape, seat, tricks 0…10 and distinct seats (§11.4.1–3)."""
    found: dict[str, tuple[str, int]] = {}
    start = len(errors)
    for column in _COLUMNS:
        raw = row.get(column)
        name = names[column]
        if not isinstance(raw, (list, tuple)) or len(raw) != 2:
            errors.add(
                "position",
                column,
                "{name} must be written as [seat, tricks], not {value!r}",
                name=name,
                value=raw,
            )
            continue
        seat, tricks = raw
        if seat not in SEATS:
            errors.add("seat", column, "{name}: {seat!r} is not a seat (N, E, S or W)", name=name, seat=seat)
            continue
        if seat not in table.seats:
            errors.add(
                "seat_empty",
                column,
                "{name} is {seat}, but {seat} is empty at a 3-player table (the prikup pocket)",
                name=name,
                seat=seat,
            )
            continue
        if seat == table.dealer:
            errors.add(
                "dealer_position",
                column,
                "{name} is the dealer {seat}, who sits out at a 4-player table",
                name=name,
                seat=seat,
            )
            continue
        if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= 10:
            errors.add(
                "tricks_range",
                column,
                "{name}'s tricks {tricks!r} — tricks are whole numbers 0 to 10",
                name=name,
                tricks=tricks,
            )
            continue
        for other, (other_seat, _) in found.items():
            if other_seat == seat:
                errors.add(
                    "duplicate_position",
                    column,
                    "duplicate position {seat}: {other} and {name} are both {seat}",
                    seat=seat,
                    other=names[other],
                    name=name,
                )
                break
        else:
            found[column] = (seat, tricks)
    return found if len(errors) == start else None


def check_order(
    pos: Mapping[str, tuple[str, int]], table: TableSeats, first: str, errors: ErrorList, template: str
) -> None:
    """The w1 and w2 columns are the two seats after ``first``, clockwise."""
    expected = table.after(first)
    actual = (pos["w1"][0], pos["w2"][0])
    if actual != expected:
        errors.add("column_order", "w1", template, after=first, first=expected[0], second=expected[1])


def totals_and_order(pos: Mapping[str, tuple[str, int]], table: TableSeats, errors: ErrorList) -> None:
    """The tricks of a played contract or misère total 10, the whisters after the declarer clockwise."""
    total = sum(t for _, t in pos.values())
    if total != 10:
        errors.add(
            "tricks_total",
            "declarer",
            "tricks total {total} — they must total 10",
            total=total,
            tricks=[t for _, t in pos.values()],
        )
    check_order(
        pos,
        table,
        pos["declarer"][0],
        errors,
        "whister columns not in clockwise order: after {after} the first whister is {first} and the second {second}",
    )
