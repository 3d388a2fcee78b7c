"""Building blocks of the bundle parser: problems and where they are, field checks, the movement's shape,
a copy of decoded JSON.

Pure Python, no Django import. See :mod:`preferans.bundle.document`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, replace
from typing import Any

from preferans.bundle.bounds import (
    BOARDS_MAX,
    PARTICIPANT_NUMBER_MAX,
    PARTICIPANTS_MAX,
    ROOMS_MAX,
    ROUNDS_MAX,
    TABLES_MAX,
    TEXT_MAX,
    control_characters,
)
from preferans.game.seats import SEATS

__all__ = [
    "BOOK_PARTICIPANTS",
    "SEATS",
    "Loc",
    "Problem",
    "Problems",
    "BOUNDS",
    "check_bound",
    "check_keys",
    "check_text",
    "describe",
    "json_copy",
    "movement_places",
    "parse_movement",
    "positive_int",
]

BOOK_PARTICIPANTS = frozenset({8, 9, 12, 13, 16, 18, 24})


@dataclass(frozen=True)
class Loc:
    """Where a problem is: session, board, room, table and round when known, else a short description."""

    session: int | None = None
    board: int | None = None
    table: int | None = None
    round: int | None = None
    where: str | None = None
    room: int | None = None
    """Named only when it is not room 1 (the default, and the only room of most events)."""

    def at(self, **changes: Any) -> Loc:
        return replace(self, **changes)

    def __str__(self) -> str:
        parts = []
        if self.session is not None:
            parts.append(f"session {self.session}")
        if self.board is not None:
            parts.append(f"board {self.board}")
        if self.room is not None and self.room != 1:
            parts.append(f"room {self.room}")
        if self.table is not None:
            parts.append(f"table {self.table}")
        if self.round is not None:
            parts.append(f"round {self.round}")
        if self.where:
            parts.append(self.where)
        return ", ".join(parts) or "bundle"


@dataclass(frozen=True)
class Problem:
    """One problem of a bundle: ``"session 1, board 3, table 2, round 1: tricks total 11 — …"``."""

    message: str
    loc: Loc = Loc()

    def __str__(self) -> str:
        return f"{self.loc}: {' '.join(self.message.split())}"


class Problems:
    """Collects problems in the order they are found."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(self, loc: Loc, message: str) -> None:
        self.items.append(Problem(message, loc))

    def items_tuple(self) -> tuple[Problem, ...]:
        return tuple(self.items)

    def __len__(self) -> int:
        return len(self.items)


def describe(value: object) -> str:
    """A JSON value's kind, for messages: ``an object``, ``a list``, ``the string 'x'``, ``the number 1.5``…"""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"the string {value!r}"
    return f"the number {value!r}"


