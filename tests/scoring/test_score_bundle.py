"""Scoring a whole bundle and ``manage.py score_bundle`` (formats.md §3)."""

from __future__ import annotations

import copy
import io
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from preferans.bundle.document import BundleInvalid, parse_bundle
from preferans.duplicate.session_scoring import (
    Engine,
    score_bundle,
    score_bundle_to_dict,
    score_document,
    validate_and_score,
)
from tests import golden

VECTORS = {v["id"]: v for v in golden.load("preferans_vectors.json")["vectors"]}


def club_cup() -> dict[str, Any]:
    data: dict[str, Any] = golden.load("club_cup.json")
    return data


def expected_output() -> dict[str, Any]:
    data: dict[str, Any] = golden.load("club_cup.expected.json")
    return data


def run(
    path: str, stdin: str | None = None, monkeypatch: pytest.MonkeyPatch | None = None
) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr(
            "sys.stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
        )
    try:
        call_command("score_bundle", path, stdout=out, stderr=err)
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def write(tmp_path: Path, data: object) -> str:
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


def vector_row(vid: str, **fields: Any) -> dict[str, Any]:
    """A bundle row from a vector's protocol row (plus its extra entries), without the informative keys."""
    v = VECTORS[vid]
    row = {
        k: copy.deepcopy(val) for k, val in v["protocol_row"].items() if k not in ("vists", "second_whister")
    }
    if v["extra_entries"]:
        row["extra_entries"] = copy.deepcopy(v["extra_entries"])
    row.update(fields)
    return row


# -- the fixture, field for field -------------------------------------------------------------------------


def test_fixture_output_is_the_golden_file() -> None:
    assert score_document(club_cup()) == expected_output()


def test_score_parsed_bundle_to_dict() -> None:
    assert score_bundle_to_dict(parse_bundle(club_cup())) == expected_output()


def test_fixture_output_checked_by_hand() -> None:
    out = score_document(club_cup())
    assert list(out) == ["sessions", "standings"]
    (session,) = out["sessions"]
    assert list(session) == ["number", "results"]
    results = session["results"]
    assert [(r["board"], r["table"], r["round"]) for r in results] == [
        (1, 1, 1),
        (1, 2, 1),
        (1, 3, 1),
        (2, 1, 1),
        (2, 2, 1),
        (2, 3, 1),
        (3, 1, 2),
        (3, 2, 2),
        (3, 3, 2),
        (4, 1, 2),
        (4, 2, 2),
        (4, 3, 2),
    ]
    assert list(results[0]) == ["board", "round", "table", "vists", "matchpoints", "top"]
    # board 1, all three played (E = 3): N line [-10, -20, 25] → 2, 0, 4
    assert results[0]["vists"] == {"N": "-10", "E": "18", "S": "-2", "W": "-6"}
    assert [r["matchpoints"]["N"] for r in results[:3]] == ["2", "0", "4"]
    assert results[0]["top"] == {"N": "4", "E": "4", "S": "4", "W": "4"}
    # board 2: two played rows, Neuberg (mp + 1)·3/2 − 1 → 7/2 and 1/2; the artificial row gets % of 4
    assert results[3]["matchpoints"] == {"N": "7/2", "E": "1/2", "S": "1/2", "W": "1/2"}
    assert "vists" not in results[5]
    assert results[5]["matchpoints"] == {"N": "2", "E": "12/5", "S": "8/5", "W": "2"}
    assert results[5]["top"] == {"N": "4", "E": "4", "S": "4", "W": "4"}
    # board 3: version B alone → (0 + 1)·3/1 − 1 = 2 for every seat
    assert results[8]["matchpoints"] == {"N": "2", "E": "2", "S": "2", "W": "2"}
    # board 4: the assigned row keeps its vists and is compared as if played
    assert results[10]["vists"] == {"N": "12", "E": "-5", "S": "0", "W": "-7"}
    assert results[10]["matchpoints"] == {"N": "4", "E": "2", "S": "2", "W": "0"}
    standings = out["standings"]
    assert list(standings[0]) == ["participant", "name", "matchpoints", "max", "percent", "rank"]
    assert [(s["participant"], s["percent"], s["rank"]) for s in standings] == [
        (7, "81.25", "1"),
        (9, "62.50", "2"),
        (10, "61.88", "3"),
        (6, "59.38", "4-5"),
        (12, "59.38", "4-5"),
        (5, "50.00", "6-7"),
        (8, "50.00", "6-7"),
        (4, "40.63", "8"),
        (1, "37.50", "9-10"),
        (3, "37.50", "9-10"),
        (2, "31.25", "11"),
        (11, "22.50", "12"),
    ]
    # participant 3: 2 + 1/2 + 1/2 + 4 = 7, penalty −1
    three = next(s for s in standings if s["participant"] == 3)
    assert three == {
        "participant": 3,
        "name": "Сидоров Сидор",
        "matchpoints": "6",
        "max": "16",
        "percent": "37.50",
        "rank": "9-10",
    }
    assert next(s for s in standings if s["participant"] == 10)["matchpoints"] == "99/10"


