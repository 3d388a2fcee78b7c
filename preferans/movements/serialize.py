"""The movement JSON of formats.md §4, and the bundle's ``movement`` field forms (formats.md §2).

``movement_to_dict`` writes the §4 shape; optional extras (allowed: formats grow only by optional fields) are
``rooms`` with a ``room`` per table when there is more than one room, and ``full_rounds`` when the session
was shortened. ``movement_from_dict`` reads the same shape (``properties`` optional, checked when given),
and validates the movement: an imported bundle's movement is checked exactly like a generated one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .basic import basic_movement
from .book import book_movement
from .model import Line, Movement, MovementError, MovementRound, TableAssignment, lines_for, make_table
from .validate import Properties, check, validate

_TOP_KEYS = {
    "participants",
    "per_table",
    "scheme",
    "tables",
    "sets",
    "deals_per_set",
    "rooms",
    "rounds",
    "properties",
    "full_rounds",
    "explanation",
}
_ROUND_KEYS = {"round", "resting", "tables"}
_TABLE_KEYS = {"table", "set", "seats", "room"}


def properties_to_dict(p: Properties) -> dict[str, Any]:
    return {
        "meetings": p.meetings_dict(),
        "results_per_board_line": p.results_per_board_line,
        "rests": {str(k): v for k, v in p.rest_counts().items()},
        "copies": p.copies,
    }


def movement_to_dict(m: Movement, properties: Properties | None = None) -> dict[str, Any]:
    props = properties if properties is not None else validate(m).properties
    out: dict[str, Any] = {
        "participants": m.participants,
        "per_table": m.per_table,
        "scheme": m.scheme,
        "tables": m.tables,
        "sets": m.sets,
        "deals_per_set": m.deals,
    }
    if m.rooms > 1:
        out["rooms"] = m.rooms
    if m.full_rounds:
        out["full_rounds"] = m.full_rounds
    rounds = []
    for rnd in m.rounds:
        tables = []
        for ta in rnd.tables:
            entry: dict[str, Any] = {
                "table": ta.table,
                "set": ta.set,
                "seats": {ln.value: p for ln, p in ta.seats},
            }
            if m.rooms > 1:
                entry["room"] = ta.room
            tables.append(entry)
        rounds.append({"round": rnd.number, "resting": list(rnd.resting), "tables": tables})
    out["rounds"] = rounds
    out["properties"] = properties_to_dict(props)
    return out


def _int(value: Any, where: str, *, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise MovementError(
            f"{where}: expected an integer, got {value!r}",
            code="not_an_integer",
            params={"field": where, "value": repr(value)},
        )
    if value < minimum:
        raise MovementError(
            f"{where}: must be at least {minimum}, got {value}",
            code="below_minimum",
            params={"field": where, "minimum": minimum, "value": value},
        )
    return value


def _keys(d: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(d) - allowed)
    if unknown:
        raise MovementError(
            f"{where}: unknown field(s) {', '.join(unknown)}",
            code="unknown_fields",
            params={"field": where, "fields": ", ".join(unknown)},
        )


def movement_from_dict(
    d: Mapping[str, Any], *, per_table: int | None = None, deals_per_set: int = 0
) -> Movement:
    """Parse and validate the movement JSON; raises ``MovementError`` naming the field or rule."""
    if not isinstance(d, Mapping):
        raise MovementError("movement: expected an object")
    _keys(d, _TOP_KEYS, "movement")
    raw_rounds = d.get("rounds")
    if not isinstance(raw_rounds, list) or not raw_rounds:
        raise MovementError("movement.rounds: expected a non-empty list of rounds")
    rounds: list[MovementRound] = []
    seen_participants: set[int] = set()
    max_table = max_set = max_room = 0
    sizes: set[int] = set()
    for i, r in enumerate(raw_rounds):
        where = f"movement.rounds[{i}]"
        if not isinstance(r, Mapping):
            raise MovementError(f"{where}: expected an object")
        _keys(r, _ROUND_KEYS, where)
        number = _int(r.get("round", i + 1), f"{where}.round")
        resting_raw = r.get("resting", [])
        if not isinstance(resting_raw, list):
            raise MovementError(f"{where}.resting: expected a list of participant numbers")
        resting = tuple(_int(p, f"{where}.resting") for p in resting_raw)
        tables_raw = r.get("tables")
        if not isinstance(tables_raw, list) or not tables_raw:
            raise MovementError(f"{where}.tables: expected a non-empty list")
        tas: list[TableAssignment] = []
        for j, t in enumerate(tables_raw):
            tw = f"{where}.tables[{j}]"
            if not isinstance(t, Mapping):
                raise MovementError(f"{tw}: expected an object")
            _keys(t, _TABLE_KEYS, tw)
            table = _int(t.get("table"), f"{tw}.table")
            set_number = _int(t.get("set"), f"{tw}.set")
            room = _int(t.get("room", 1), f"{tw}.room")
            seats_raw = t.get("seats")
            if not isinstance(seats_raw, Mapping):
                raise MovementError(f'{tw}.seats: expected an object such as {{"N": 1, "E": 2, "S": 3}}')
            seats: dict[Line, int] = {}
            for key, p in seats_raw.items():
                try:
                    line = Line(key)
                except ValueError:
                    raise MovementError(f"{tw}.seats: {key!r} is not a seat (N, E, S or W)") from None
                seats[line] = _int(p, f"{tw}.seats.{key}")
            sizes.add(len(seats))
            tas.append(make_table(table, set_number, seats, room))
            seen_participants.update(seats.values())
            max_table, max_set, max_room = (
                max(max_table, table),
                max(max_set, set_number),
                max(max_room, room),
            )
        seen_participants.update(resting)
        rounds.append(MovementRound(number, tuple(tas), resting))
    k = per_table if per_table is not None else d.get("per_table", max(sizes))
    k = _int(k, "movement.per_table")
    lines_for(k)
    if per_table is not None and "per_table" in d and d["per_table"] != per_table:
        raise MovementError(
            f"movement.per_table: {d['per_table']} but the tournament plays at tables of {per_table}",
            code="per_table_mismatch",
            params={"given": str(d["per_table"]), "per_table": per_table},
        )
    m = Movement(
        participants=_int(d.get("participants", max(seen_participants)), "movement.participants"),
        per_table=k,
        scheme=str(d.get("scheme", "explicit")),
        tables=_int(d.get("tables", max_table), "movement.tables"),
        sets=_int(d.get("sets", max_set), "movement.sets"),
        rounds=tuple(rounds),
        deals_per_set=_int(d.get("deals_per_set", deals_per_set or k), "movement.deals_per_set"),
        rooms=_int(d.get("rooms", max_room), "movement.rooms"),
        full_rounds=_int(d.get("full_rounds", 0), "movement.full_rounds", minimum=0),
    )
    props = check(m)
    given = d.get("properties")
    if given is not None:
        if not isinstance(given, Mapping):
            raise MovementError("movement.properties: expected an object")
        computed = properties_to_dict(props)
        for key, value in given.items():
            if key not in computed:
                raise MovementError(f"movement.properties: unknown field {key}")
            if value != computed[key]:
                raise MovementError(
                    f"movement.properties.{key}: given {value!r}, but the rounds give {computed[key]!r}"
                )
    return m


def build_movement(spec: Mapping[str, Any], *, per_table: int = 4, deals_per_set: int = 0) -> Movement:
    """A bundle's ``movement`` field (formats.md §2) → a validated ``Movement``.

    ``{"scheme": "basic", "tables": T}`` (optional ``rounds``, ``rooms``), ``{"scheme": "book",
    "participants": N}`` (optional ``rounds``), ``{"scheme": "explicit", "rounds": [...]}``.
    """
    if not isinstance(spec, Mapping):
        raise MovementError("movement: expected an object with a 'scheme'", code="not_a_spec")
    scheme = spec.get("scheme")
    if scheme == "basic":
        _keys(spec, {"scheme", "tables", "rounds", "rooms"}, "movement")
        rounds = spec.get("rounds")
        m = basic_movement(
            _int(spec.get("tables"), "movement.tables", minimum=2),
            per_table,
            rounds=None if rounds is None else _int(rounds, "movement.rounds", minimum=2),
            rooms=_int(spec.get("rooms", 1), "movement.rooms"),
            deals_per_set=deals_per_set,
        )
    elif scheme == "book":
        _keys(spec, {"scheme", "participants", "rounds"}, "movement")
        if per_table != 4:
            raise MovementError(
                "movement: the book's special schemes are for tables of 4 players", code="book_tables_of_4"
            )
        rounds = spec.get("rounds")
        m = book_movement(
            _int(spec.get("participants"), "movement.participants"),
            rounds=None if rounds is None else _int(rounds, "movement.rounds", minimum=2),
            deals_per_set=deals_per_set,
        )
    elif scheme == "explicit":
        body = {key: value for key, value in spec.items() if key != "scheme"}
        body["scheme"] = "explicit"
        return movement_from_dict(body, per_table=per_table, deals_per_set=deals_per_set)
    else:
        raise MovementError(
            f"movement.scheme: {scheme!r} is not one of basic, book, explicit",
            code="unknown_scheme",
            params={"scheme": str(scheme), "choices": "basic, book, explicit"},
        )
    check(m)
    return m