def positive_int(value: object) -> int | None:
    """A JSON integer ≥ 1 (``true`` is not one), else ``None``."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
        return value
    return None


BOUNDS = {
    "participants": PARTICIPANTS_MAX,
    "participant": PARTICIPANT_NUMBER_MAX,
    "number": PARTICIPANT_NUMBER_MAX,
    "tables": TABLES_MAX,
    "table": TABLES_MAX,
    "rooms": ROOMS_MAX,
    "room": ROOMS_MAX,
    "rounds": ROUNDS_MAX,
    "round": ROUNDS_MAX,
    "board": BOARDS_MAX,
    "sets": BOARDS_MAX,
    "set": BOARDS_MAX,
    "deals_per_set": BOARDS_MAX,
    "session": ROUNDS_MAX,
}
"""The largest value of each numbered field of a bundle (formats.md §2); one table for every reader."""


def check_bound(problems: Problems, loc: Loc, key: str, value: int) -> bool:
    """Whether ``value`` is within the bound of ``key`` (:data:`BOUNDS`); if not, the problem names the bound."""
    bound = BOUNDS[key]
    if value > bound:
        problems.add(loc, f"{key} {value} is out of bounds — at most {bound}")
        return False
    return True


def check_text(problems: Problems, loc: Loc, key: str, value: str, bound: int = TEXT_MAX) -> None:
    """A text of a bundle: at most ``bound`` characters, no control characters (formats.md §2)."""
    if len(value) > bound:
        problems.add(loc, f"{key} is longer than {bound} characters ({len(value)})")
    if control_characters(value):
        problems.add(
            loc, f"{key} holds a control character (a line break, tab or similar) — write it on one line"
        )


def check_keys(
    problems: Problems,
    loc: Loc,
    obj: dict[str, Any],
    *,
    allowed: Collection[str],
    required: Iterable[str],
    what: str,
) -> None:
    """Unknown fields are errors (formats.md §2); so are missing required ones."""
    for key in obj:
        if key not in allowed:
            problems.add(loc, f"unknown field {key!r} in a {what} — the format has no such field")
    for key in required:
        if key not in obj:
            problems.add(loc, f"missing field {key!r} — a {what} needs it")


_EXPLICIT_KEYS = frozenset(
    {
        "scheme",
        "rounds",
        "participants",
        "per_table",
        "tables",
        "sets",
        "deals_per_set",
        "properties",
        "rooms",
        "full_rounds",
        "explanation",
    }
)
"""The movement JSON of formats.md §4 with its optional extras (``rooms``, ``full_rounds``, ``explanation``):
what the ``movement`` command prints can be pasted into a bundle as it is."""


def parse_movement(raw: object, problems: Problems, loc: Loc) -> dict[str, Any] | None:
    """Check a session's movement for shape only (formats.md §2, §4) and return it as written."""
    loc = loc.at(where="movement")
    if not isinstance(raw, dict):
        problems.add(loc, f"must be an object with a scheme, not {describe(raw)}")
        return None
    before = len(problems)
    scheme = raw.get("scheme")
    if scheme == "basic":
        check_keys(
            problems,
            loc,
            raw,
            allowed=("scheme", "tables", "rounds", "rooms"),
            required=("tables",),
            what="basic movement",
        )
        for key in ("tables", "rounds", "rooms"):
            if key in raw and positive_int(raw[key]) is None:
                problems.add(loc, f"{key} must be a positive integer, not {raw[key]!r}")
            elif key in raw:
                check_bound(problems, loc, key, raw[key])
    elif scheme == "book":
        check_keys(
            problems,
            loc,
            raw,
            allowed=("scheme", "participants", "rounds"),
            required=("participants",),
            what="book movement",
        )
        if "participants" in raw and (
            positive_int(raw["participants"]) is None or raw["participants"] not in BOOK_PARTICIPANTS
        ):
            problems.add(
                loc,
                f"the book has schemes for 8, 9, 12, 13, 16, 18 and 24 participants, not {raw['participants']!r}",
            )
        if "rounds" in raw and positive_int(raw["rounds"]) is None:
            problems.add(loc, f"rounds must be a positive integer, not {raw['rounds']!r}")
        elif "rounds" in raw:
            check_bound(problems, loc, "rounds", raw["rounds"])
    elif scheme == "explicit":
        check_keys(problems, loc, raw, allowed=_EXPLICIT_KEYS, required=("rounds",), what="explicit movement")
        for key in ("participants", "tables", "sets", "deals_per_set", "rooms"):
            if key in raw and positive_int(raw[key]) is None:
                problems.add(loc, f"{key} must be a positive integer, not {raw[key]!r}")
            elif key in raw:
                check_bound(problems, loc, key, raw[key])
        full = raw.get("full_rounds", 0)
        if not isinstance(full, int) or isinstance(full, bool) or full < 0:
            problems.add(loc, f"full_rounds must be a whole number of rounds, not {full!r}")
        explanation = raw.get("explanation", [])
        if not isinstance(explanation, list) or not all(isinstance(line, str) for line in explanation):
            problems.add(loc, "explanation must be a list of sentences")
        if "per_table" in raw and raw["per_table"] not in (3, 4):
            problems.add(loc, f"per_table must be 3 or 4, not {raw['per_table']!r}")
        if "properties" in raw and not isinstance(raw["properties"], dict):
            problems.add(loc, f"properties must be an object, not {describe(raw['properties'])}")
        if "rounds" in raw:
            _check_rounds(raw["rounds"], problems, loc)
    else:
        problems.add(loc, f"scheme must be 'basic', 'book' or 'explicit', not {scheme!r}")
    return raw if len(problems) == before else None


