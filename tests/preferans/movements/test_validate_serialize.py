"""The validator's rules, and the movement JSON (formats.md §2, §4)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from preferans.movements import (
    Movement,
    MovementError,
    basic_movement,
    book_movement,
    build_movement,
    movement_from_dict,
    movement_to_dict,
    validate,
)


def _dict(n: int = 13) -> dict[str, Any]:
    return movement_to_dict(book_movement(n))


def test_json_shape_of_formats_section_4() -> None:
    d = _dict()
    assert list(d)[:7] == ["participants", "per_table", "scheme", "tables", "sets", "deals_per_set", "rounds"]
    assert d["participants"] == 13 and d["per_table"] == 4 and d["scheme"] == "book"
    assert d["tables"] == 3 and d["sets"] == 13 and d["deals_per_set"] == 4
    assert d["rounds"][0]["round"] == 1 and d["rounds"][0]["resting"] == [1]
    assert d["rounds"][0]["tables"][0] == {"table": 1, "set": 1, "seats": {"N": 13, "E": 6, "S": 9, "W": 4}}
    assert d["properties"]["meetings"] == {"3": 78}
    assert d["properties"]["results_per_board_line"] == 3


@pytest.mark.parametrize("n", [8, 9, 12, 13, 16, 18, 24])
def test_round_trip_book(n: int) -> None:
    m = book_movement(n)
    back = movement_from_dict(movement_to_dict(m))
    assert back.rounds == m.rounds and back.sets == m.sets and back.tables == m.tables


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 9), st.sampled_from([3, 4]), st.integers(1, 3))
def test_round_trip_basic(tables: int, per_table: int, rooms: int) -> None:
    m = basic_movement(tables, per_table, rooms=rooms)
    back = movement_from_dict(movement_to_dict(m))
    assert back.rounds == m.rounds and back.rooms == rooms and back.participants == m.participants


def test_a_set_played_twice_is_rejected() -> None:
    d = _dict()
    d["rounds"][1]["tables"][1]["set"] = 4  # table 2 plays set 4 again: its W (No. 1) ... and others
    d.pop("properties")
    with pytest.raises(MovementError, match="M4"):
        movement_from_dict(d)


def test_empty_seat_and_missing_participant() -> None:
    d = _dict()
    del d["rounds"][0]["tables"][0]["seats"]["W"]
    d.pop("properties")
    with pytest.raises(MovementError) as exc:
        movement_from_dict(d)
    assert "M2" in str(exc.value) and "M3" in str(exc.value)


def test_validator_reports_an_empty_movement() -> None:
    report = validate(Movement(8, 4, "x", 2, 1, ()))
    assert not report.ok and any(p.startswith("M7") for p in report.problems)


def test_uneven_rests() -> None:
    m = basic_movement(5)
    d = movement_to_dict(m)
    d.pop("properties")
    d["participants"] = 21
    for r in d["rounds"]:
        r["resting"] = [21]
    with pytest.raises(MovementError, match="M6"):
        movement_from_dict(d)


def test_board_played_once_in_a_line() -> None:
    d = _dict(8)
    d["rounds"] = d["rounds"][:1]
    d.pop("properties")
    d["sets"] = 1
    d["participants"] = 8
    # one round of the 8-player scheme: set 1 is played at both tables, so twice per line — still valid
    assert movement_from_dict(d).rounds[0].tables[0].set == 1
    d["rounds"][0]["tables"][1]["set"] = 2
    d["sets"] = 2
    with pytest.raises(MovementError, match="M5"):
        movement_from_dict(d)


def test_wrong_properties_are_reported() -> None:
    d = _dict()
    d["properties"]["meetings"] = {"2": 78}
    with pytest.raises(MovementError, match="properties.meetings"):
        movement_from_dict(d)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(colour="red"), "unknown field"),
        (lambda d: d["rounds"][0]["tables"][0]["seats"].update(X=3), "not a seat"),
        (lambda d: d["rounds"][0]["tables"][0].update(set="one"), "expected an integer"),
        (lambda d: d.update(rounds=[]), "non-empty list"),
    ],
)
def test_malformed_json(mutate: Any, message: str) -> None:
    d = copy.deepcopy(_dict())
    mutate(d)
    with pytest.raises(MovementError, match=message):
        movement_from_dict(d)


def test_build_movement_three_forms() -> None:
    basic = build_movement({"scheme": "basic", "tables": 5})
    assert basic.participants == 20 and basic.scheme == "basic"
    assert build_movement({"scheme": "basic", "tables": 6}, per_table=3).participants == 18
    book = build_movement({"scheme": "book", "participants": 13})
    assert book.scheme == "book" and len(book.rounds) == 13
    body = movement_to_dict(book)
    explicit = build_movement({"scheme": "explicit", "rounds": body["rounds"]})
    assert explicit.rounds == book.rounds and explicit.scheme == "explicit"


@pytest.mark.parametrize(
    "spec",
    [
        {"scheme": "book", "participants": 10},
        {"scheme": "basic", "tables": 1},
        {"scheme": "basic"},
        {"scheme": "howell", "tables": 5},
        {"scheme": "basic", "tables": 5, "extra": 1},
    ],
)
def test_build_movement_errors(spec: dict[str, Any]) -> None:
    with pytest.raises(MovementError):
        build_movement(spec)


def test_book_needs_tables_of_four() -> None:
    with pytest.raises(MovementError, match="tables of 4"):
        build_movement({"scheme": "book", "participants": 13}, per_table=3)
