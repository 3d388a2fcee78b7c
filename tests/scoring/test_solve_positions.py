"""``manage.py solve_positions`` (formats.md §8.1, §8.3): the shared positions' answers, and exit 2 on bad input."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from tests import golden

CASES = golden.load("dd_positions.json")["cases"]
GOOD = CASES[0]["position"]


def run(tmp_path: Path, data: object | None = None, text: str | None = None) -> tuple[int, str, str]:
    path = tmp_path / "positions.json"
    path.write_text(text if text is not None else json.dumps(data), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("solve_positions", str(path), stdout=out, stderr=err)
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def test_the_shared_positions_give_their_answers(tmp_path: Path) -> None:
    code, out, err = run(tmp_path, [case["position"] for case in CASES])
    assert (code, err) == (0, "")
    assert [item["tricks"] for item in json.loads(out)] == [case["tricks"] for case in CASES]


def test_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    text = json.dumps([CASES[2]["position"]])
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode()), encoding="utf-8"))
    out = io.StringIO()
    call_command("solve_positions", "-", stdout=out, stderr=io.StringIO())
    assert json.loads(out.getvalue()) == [{"tricks": CASES[2]["tricks"]}]


def changed(**fields: Any) -> dict[str, Any]:
    position = copy.deepcopy(GOOD)
    for key, value in fields.items():
        if value is None:
            del position[key]
        else:
            position[key] = value
    return position


BAD = {
    "a missing key": (changed(goal=None), "missing key(s) goal"),
    "an unknown key": (changed(best="SA"), "unknown key(s) best"),
    "unequal hands": (changed(hands={"N": "SA SK", "E": "S7", "S": "S8"}), "same number of cards"),
    "too many cards": (
        changed(hands={"N": "SAKQJ1098 CAKQJ", "E": "DAKQJ1098 C1098 H7", "S": "HAKQJ1098 C7 S7 D7"}),
        "the hand of N holds 11 cards",
    ),
    "no cards": (changed(hands={"N": "", "E": "", "S": ""}), "holds 0 cards"),
    "a duplicate card": (changed(hands={"N": "SA", "E": "SA", "S": "S8"}), "SA appears in N and in E"),
    "an unknown card": (changed(hands={"N": "SX", "E": "S7", "S": "S8"}), "'X'"),
    "an unknown seat": (changed(hands={"N": "SA", "E": "S7", "Z": "S8"}), "unknown seat(s) Z"),
    "four seats": (changed(hands={"N": "SA", "E": "S7", "S": "S8", "W": "S9"}), "exactly three seats"),
    "an unknown trump": (changed(trump="spades"), "unknown trump 'spades'"),
    "an unknown goal": (changed(goal="most"), "unknown goal 'most'"),
    "a leader not at the table": (changed(leader="W"), "the leader W is not one of the three seats"),
    "an unknown declarer": (changed(declarer=1), "unknown declarer 1"),
}


@pytest.mark.parametrize("name", BAD)
def test_each_error_class_exits_2_with_nothing_on_stdout(tmp_path: Path, name: str) -> None:
    bad, expected = BAD[name]
    code, out, err = run(tmp_path, [GOOD, bad])
    assert (code, out) == (2, "")
    assert "position 2: " in err and expected in err, err


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[{", "bad JSON"),
        (json.dumps({"hands": {}}), "must be a JSON list"),
        ("[3]", "position 1: not an object"),
    ],
)
def test_unreadable_input_exits_2(tmp_path: Path, text: str, expected: str) -> None:
    code, out, err = run(tmp_path, text=text)
    assert (code, out) == (2, "")
    assert expected in err


def test_every_problem_is_listed(tmp_path: Path) -> None:
    code, out, err = run(tmp_path, [changed(trump="X"), GOOD, changed(goal="Y", leader="W")])
    assert (code, out) == (2, "")
    assert [line.split(":")[0] for line in err.strip().splitlines()] == [
        "position 1",
        "position 3",
        "position 3",
    ]
