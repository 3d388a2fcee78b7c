"""``manage.py score_pulka PATH|-`` exactly as formats.md §7 says: every case of pulka_vectors.json."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from tests import golden

CASES: list[dict[str, Any]] = golden.load("pulka_vectors.json")["cases"]


def run(
    path: str, monkeypatch: pytest.MonkeyPatch | None = None, stdin: bytes | None = None
) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    try:
        call_command("score_pulka", path, stdout=out, stderr=err)
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_every_case(case: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "pulka.json"
    path.write_text(json.dumps(case["input"], ensure_ascii=False), encoding="utf-8")
    status, out, err = run(str(path))
    expected = case["expected"]
    if "exit" in expected:
        assert (status, out) == (expected["exit"], expected["stdout"])
        assert expected["stderr_mentions"] in err
        assert all(line.strip() for line in err.splitlines())
    else:
        assert status == 0 and err == ""
        assert json.loads(out) == expected


def test_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    case = CASES[0]
    status, out, _ = run("-", monkeypatch, json.dumps(case["input"], ensure_ascii=False).encode("utf-8"))
    assert status == 0 and json.loads(out) == case["expected"]


@pytest.mark.parametrize(
    ("data", "mentions"),
    [
        (b"{", "bad JSON"),
        (b"[]", "one JSON object"),
        (b'{"format": "preferans-pulka", "format": "x"}', "appears twice"),
        (b"\xff\xfe", "UTF-8"),
    ],
)
def test_bad_input_exits_2_with_nothing_on_stdout(data: bytes, mentions: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(data)
    status, out, err = run(str(path))
    assert (status, out) == (2, "")
    assert mentions in err


def test_missing_file(tmp_path: Path) -> None:
    status, out, err = run(str(tmp_path / "nope.json"))
    assert (status, out) == (2, "") and "cannot read" in err
