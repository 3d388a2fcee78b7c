"""``manage.py movement`` (formats.md §4)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command


def _run(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("movement", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_json_shape() -> None:
    out, err = _run("--participants", "13", "--format", "json")
    d = json.loads(out)
    assert err == ""
    for key in (
        "participants",
        "per_table",
        "scheme",
        "tables",
        "sets",
        "deals_per_set",
        "rounds",
        "properties",
    ):
        assert key in d
    assert (d["participants"], d["per_table"], d["scheme"], d["tables"], d["sets"]) == (13, 4, "book", 3, 13)
    assert d["properties"]["meetings"] == {"3": 78}
    assert d["properties"]["results_per_board_line"] == 3
    first = d["rounds"][0]
    assert first["round"] == 1 and first["resting"] == [1]
    assert set(first["tables"][0]) == {"table", "set", "seats"}
    seated = {p for r in d["rounds"][:1] for t in r["tables"] for p in t["seats"].values()}
    assert seated | set(first["resting"]) == set(range(1, 14))


def test_text_output() -> None:
    out, _ = _run("--participants", "22", "--format", "text")
    assert "MOVEMENT FOR 22 PARTICIPANTS" in out and "Why this movement" in out and "TABLE CARDS" in out


def test_options() -> None:
    out, _ = _run("--participants", "40", "--scheme", "basic", "--rooms", "2", "--format", "json")
    d = json.loads(out)
    assert d["rooms"] == 2 and d["tables"] == 5 and d["rounds"][0]["tables"][5]["room"] == 2
    out, _ = _run(
        "--participants", "18", "--per-table", "3", "--scheme", "basic", "--rounds", "4", "--format", "json"
    )
    d = json.loads(out)
    assert d["per_table"] == 3 and len(d["rounds"]) == 4 and d["full_rounds"] == 6


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--participants", "5"], "at least 6"),
        (["--participants", "14", "--scheme", "book"], "special schemes"),
        (["--participants", "22", "--scheme", "basic"], "multiple of"),
        (["--participants", "13", "--scheme", "book", "--per-table", "3"], "tables of 4"),
        (["--participants", "13", "--scheme", "book", "--rounds", "10"], "M5"),
    ],
)
def test_exit_status_two(args: list[str], message: str) -> None:
    out, err = StringIO(), StringIO()
    with pytest.raises(SystemExit) as exc:
        call_command("movement", *args, stdout=out, stderr=err)
    assert exc.value.code == 2
    assert out.getvalue() == ""
    assert message in err.getvalue()


def test_json_is_the_default() -> None:
    out, _ = _run("--participants", "8")
    assert json.loads(out)["scheme"] == "book"