def test_standings_consistent_with_rows() -> None:
    bundle, scored = validate_and_score(club_cup())
    for number, total in scored.sessions[0].totals.items():
        earned = sum(
            (
                r.matchpoints[seat]
                for r in scored.sessions[0].results
                for seat, p in r.seats.items()
                if p == number
            ),
            Fraction(0),
        )
        penalties = sum(
            (p.matchpoints for p in bundle.sessions[0].penalties if p.participant == number), Fraction(0)
        )
        assert total.matchpoints == earned + penalties
        assert total.max == sum(
            (r.top[seat] for r in scored.sessions[0].results for seat, p in r.seats.items() if p == number),
            Fraction(0),
        )


def test_unequal_results_none() -> None:
    data = club_cup()
    data["tournament"]["scoring"]["unequal_results"] = "none"
    results = score_document(data)["sessions"][0]["results"]
    # board 2: the two played rows form a group of 2 → raw 2/0, top 2; the artificial row: % of 2(R − 1) = 4
    assert results[3]["matchpoints"] == {"N": "2", "E": "0", "S": "0", "W": "0"}
    assert results[3]["top"] == {"N": "2", "E": "2", "S": "2", "W": "2"}
    assert results[5]["matchpoints"] == {"N": "2", "E": "12/5", "S": "8/5", "W": "2"}
    assert results[5]["top"] == {"N": "4", "E": "4", "S": "4", "W": "4"}
    # board 3, version B alone: raw 0, top 0
    assert results[8]["matchpoints"] == {"N": "0", "E": "0", "S": "0", "W": "0"}
    assert results[8]["top"] == {"N": "0", "E": "0", "S": "0", "W": "0"}


def test_custom_artificial_percentages() -> None:
    """§11.2 Б.1 «по меньшей мере 60% (средний плюс)»: the organisers' A+ (62.5 %) is scored; A- stays 40 %."""
    data = club_cup()
    data["tournament"]["scoring"]["artificial"] = {"A-": 40, "A": "50", "A+": "62.5"}
    results = score_document(data)["sessions"][0]["results"]
    assert results[5]["matchpoints"] == {"N": "2", "E": "5/2", "S": "8/5", "W": "2"}


def test_rule_11_2_B1_bundle_refuses_an_A_minus_other_than_the_books() -> None:
    """§11.2 Б.1 «40% от макса (средний минус) для безусловно виновной стороны»: A- is fixed by the book, a bundle
    asking 30 % is refused with the rule named."""
    data = club_cup()
    data["tournament"]["scoring"]["artificial"] = {"A-": 30, "A": "50", "A+": "62.5"}
    with pytest.raises(BundleInvalid, match="A- is 40 %.*fixed by the book"):
        score_document(data)


def test_multi_session_standings_sum_over_sessions() -> None:
    data = club_cup()
    second = copy.deepcopy(data["sessions"][0])
    second["number"] = 2
    second["penalties"] = [{"participant": 11, "matchpoints": "-2"}]
    data["sessions"].append(second)
    out = score_document(data)
    assert [s["number"] for s in out["sessions"]] == [1, 2]
    standing = {s["participant"]: s for s in out["standings"]}
    assert standing[3]["matchpoints"] == "13"  # 7 − 1 + 7
    assert standing[3]["max"] == "32"
    assert standing[11]["matchpoints"] == "26/5"  # 18/5 · 2 − 2
    assert standing[7]["rank"] == "1"


