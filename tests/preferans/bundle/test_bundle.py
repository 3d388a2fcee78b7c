"""The bundle format v1 (formats.md §2, §2.1): parsing, validation with every problem, serialisation."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from typing import Any

import pytest

from preferans.bundle.document import (
    Bundle,
    BundleInvalid,
    bundle_to_dict,
    load_json,
    parse_bundle,
    parse_bundle_collect,
)
from preferans.bundle.shape import Loc, Problem
from preferans.duplicate.matchpoints import UnequalRule
from tests import golden


def club_cup() -> dict[str, Any]:
    data: dict[str, Any] = golden.load("club_cup.json")
    return data


def problems_of(data: object) -> list[str]:
    with pytest.raises(BundleInvalid) as info:
        parse_bundle(data)
    return [str(p) for p in info.value.problems]


def rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = data["sessions"][0]["results"]
    return result


# -- a valid bundle --------------------------------------------------------------------------------------


def test_fixture_parses_into_frozen_model() -> None:
    bundle = parse_bundle(club_cup())
    assert isinstance(bundle, Bundle)
    t = bundle.tournament
    assert (t.name, t.variant, t.players_per_table, t.deals_per_set) == ("Кубок клуба", "sochi", 4, 2)
    assert t.scoring.unequal_results is UnequalRule.NEUBERG
    assert t.scoring.artificial == {"A-": 40, "A": 50, "A+": 60}
    assert [p.number for p in bundle.participants] == list(range(1, 13))
    session = bundle.sessions[0]
    assert len(session.results) == 12
    assert [r.kind for r in session.results[3:6]] == ["played", "played", "artificial"]
    assert session.results[10].kind == "assigned"
    assert session.results[10].assigned == {"N": 12, "E": -5, "S": 0, "W": -7}
    assert session.results[8].version == "B"
    assert session.penalties[0].matchpoints == -1
    with pytest.raises(AttributeError):
        bundle.tournament.name = "x"  # type: ignore[misc]


def test_row_dealer_defaults_to_the_boards() -> None:
    data = club_cup()
    assert "dealer" not in rows(data)[0]
    assert parse_bundle(data).sessions[0].results[0].dealer == "N"


def test_defaults_when_optional_parts_are_absent() -> None:
    data = club_cup()
    del data["tournament"]["scoring"], data["tournament"]["deals_per_set"], data["tournament"]["rules"]
    del data["sessions"][0]["movement"], data["sessions"][0]["penalties"]
    for b in data["sessions"][0]["boards"]:
        b.pop("set")
    bundle = parse_bundle(data)
    assert bundle.tournament.deals_per_set == 4
    assert bundle.tournament.scoring.unequal_results is UnequalRule.NEUBERG
    assert bundle.tournament.scoring.artificial == {"A-": 40, "A": 50, "A+": 60}
    assert bundle.sessions[0].movement is None


def test_partial_artificial_map_and_decimal_percent() -> None:
    data = club_cup()
    data["tournament"]["scoring"] = {"unequal_results": "none", "artificial": {"A+": "62.5"}}
    scoring = parse_bundle(data).tournament.scoring
    assert scoring.unequal_results is UnequalRule.NONE
    assert scoring.artificial == {"A-": 40, "A": 50, "A+": Fraction(125, 2)}


def test_json_integers_accepted_where_numbers_are_expected() -> None:
    data = club_cup()
    rows(data)[10]["assigned"] = {"N": 12, "E": "-5", "S": 0, "W": "-7"}
    data["sessions"][0]["penalties"][0]["matchpoints"] = -1
    bundle = parse_bundle(data)
    assert bundle.sessions[0].results[10].assigned == {"N": 12, "E": -5, "S": 0, "W": -7}


def test_round_trip() -> None:
    first = parse_bundle(club_cup())
    again = parse_bundle(bundle_to_dict(first))
    assert again == first
    # and the serialised form is plain JSON
    text = json.dumps(bundle_to_dict(first), ensure_ascii=False)
    assert parse_bundle(json.loads(text)) == first


def test_round_trip_keeps_movement_boards_versions_and_overrides() -> None:
    data = club_cup()
    data["tournament"]["rules"] = {"whist_mode": "gentleman"}
    data["tournament"]["scoring"]["artificial"]["A+"] = "125/2"
    out = bundle_to_dict(parse_bundle(data))
    assert out["tournament"]["rules"] == {"whist_mode": "gentleman"}
    assert out["tournament"]["scoring"]["artificial"] == {"A-": 40, "A": 50, "A+": "125/2"}
    assert out["sessions"][0]["movement"] == data["sessions"][0]["movement"]
    assert out["sessions"][0]["boards"] == data["sessions"][0]["boards"]
    assert out["sessions"][0]["results"][8]["version"] == "B"
    assert "version" not in out["sessions"][0]["results"][0]
    assert out["sessions"][0]["results"][5]["adjusted"] == {"N": "A", "E": "A+", "S": "A-", "W": "A"}
    assert out["sessions"][0]["penalties"] == data["sessions"][0]["penalties"]
    assert parse_bundle(out) == parse_bundle(data)


def test_serialised_bundle_does_not_share_mutable_parts() -> None:
    bundle = parse_bundle(club_cup())
    out = bundle_to_dict(bundle)
    out["sessions"][0]["movement"]["scheme"] = "basic"
    out["sessions"][0]["results"][0]["calls"]["E"] = "pass"
    assert bundle_to_dict(bundle)["sessions"][0]["movement"]["scheme"] == "explicit"
    assert bundle.sessions[0].results[0].deal["calls"] == {"S": "whist", "W": "whist"}


@pytest.mark.parametrize(
    "movement",
    [
        {"scheme": "basic", "tables": 5},
        {"scheme": "book", "participants": 13},
        {
            "scheme": "explicit",
            "rounds": [{"round": 1, "tables": [{"table": 1, "set": 1, "seats": {"N": 1}}]}],
        },
        {
            "scheme": "explicit",
            "participants": 13,
            "per_table": 4,
            "tables": 3,
            "sets": 13,
            "deals_per_set": 4,
            "rounds": [{"round": 1, "resting": [1], "tables": [{"table": 1, "set": 1, "seats": {"N": 13}}]}],
            "properties": {"meetings": {"3": 78}, "results_per_board_line": 3},
        },
    ],
)
def test_movement_shapes_accepted(movement: dict[str, Any]) -> None:
    data = club_cup()
    data["sessions"][0]["movement"] = movement
    assert parse_bundle(data).sessions[0].movement == movement


# -- problems ---------------------------------------------------------------------------------------------


def test_problem_lines_name_session_board_table_round() -> None:
    assert str(Problem("tricks total 11 — they must total 10", Loc(1, 3, 2, 1))) == (
        "session 1, board 3, table 2, round 1: tricks total 11 — they must total 10"
    )
    assert str(Problem("bad", Loc())) == "bundle: bad"
    assert str(Problem("two\nlines", Loc(where="tournament"))) == "tournament: two lines"


def test_unknown_fields_are_errors_everywhere() -> None:
    data = club_cup()
    data["extra"] = 1
    data["tournament"]["colour"] = "red"
    data["tournament"]["scoring"]["bonus"] = 1
    data["participants"][0]["age"] = 30
    data["sessions"][0]["room"] = 1
    data["sessions"][0]["boards"][0]["vulnerable"] = True
    rows(data)[0]["second_whister"] = "S"
    data["sessions"][0]["penalties"][0]["by"] = "director"
    data["sessions"][0]["movement"]["layout"] = 2  # rooms is an explicit movement's optional extra
    lines = problems_of(data)
    for field in ("extra", "colour", "bonus", "age", "room", "vulnerable", "second_whister", "by", "layout"):
        assert sum(f"unknown field {field!r}" in line for line in lines) == 1, field
    assert any(
        line.startswith("session 1, board 1, table 1, round 1: unknown field 'second_whister'")
        for line in lines
    )


def test_format_and_version() -> None:
    data = club_cup()
    data["format"] = "something-else"
    data["version"] = 2
    lines = problems_of(data)
    assert lines == [
        "bundle: format must be 'duplicate-preferans-bundle', not 'something-else'",
        "bundle: version 2 is not supported — this reader knows version 1",
    ]


def test_not_an_object() -> None:
    assert problems_of([1, 2]) == ["bundle: a bundle is a JSON object, not a list"]


def test_tournament_problems() -> None:
    data = club_cup()
    data["tournament"].update(players_per_table=5, variant="preferans", deals_per_set=0)
    data["tournament"]["scoring"] = {"unequal_results": "median", "artificial": {"A++": 70, "A-": 140}}
    lines = problems_of(data)
    assert "tournament: variant 'preferans' is unknown — use sochi, leningrad or rostov" in lines
    assert "tournament: players_per_table must be 3 or 4, not 5" in lines
    assert "tournament: deals_per_set must be a positive integer, not 0" in lines
    assert "tournament.scoring: unequal_results must be 'neuberg' or 'none', not 'median'" in lines
    assert any("unknown result 'A++'" in line for line in lines)
    assert any("A-: 140 is not a percentage" in line for line in lines)


def test_unknown_rules_key_names_the_key() -> None:
    data = club_cup()
    data["tournament"]["rules"] = {"whist_price": 3}
    (line,) = problems_of(data)
    assert line.startswith("tournament: rules: unknown rules key 'whist_price'")


def test_bad_rules_value_is_reported() -> None:
    data = club_cup()
    data["tournament"]["rules"] = {"whist_mode": "rude"}
    (line,) = problems_of(data)
    assert line.startswith("tournament: rules:") and "whist_mode" in line


def test_seating_problems_all_reported() -> None:
    data = club_cup()
    r = rows(data)
    r[0]["seats"] = {"N": 1, "E": 2, "S": 1, "W": 4}  # seated twice
    r[1]["seats"] = {"N": 5, "E": 6, "S": 7, "W": 99}  # unknown participant
    r[2]["seats"] = {"N": 9, "E": 10, "S": 11}  # W missing at a 4-player table
    r[3]["seats"] = {"N": 1, "E": 2, "S": 3, "W": 4, "X": 5}  # unknown seat
    lines = problems_of(data)
    assert lines == [
        "session 1, board 1, table 1, round 1: participant 1 is seated twice (N and S)",
        "session 1, board 1, table 2, round 1: seat W: participant 99 is not in the participants list",
        "session 1, board 1, table 3, round 1: seat W is missing — a 4-player table seats N, E, S, W",
        "session 1, board 2, table 1, round 1: unknown seat 'X' — seats are N, E, S and W",
    ]


def test_w_seat_at_a_three_player_table() -> None:
    data = club_cup()
    data["tournament"]["players_per_table"] = 3
    data["tournament"]["deals_per_set"] = 2
    data["sessions"][0]["boards"] = []
    data["sessions"][0]["results"] = [
        {
            "board": 1,
            "round": 1,
            "table": 1,
            "seats": {"N": 1, "E": 2, "S": 3, "W": 4},
            "dealer": "N",
            "assigned": {"N": "1", "E": "-1", "S": "0"},
        },
        {
            "board": 1,
            "round": 1,
            "table": 2,
            "seats": {"N": 5, "E": 6, "S": 7},
            "dealer": "W",
            "assigned": {"N": "1", "E": "-1", "S": "0"},
        },
    ]
    lines = problems_of(data)
    assert lines[0] == (
        "session 1, board 1, table 1, round 1: a W seat at a 3-player table — 3-player tables seat N, E and S "
        "(W holds the prikup)"
    )
    assert lines[1].startswith("session 1, board 1, table 2, round 1: dealer W at a 3-player table")


def test_same_board_table_round_twice_and_dealer_disagreements() -> None:
    data = club_cup()
    r = rows(data)
    r.append(copy.deepcopy(r[0]))  # a second result for board 1, table 1, round 1
    r[11]["dealer"] = "E"  # board 4 is not listed: its rows disagree on the dealer
    r[6]["dealer"] = "S"  # board 3 is listed with dealer N
    lines = problems_of(data)
    assert "session 1, board 3, table 1, round 2: dealer S differs from the board's dealer N" in lines
    assert (
        "session 1, board 4, table 3, round 2: dealer E differs from dealer N of the same board at table 1, "
        "round 2 — all results of a board have one dealer"
    ) in lines
    assert (
        "session 1, board 1, table 1, round 1: a second result for the same board, table and round — one table "
        "plays a board once"
    ) in lines


def test_participant_in_two_places() -> None:
    data = club_cup()
    r = rows(data)
    r[1]["seats"] = {"N": 5, "E": 6, "S": 7, "W": 1}  # 1 already sits N at table 1 in round 1
    lines = problems_of(data)
    assert "session 1, board 1, table 2, round 1: participant 1 also sits at table 1 in this round" in lines
    assert (
        "session 1, board 1, table 2, round 1: participant 1 already played this board (table 1, round 1)"
        in lines
    )


def test_dealer_required_when_board_not_listed() -> None:
    data = club_cup()
    del rows(data)[9]["dealer"]
    assert problems_of(data) == [
        "session 1, board 4, table 1, round 2: dealer missing — the board is not listed in boards[], so the "
        "result must name its dealer"
    ]


def test_adjustment_shapes() -> None:
    data = club_cup()
    r = rows(data)
    r[5]["adjusted"] = {"N": "A", "E": "A+", "S": "B"}  # W missing, B unknown
    r[5]["contract"] = "6S"
    r[10]["assigned"] = {"N": "12", "E": "-5", "S": "0", "W": 1.5}
    r[10]["adjusted"] = {"N": "A"}
    del r[4]["contract"], r[4]["declarer"], r[4]["w1"], r[4]["w2"], r[4]["calls"], r[4]["play"]
    del r[4]["dealer_whist"], r[4]["vists"]
    lines = problems_of(data)
    assert lines == [
        "session 1, board 2, table 2, round 1: no deal: a result needs the played deal (contract, declarer, w1, "
        "w2, …), an artificial result (adjusted) or an assigned one (assigned)",
        "session 1, board 2, table 3, round 1: an adjusted result carries no played-deal fields (contract)",
        "session 1, board 2, table 3, round 1: adjusted must give every seated seat — W missing",
        "session 1, board 2, table 3, round 1: adjusted S: 'B' is not an artificial result — use A-, A or A+",
        "session 1, board 4, table 2, round 2: a result is either artificial (adjusted) or assigned, not both",
    ]


def test_assigned_needs_exact_numbers() -> None:
    data = club_cup()
    rows(data)[10]["assigned"] = {"N": "12", "E": "-5", "S": "0", "W": 1.5}
    (line,) = problems_of(data)
    assert line.startswith(
        "session 1, board 4, table 2, round 2: assigned W: 1.5 is not an integer or a fraction"
    )


def test_vists_must_name_the_seated_seats() -> None:
    data = club_cup()
    rows(data)[0]["vists"] = {"N": "-10", "E": "18", "S": "-2"}
    (line,) = problems_of(data)
    assert line == "session 1, board 1, table 1, round 1: vists must give every seated seat — W missing"


def test_row_without_coordinates_is_named_by_position() -> None:
    data = club_cup()
    rows(data)[2]["board"] = "three"
    del rows(data)[3]["round"]
    lines = problems_of(data)
    assert lines == [
        "session 1, table 3, round 1, result 3: board must be a positive integer, not 'three'",
        "session 1, board 2, table 1, result 4: missing field 'round' — a result needs it",
    ]


def test_boards_shape() -> None:
    data = club_cup()
    boards = data["sessions"][0]["boards"]
    boards[0]["hands"] = {"N": "SAKQ C7 DJ98 H10", "E": "SAKQ", "S": "S7"}  # N is the dealer's pocket
    boards[1]["prikup"] = ["H7"]
    boards[2]["set"] = 1  # board 3 is in set 2 with 2 boards a set
    boards.append({"number": 5, "dealer": "N", "hands": {"E": "XY", "S": "SA", "W": "SK"}})
    boards.append({"number": 5, "dealer": "Q"})
    lines = problems_of(data)
    assert lines == [
        "session 1, board 1: hands must be given for E, S, W (the dealer's pocket holds the prikup), not for N, E, S",
        'session 1, board 2: prikup must list two cards, top card first, such as ["H7", "D8"]',
        "session 1, board 3: set 1 is wrong — with 2 boards a set, board 3 is in set 2",
        "session 1, board 5: hand E: 'XY' is not written as suits and ranks such as 'SAKQ C7 DJ98 H10'",
        "session 1, board 5: the board is listed twice",
        "session 1, board 5: dealer must be one of N, E, S, W, not 'Q'",
    ]


@pytest.mark.parametrize(
    ("movement", "message"),
    [
        ({"scheme": "book", "participants": 10}, "the book has schemes for 8, 9, 12, 13, 16, 18 and 24"),
        ({"scheme": "basic"}, "missing field 'tables'"),
        ({"scheme": "basic", "tables": 0}, "tables must be a positive integer, not 0"),
        ({"scheme": "swiss"}, "scheme must be 'basic', 'book' or 'explicit', not 'swiss'"),
        ({"scheme": "explicit", "rounds": []}, "rounds must be a non-empty list"),
        (
            {
                "scheme": "explicit",
                "rounds": [{"round": 1, "tables": [{"table": 1, "set": 1, "seats": {"X": 1}}]}],
            },
            "seats must map N, E, S, W to participant numbers",
        ),
        ("basic", "must be an object with a scheme"),
    ],
)
def test_movement_problems(movement: object, message: str) -> None:
    data = club_cup()
    data["sessions"][0]["movement"] = movement
    (line,) = problems_of(data)
    assert line.startswith("session 1, movement") and message in line


def test_participants_and_penalties() -> None:
    data = club_cup()
    data["participants"].append({"number": 3, "name": "Двойник"})
    data["participants"].append({"number": 0})
    data["sessions"][0]["penalties"] = [
        {"participant": 77, "matchpoints": "-2"},
        {"participant": 1, "matchpoints": "one", "reason": 5},
        {"participant": 2},
    ]
    lines = problems_of(data)
    assert lines == [
        "participant 13: participant number 3 is used twice — numbers must be unique",
        "participant 14: number must be a positive integer, not 0",
        "session 1, penalty 1: participant 77 is not in the participants list",
        "session 1, penalty 2: matchpoints: 'one' is not an integer or a fraction such as \"16/3\"",
        "session 1, penalty 2: reason must be a string, not the number 5",
        "session 1, penalty 3: missing field 'matchpoints' — a penalty needs it",
    ]


def test_duplicate_session_numbers() -> None:
    data = club_cup()
    data["sessions"].append({"number": 1, "results": []})
    assert problems_of(data) == ["session 1: session number used twice — numbers must be unique"]


def test_many_problems_collected_at_once() -> None:
    data = club_cup()
    data["tournament"]["colour"] = "red"
    r = rows(data)
    r[0]["seats"]["S"] = 2
    r[4]["board"] = 0
    r[7]["version"] = ""
    data["sessions"][0]["penalties"][0]["participant"] = 40
    lines = problems_of(data)
    assert len(lines) == 5
    assert len(set(lines)) == 5


def test_collect_keeps_the_good_rows() -> None:
    data = club_cup()
    rows(data)[0]["seats"]["S"] = 2
    parsed = parse_bundle_collect(data, rules_check=lambda variant, rules: None)
    assert parsed.bundle is not None and parsed.rules_ok
    assert len(parsed.bundle.sessions[0].results) == 11
    assert len(parsed.problems) == 1


# -- JSON text --------------------------------------------------------------------------------------------


def test_load_json_reports_position() -> None:
    with pytest.raises(BundleInvalid) as info:
        load_json('{"format": "x",\n "version": }')
    (problem,) = info.value.problems
    assert str(problem).startswith("bundle: bad JSON: Expecting value (line 2, column 13)")


def test_load_json_refuses_duplicate_keys_and_nan() -> None:
    with pytest.raises(BundleInvalid) as info:
        load_json('{"a": 1, "a": 2, "b": {"c": 1, "c": 2}}')
    assert [str(p) for p in info.value.problems] == [
        "bundle: bad JSON: the key 'c' appears twice in one object",
        "bundle: bad JSON: the key 'a' appears twice in one object",
    ]
    with pytest.raises(BundleInvalid):
        load_json('{"a": NaN}')


def test_load_json_round_trip() -> None:
    text = golden.text("club_cup.json")
    assert parse_bundle(load_json(text)) == parse_bundle(club_cup())
