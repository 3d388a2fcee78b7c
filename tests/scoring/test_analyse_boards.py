"""``manage.py analyse_boards`` (formats.md §8.2, §8.3): one object per board in the input order, exit 2 on bad
input with nothing on stdout."""

from __future__ import annotations

import io
import json
from pathlib import Path

from django.core.management import call_command

from preferans.dd.board import KEYS
from tests.preferans.dd.test_board import random_board


def run(tmp_path: Path, data: object | None = None, text: str | None = None) -> tuple[int, str, str]:
    path = tmp_path / "boards.json"
    path.write_text(text if text is not None else json.dumps(data), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("analyse_boards", str(path), stdout=out, stderr=err)
    except SystemExit as exc:
        return int(exc.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def test_boards_in_input_order(tmp_path: Path) -> None:
    boards = [random_board(21, 4, "W", number=5), random_board(22, 3, "N")]
    del boards[1]["number"]
    code, out, err = run(tmp_path, boards)
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert result[0]["number"] == 5 and "number" not in result[1]
    assert set(result[0]["seats"]) == {"N", "E", "S"} == set(result[1]["seats"])
    for board in result:
        for seat in board["seats"].values():
            assert set(seat) == {*KEYS, "discards"} and set(seat["discards"]) == set(KEYS)


def test_bad_input_exits_2_with_nothing_on_stdout(tmp_path: Path) -> None:
    bad = {**random_board(23, 4, "W"), "players": 5}
    code, out, err = run(tmp_path, [random_board(24, 4, "E"), bad])
    assert (code, out) == (2, "")
    assert "board 2 (number 1): players must be 3 or 4" in err
    for text in ("{", "{}", "[1,]"):
        code, out, err = run(tmp_path, text=text)
        assert code == 2 and out == "" and err.strip()