def test_participant_without_results_is_listed_last_with_zero() -> None:
    data = club_cup()
    data["participants"].append({"number": 13})
    out = score_document(data)
    assert out["standings"][-1] == {
        "participant": 13,
        "name": "",
        "matchpoints": "0",
        "max": "0",
        "percent": "0.00",
        "rank": "13",
    }


def test_a_participant_may_change_lines() -> None:
    # participant 2 sits E on boards 1-2 and would sit S elsewhere: his matchpoints come from each line
    data = club_cup()
    rows = data["sessions"][0]["results"]
    for r in rows[6:]:
        r["seats"] = {"N": r["seats"]["N"], "E": r["seats"]["S"], "S": r["seats"]["E"], "W": r["seats"]["W"]}
    out = score_document(data)
    r = out["sessions"][0]["results"]
    two = {s["participant"]: s for s in out["standings"]}[2]
    # boards 1, 2 at E of table 1 (2 + 1/2); boards 3, 4 at S of table 2 (7/2 + 2)
    assert (
        r[0]["matchpoints"]["E"],
        r[3]["matchpoints"]["E"],
        r[7]["matchpoints"]["S"],
        r[10]["matchpoints"]["S"],
    ) == (
        "2",
        "1/2",
        "7/2",
        "2",
    )
    assert two["matchpoints"] == "8"


def test_three_player_tables() -> None:
    seats = [{"N": 1, "E": 2, "S": 3}, {"N": 4, "E": 5, "S": 6}, {"N": 7, "E": 8, "S": 9}]
    data = {
        "format": "duplicate-preferans-bundle",
        "version": 1,
        "tournament": {"name": "Трое", "variant": "sochi", "players_per_table": 3},
        "participants": [{"number": n} for n in range(1, 10)],
        "sessions": [
            {
                "number": 1,
                "boards": [{"number": 1, "dealer": "N"}],
                "results": [
                    {"board": 1, "round": 1, "table": 1, "seats": seats[0], **vector_row("S01")},
                    {"board": 1, "round": 1, "table": 2, "seats": seats[1], **vector_row("S02")},
                    {"board": 1, "round": 1, "table": 3, "seats": seats[2], **vector_row("S05")},
                ],
            }
        ],
    }
    results = score_document(data)["sessions"][0]["results"]
    assert results[0]["vists"] == {"N": "16/3", "E": "-8/3", "S": "-8/3"}
    assert [r["matchpoints"]["N"] for r in results] == ["2", "4", "0"]  # 16/3 < 14; −82/3 lowest
    assert [r["matchpoints"]["S"] for r in results] == ["2", "0", "4"]  # −8/3, −18, 38/3
    assert results[0]["top"] == {"N": "4", "E": "4", "S": "4"}


def test_illegal_rows_and_wrong_vists_are_all_reported() -> None:
    data = club_cup()
    rows = data["sessions"][0]["results"]
    rows[0]["w1"] = ["S", 3]  # tricks 7 + 3 + 1
    rows[1]["vists"]["N"] = "-19"
    rows[1]["vists"]["E"] = "-21"
    rows[7]["contract"] = "11S"
    with pytest.raises(BundleInvalid) as info:
        score_document(data)
    lines = [str(p) for p in info.value.problems]
    assert any(line.startswith("session 1, board 1, table 1, round 1: ") for line in lines)
    assert (
        "session 1, board 1, table 2, round 1: vists written N -19, E -21 differ from the deal's vists N -20, E -20"
    ) in lines
    assert any(line.startswith("session 1, board 3, table 2, round 2: ") and "11S" in line for line in lines)


def test_format_problems_and_illegal_rows_reported_together() -> None:
    data = club_cup()
    rows = data["sessions"][0]["results"]
    rows[0]["declarer"] = ["E", 8]  # tricks total 11
    rows[4]["seats"]["W"] = 77
    with pytest.raises(BundleInvalid) as info:
        score_document(data)
    lines = [str(p) for p in info.value.problems]
    assert lines == [
        "session 1, board 2, table 2, round 1: seat W: participant 77 is not in the participants list",
        "session 1, board 1, table 1, round 1: tricks total 11 — they must total 10",
    ]


