"""``manage.py make_boards`` (formats.md §5)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from pypdf import PdfReader

from preferans.cards.board_form import board_from_dict
from preferans.cards.deal import Seat, dealer_rotation

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> tuple[list[dict[str, Any]], str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("make_boards", *args, stdout=out, stderr=err)
    return json.loads(out.getvalue()), err.getvalue()


def test_json_boards_reparse_and_rotate() -> None:
    boards, err = run("--sets", "3", "--per-set", "4", "--seed", "17")
    assert err == ""
    assert len(boards) == 12
    parsed = [board_from_dict(b) for b in boards]
    assert [b.number for b in parsed] == list(range(1, 13))
    assert [b.set_number for b in parsed] == [1] * 4 + [2] * 4 + [3] * 4
    assert [b.dealer for b in parsed] == list(dealer_rotation(4)) * 3
    for raw, board in zip(boards, parsed, strict=True):
        assert list(raw) == ["number", "set", "dealer", "hands", "prikup"]
        assert raw["dealer"] not in raw["hands"]  # 4 players: the dealer's pocket holds the prikup
        assert board.players == 4


def test_three_players() -> None:
    boards, _ = run("--sets", "2", "--per-set", "3", "--players", "3", "--seed", "1")
    parsed = [board_from_dict(b) for b in boards]
    assert [b.dealer for b in parsed] == [Seat.N, Seat.E, Seat.S] * 2
    for raw in boards:
        assert set(raw["hands"]) == {"N", "E", "S"}  # prikup in W, dealer marks the first hand
        assert raw["dealer"] in raw["hands"]


def test_same_seed_same_boards_different_seed_differs() -> None:
    a, _ = run("--sets", "2", "--per-set", "4", "--seed", "99")
    b, _ = run("--sets", "2", "--per-set", "4", "--seed", "99")
    c, _ = run("--sets", "2", "--per-set", "4", "--seed", "100")
    assert a == b
    assert a != c


def test_without_seed_the_deals_differ() -> None:
    a, _ = run("--sets", "1", "--per-set", "4")
    b, _ = run("--sets", "1", "--per-set", "4")
    assert a != b  # 4 random boards equal by chance: impossible in practice


def test_pdf_is_written(tmp_path: Path) -> None:
    pdf = tmp_path / "records.pdf"
    protocols = tmp_path / "protocols.pdf"
    boards, _ = run(
        "--sets", "2", "--per-set", "4", "--seed", "5", "--pdf", str(pdf), "--protocols", str(protocols)
    )
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(pdf).pages)
    for raw in boards:
        assert f"Сдача {raw['number']}" in text
    assert len(PdfReader(protocols).pages) == 8


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--per-set", "4"], "--sets is required"),
        (["--sets", "2"], "--per-set is required"),
        (["--sets", "0", "--per-set", "4"], "--sets must be at least 1"),
        (["--sets", "two", "--per-set", "4"], "--sets must be a whole number"),
        (["--sets", "2", "--per-set", "-1"], "--per-set must be at least 1"),
        (["--sets", "2", "--per-set", "4", "--players", "5"], "--players must be 3 or 4"),
        (["--sets", "2", "--per-set", "4", "--seed", "x"], "--seed must be a whole number"),
        (["--sets", "2", "--per-set", "4", "--format", "xml"], "--format must be json"),
        (["--sets", "2", "--per-set", "4", "--lang", "de"], "--lang must be ru or en"),
        (["--sets", "2", "--per-set", "4", "--pdf", "/no/such/folder/x.pdf"], "does not exist"),
    ],
)
def test_bad_arguments_exit_2(args: list[str], message: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as info:
        call_command("make_boards", *args, stdout=out, stderr=err)
    assert info.value.code == 2
    assert out.getvalue() == ""
    assert message in err.getvalue()


def _manage(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "make_boards", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_command_line_exit_codes() -> None:
    ok = _manage("--sets", "1", "--per-set", "4", "--seed", "3")
    assert ok.returncode == 0, ok.stderr
    assert [board_from_dict(b).number for b in json.loads(ok.stdout)] == [1, 2, 3, 4]
    bad = _manage("--sets", "1", "--per-set", "0")
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert "--per-set must be at least 1" in bad.stderr
    unknown = _manage("--sets", "1", "--per-set", "4", "--bogus")
    assert unknown.returncode == 2
    assert unknown.stdout == ""