def _check_rounds(rounds: object, problems: Problems, loc: Loc) -> None:
    if not isinstance(rounds, list) or not rounds:
        problems.add(loc, f"rounds must be a non-empty list, not {describe(rounds)}")
        return
    if len(rounds) > ROUNDS_MAX:
        problems.add(loc, f"a movement has at most {ROUNDS_MAX} rounds, not {len(rounds)}")
        return
    for index, rnd in enumerate(rounds, start=1):
        rloc = loc.at(where=f"movement round entry {index}")
        if not isinstance(rnd, dict):
            problems.add(rloc, f"must be an object, not {describe(rnd)}")
            continue
        check_keys(
            problems,
            rloc,
            rnd,
            allowed=("round", "resting", "tables"),
            required=("round", "tables"),
            what="movement round",
        )
        if "round" in rnd and positive_int(rnd["round"]) is None:
            problems.add(rloc, f"round must be a positive integer, not {rnd['round']!r}")
        elif "round" in rnd:
            check_bound(problems, rloc, "round", rnd["round"])
        resting = rnd.get("resting", [])
        if not isinstance(resting, list) or any(positive_int(n) is None for n in resting):
            problems.add(rloc, "resting must be a list of participant numbers")
        tables = rnd.get("tables", [])
        if not isinstance(tables, list):
            problems.add(rloc, f"tables must be a list, not {describe(tables)}")
            continue
        if len(tables) > TABLES_MAX * ROOMS_MAX:
            problems.add(rloc, f"a round has at most {TABLES_MAX} tables a room in {ROOMS_MAX} rooms")
            continue
        for tindex, table in enumerate(tables, start=1):
            tloc = rloc.at(where=f"movement round entry {index}, table entry {tindex}")
            if not isinstance(table, dict):
                problems.add(tloc, f"must be an object, not {describe(table)}")
                continue
            check_keys(
                problems,
                tloc,
                table,
                allowed=("table", "set", "seats", "room"),
                required=("table", "set", "seats"),
                what="movement table",
            )
            for key in ("table", "set", "room"):
                if key in table and positive_int(table[key]) is None:
                    problems.add(tloc, f"{key} must be a positive integer, not {table[key]!r}")
                elif key in table:
                    check_bound(problems, tloc, key, table[key])
            seats = table.get("seats", {})
            if not isinstance(seats, dict) or any(
                seat not in SEATS or positive_int(number) is None or number > PARTICIPANT_NUMBER_MAX
                for seat, number in seats.items()
            ):
                problems.add(tloc, "seats must map N, E, S, W to participant numbers")


def movement_places(
    movement: Any, players: int | None, deals: int | None
) -> frozenset[tuple[int, int, int]] | None:
    """Every (room, table, round) the session's movement seats, or ``None`` when it cannot be built.

    A movement that cannot be built is reported where the event is run from it (``import_bundle``); here it
    only means that the rows cannot be checked against it.
    """
    from preferans.movements import MovementError
    from preferans.movements.serialize import build_movement

    if movement is None or players not in (3, 4):
        return None
    assert players is not None
    try:
        built = build_movement(movement, per_table=players, deals_per_set=deals or 0)
    except (MovementError, ValueError, TypeError, KeyError):
        return None
    return frozenset((t.room, t.table, rnd.number) for rnd in built.rounds for t in rnd.tables)


def json_copy(value: Any) -> Any:
    """A deep copy of decoded JSON (dicts, lists, scalars), much faster than :func:`copy.deepcopy`."""
    kind = type(value)
    if kind is dict:
        return {k: json_copy(v) for k, v in value.items()}
    if kind is list:
        return [json_copy(v) for v in value]
    return value