def test_identical_deals_are_scored_once() -> None:
    from preferans import game as preferans

    calls: list[object] = []

    def counting(row: Any, *, rules: Any, players: int, dealer: str | None) -> Any:
        calls.append(row)
        return preferans.score_row(row, rules=rules, players=players, dealer=dealer)

    engine = Engine(preferans.make_rules, counting, preferans.RowInvalid)
    score_bundle(parse_bundle(club_cup()), engine=engine)
    assert len(calls) == 9  # 10 played rows, S34 twice


def test_engine_can_be_replaced() -> None:
    """The matchpoint side does not depend on how vists are computed."""

    def fake(row: Any, *, rules: Any, players: int, dealer: str | None) -> dict[str, Fraction]:
        value = Fraction(len(str(row["contract"])))
        return {"N": value, "E": -value, "S": Fraction(0), "W": Fraction(0)}

    class Invalid(ValueError):
        errors = ()

    data = club_cup()
    for r in data["sessions"][0]["results"]:
        r.pop("vists", None)
    engine = Engine(lambda variant, overrides: None, fake, Invalid)
    out = score_document(data, engine=engine)
    assert out["sessions"][0]["results"][0]["vists"] == {"N": "2", "E": "-2", "S": "0", "W": "0"}  # "7S"
    assert out["sessions"][0]["results"][2]["matchpoints"]["N"] == "4"  # "MIS" beats "7S" and "9H"


# -- the command ------------------------------------------------------------------------------------------


def test_command_prints_the_json(tmp_path: Path) -> None:
    code, out, err = run(str(golden.path("club_cup.json")))
    assert (code, err) == (0, "")
    assert json.loads(out) == expected_output()
    assert "Кубок" not in out and "Иванов Иван" in out  # UTF-8, not \u escapes


def test_command_reads_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    text = golden.text("club_cup.json")
    code, out, err = run("-", stdin=text, monkeypatch=monkeypatch)
    assert (code, err) == (0, "")
    assert json.loads(out) == expected_output()


def test_command_bad_input_exit_2_one_line_per_problem(tmp_path: Path) -> None:
    data = club_cup()
    rows = data["sessions"][0]["results"]
    rows[0]["declarer"] = ["E", 8]  # tricks total 11
    rows[2]["seats"] = {"N": 9, "E": 10, "S": 9, "W": 12}  # seated twice
    rows[3]["colour"] = "red"  # unknown field
    data["sessions"][0]["penalties"][0]["participant"] = 99
    code, out, err = run(write(tmp_path, data))
    assert code == 2
    assert out == ""
    assert err.splitlines() == [
        "session 1, board 1, table 3, round 1: participant 9 is seated twice (N and S)",
        "session 1, board 2, table 1, round 1: unknown field 'colour' in a result — the format has no such field",
        "session 1, penalty 1: participant 99 is not in the participants list",
        "session 1, board 1, table 1, round 1: tricks total 11 — they must total 10",
    ]


def test_command_bad_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": ', encoding="utf-8")
    code, out, err = run(str(path))
    assert (code, out) == (2, "")
    assert err.startswith("bundle: bad JSON: Expecting value (line 1, column 12)")
    assert len(err.splitlines()) == 1


def test_command_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes('{"name": "Кубок"}'.encode("cp1251"))
    code, out, err = run(str(path))
    assert (code, out) == (2, "")
    assert err.startswith("bundle: not UTF-8 text")


def test_command_missing_file(tmp_path: Path) -> None:
    code, out, err = run(str(tmp_path / "nope.json"))
    assert (code, out) == (2, "")
    assert "cannot read the bundle" in err


def test_command_unknown_rules_key(tmp_path: Path) -> None:
    data = club_cup()
    data["tournament"]["rules"] = {"bombs": True}
    code, out, err = run(write(tmp_path, data))
    assert (code, out) == (2, "")
    assert err.startswith("tournament: rules: unknown rules key 'bombs'")
