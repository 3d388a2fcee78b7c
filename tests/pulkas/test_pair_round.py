"""``manage.py pair_round PATH|- [--check SEATING]`` exactly as formats.md §9 says: output keys, the exit codes of
``--check`` and every refusal (exit 2, nothing on stdout, one line per problem on stderr)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from tests import golden

CASES: list[dict[str, Any]] = golden.load("pairing_vectors.json")["cases"]
EXAMPLE: dict[str, Any] = CASES[1]["input"]  # formats §9.1's own example


def run(
    *args: str, stdin: bytes | None = None, monkeypatch: pytest.MonkeyPatch | None = None
) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    try:
        call_command("pair_round", *args, stdout=out, stderr=err)
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def write(tmp_path: Path, name: str, data: object) -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_seating_output_keys_and_values(tmp_path: Path) -> None:
    """Formats §9.2: tables, byes, repeats, displacement, optimal; the example «no seating avoids two repeats»."""
    status, out, err = run(write(tmp_path, "in.json", EXAMPLE))
    result = json.loads(out)
    assert (status, err) == (0, "")
    assert list(result) == ["tables", "byes", "repeats", "displacement", "optimal"]
    assert [len(t) for t in result["tables"]] == [4, 4, 3] and result["byes"] == []
    assert (result["repeats"], result["displacement"], result["optimal"]) == (2, 2, True)


def test_stdin_and_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    """Formats §9.1: ``-`` reads stdin; ``history`` and ``seed`` may be left out (empty, 0)."""
    data = {k: v for k, v in EXAMPLE.items() if k not in ("history", "seed")}
    status, out, _err = run("-", stdin=json.dumps(data).encode(), monkeypatch=monkeypatch)
    assert status == 0 and json.loads(out)["repeats"] == 0 and json.loads(out)["displacement"] == 0


def test_compensation_is_always_optimal(tmp_path: Path) -> None:
    """Formats §9.2: «`optimal`: `true` … (always for `compensation`)»; R and D reported too."""
    status, out, _err = run(write(tmp_path, "in.json", {**EXAMPLE, "form": "compensation"}))
    result = json.loads(out)
    assert (
        status == 0 and result["displacement"] == 0 and result["optimal"] is True and result["repeats"] == 3
    )


def test_check_exit_0_when_valid_and_correct(tmp_path: Path) -> None:
    """Formats §9.3: exits 0 when the seating is valid and correct."""
    _s, out, _e = run(write(tmp_path, "in.json", EXAMPLE))
    status, out, err = run(write(tmp_path, "in.json", EXAMPLE), "--check", write(tmp_path, "seat.json", out))
    result = json.loads(out)
    assert (status, err) == (0, "")
    assert list(result) == ["valid", "problems", "repeats", "displacement", "least", "correct"]
    assert result == {
        "valid": True,
        "problems": [],
        "repeats": 2,
        "displacement": 2,
        "least": {"repeats": 2, "displacement": 2},
        "correct": True,
    }


def test_check_exit_1_when_valid_but_not_correct(tmp_path: Path) -> None:
    """Formats §9.3: exits 1 when the seating is valid but not correct (the book's tables: three repeats)."""
    book = {"tables": [["P7", "P2", "P11", "P1"], ["P5", "P3", "P9", "P4"], ["P8", "P10", "P6"]], "byes": []}
    status, out, _e = run(write(tmp_path, "in.json", EXAMPLE), "--check", write(tmp_path, "seat.json", book))
    result = json.loads(out)
    assert status == 1 and result["valid"] is True and result["correct"] is False
    assert (result["repeats"], result["displacement"]) == (3, 0)


def test_check_exit_1_when_not_valid(tmp_path: Path) -> None:
    """Formats §9.3 / pairing §5: «every active player once, sizes as §1, byes as §1» — else not valid, exit 1."""
    bad = {
        "tables": [["P7", "P2", "P11"], ["P5", "P3", "P9", "P4", "P1"], ["P8", "P10", "X"]],
        "byes": ["P6"],
    }
    status, out, _e = run(write(tmp_path, "in.json", EXAMPLE), "--check", write(tmp_path, "seat.json", bad))
    result = json.loads(out)
    assert status == 1 and result["valid"] is False and result["correct"] is False
    text = " ".join(result["problems"])
    assert "X is not an active player" in text and "table 1 holds 3" in text and "byes" in text


REFUSALS = [
    ("{", "bad JSON"),
    ("[1]", "JSON object"),
    ({**EXAMPLE, "extra": 1}, "extra: unknown key"),
    ({k: v for k, v in EXAMPLE.items() if k != "form"}, "form: missing"),
    ({**EXAMPLE, "format": "preferans-pulka"}, "format"),
    ({**EXAMPLE, "version": 2}, "version"),
    ({**EXAMPLE, "version": True}, "version"),
    ({**EXAMPLE, "form": "olympic"}, "form"),
    ({**EXAMPLE, "per_table": 5}, "per_table"),
    ({**EXAMPLE, "per_table": "4"}, "per_table"),
    ({**EXAMPLE, "seed": -1}, "seed"),
    ({**EXAMPLE, "seed": 2**32}, "seed"),
    ({**EXAMPLE, "seed": 1.5}, "seed"),
    ({**EXAMPLE, "players": "P1"}, "players"),
    ({**EXAMPLE, "players": ["P1", "P1", "P2"]}, "listed twice"),
    ({**EXAMPLE, "players": ["", "P2", "P3"]}, "1-40"),
    ({**EXAMPLE, "players": ["x" * 41, "P2", "P3"]}, "1-40"),
    ({**EXAMPLE, "players": [f"p{i}" for i in range(2001)]}, "at most 2000"),
    ({**EXAMPLE, "history": [[["P1"]]]}, "2-4 ids"),
    ({**EXAMPLE, "history": [[["P1", "P2", "P3", "P4", "P5"]]]}, "2-4 ids"),
    ({**EXAMPLE, "history": [[["P1", "P2", "P1"]]]}, "listed twice at one table"),
    ({**EXAMPLE, "history": [[["P1", 7]]]}, "1-40"),
    ({**EXAMPLE, "history": {"r": 1}}, "history"),
]


@pytest.mark.parametrize(("data", "mention"), REFUSALS, ids=[m for _d, m in REFUSALS])
def test_refusals_exit_2(tmp_path: Path, data: object, mention: str) -> None:
    """Formats §9.4: «exit status 2, nothing on stdout, one line per problem on stderr»."""
    status, out, err = run(write(tmp_path, "in.json", data))
    assert (status, out) == (2, "") and mention in err


def test_every_problem_on_its_own_line(tmp_path: Path) -> None:
    """Formats §9.4: one line per problem."""
    status, out, err = run(write(tmp_path, "in.json", {**EXAMPLE, "seed": -1, "per_table": 9, "form": "x"}))
    assert (status, out) == (2, "") and len(err.strip().splitlines()) == 3


def test_unreadable_files_exit_2(tmp_path: Path) -> None:
    """Formats §9.4: an unreadable input or SEATING file is refused with exit 2."""
    status, out, err = run(str(tmp_path / "missing.json"))
    assert (status, out) == (2, "") and "cannot read" in err
    seat = write(tmp_path, "seat.json", {"tables": "none"})
    status, out, err = run(write(tmp_path, "in.json", EXAMPLE), "--check", seat)
    assert (status, out) == (2, "") and "seating tables" in err
    status, out, err = run(write(tmp_path, "in.json", EXAMPLE), "--check", write(tmp_path, "bad.json", "{"))
    assert (status, out) == (2, "") and "seating: bad JSON" in err
