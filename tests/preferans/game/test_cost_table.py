"""The cost tables of spec §10 (and the raspasy costs of §8.1) regenerated from the scoring core.

The expected tables are read from the spec's markdown itself (its §10, copied into tests/data), so a change of either side shows up here.
"""

from __future__ import annotations

import csv
import io
import re
from fractions import Fraction

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from preferans.game import cost_table, format_cost_table_csv, format_cost_table_text, make_rules
from preferans.game.costs import CSV_HEADER, format_cost
from tests import golden

CASES = [(variant, players) for variant in ("sochi", "leningrad", "rostov") for players in (3, 4)]
# column of the spec's tables → index of our text table's columns
KEYWORDS = {"made": 2, "whist": 3, "undertrick": 4, "consolation": 5, "missing": 6, "half": 7}


def _spec_tables() -> dict[tuple[str, int], list[dict[int, str]]]:
    text = golden.text("cost_tables.md")
    section = text[text.index("## 10.") :]
    tables: dict[tuple[str, int], list[dict[int, str]]] = {}
    for block in section.split("\n### ")[1:]:
        title, _, body = block.partition("\n")
        match = re.match(r"(Sochi|Leningrad|Rostov), (\d) players", title)
        assert match, title
        lines = [line for line in body.splitlines() if line.startswith("|")]
        header = [cell.strip() for cell in lines[0].strip("|").split("|")]
        columns: dict[int, int] = {0: 0}
        for i, name in enumerate(header):
            for keyword, ours in KEYWORDS.items():
                if name.startswith(keyword) and ours not in columns.values():
                    columns[i] = ours
            if name == "p":
                columns[i] = 1
        rows = []
        for line in lines[2:]:
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            rows.append({ours: cells[i] for i, ours in columns.items()})
        tables[(match.group(1).lower(), int(match.group(2)))] = rows
    return tables


SPEC_TABLES = _spec_tables()


def _our_rows(text: str) -> list[list[str]]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("contract")) + 2
    rows = []
    for line in lines[start:]:
        if not line.strip():
            break
        rows.append(re.split(r" {2,}", line.strip()))
    return rows


def test_the_spec_has_all_six_tables() -> None:
    assert sorted(SPEC_TABLES) == sorted(CASES)
    for rows in SPEC_TABLES.values():
        assert [row[0] for row in rows] == ["6", "7", "8", "9", "10", "misère"]
        for row in rows:  # every column of the spec is compared
            assert set(row) >= {0, 2, 3, 4, 5, 6, 7}


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_generated_table_equals_the_spec(variant: str, players: int) -> None:
    ours = _our_rows(format_cost_table_text(cost_table(make_rules(variant), players)))
    expected = SPEC_TABLES[(variant, players)]
    assert len(ours) == len(expected)
    for our_row, spec_row in zip(ours, expected, strict=True):
        for column, cell in spec_row.items():
            assert our_row[column] == cell, (spec_row[0], column)


# spec §8.1 and the note under §10's Rostov tables: per trick taken; zero-trick pool (own / each other)
RASPASY = {
    ("sochi", 3): ("−6.67 / +3.33", "+6.67 / −3.33"),
    ("sochi", 4): ("−7.5 / +2.5", "+7.5 / −2.5"),
    ("leningrad", 3): ("−13.33 / +6.67", "+26.67 / −13.33"),
    ("leningrad", 4): ("−15 / +5", "+30 / −10"),
    ("rostov", 3): ("5 vists per trick", "+6.67 / −3.33"),
    ("rostov", 4): ("5 vists per trick", "+7.5 / −2.5"),
}


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_raspasy_costs_equal_the_spec(variant: str, players: int) -> None:
    text = format_cost_table_text(cost_table(make_rules(variant), players))
    per_trick, zero = RASPASY[(variant, players)]
    raspasy = [line for line in text.splitlines() if line.startswith("Raspasy")]
    assert per_trick in raspasy[0]
    assert zero in raspasy[1]


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(40, 3), "13.33"),
        (Fraction(-20, 3), "−6.67"),
        (Fraction(15, 2), "7.5"),
        (Fraction(40), "40"),
        (Fraction(1, 200), "0.01"),  # half-up
        (Fraction(-1, 200), "−0.01"),
    ],
)
def test_format_cost(value: Fraction, text: str) -> None:
    assert format_cost(value) == text


def test_table_with_overrides_changes_with_them() -> None:
    table = cost_table(make_rules("rostov", {"consolation": 15}), 3)
    assert {line.consolation for line in table.lines[:5]} == {Fraction(15)}


# -- the management command -----------------------------------------------------------------------------
def _run(*args: str) -> str:
    out = io.StringIO()
    call_command("cost_table", *args, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_command_text(variant: str, players: int) -> None:
    text = _run("--variant", variant, "--players", str(players))
    assert f"{variant.capitalize()}, {players} players" in text.splitlines()[0]
    ours = _our_rows(text)
    for our_row, spec_row in zip(ours, SPEC_TABLES[(variant, players)], strict=True):
        assert [our_row[c] for c in spec_row] == list(spec_row.values())
    assert text == format_cost_table_text(cost_table(make_rules(variant), players))


@pytest.mark.parametrize(("variant", "players"), CASES)
def test_command_csv(variant: str, players: int) -> None:
    text = _run("--variant", variant, "--players", str(players), "--format", "csv")
    rows = list(csv.reader(io.StringIO(text)))
    assert tuple(rows[0]) == CSV_HEADER
    assert [row[0] for row in rows[1:]] == ["6", "7", "8", "9", "10", "misère", "raspasy"]
    by_contract = {row[0]: dict(zip(CSV_HEADER, row, strict=True)) for row in rows[1:]}
    rules = make_rules(variant)
    made = Fraction(by_contract["6"]["made_declarer"])
    assert abs(made - 10 * rules.pool_weight * 2 * (players - 1) / players) < Fraction(1, 100)
    assert text == format_cost_table_csv(cost_table(rules, players))


def test_command_accepts_rules_overrides() -> None:
    text = _run("--variant", "rostov", "--players", "3", "--rules", '{"consolation": 15}')
    assert _our_rows(text)[0][5] == "15"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--variant", "moscow", "--players", "4"), "unknown variant 'moscow'"),
        (("--variant", "sochi", "--players", "5"), "--players must be 3 or 4"),
        (("--variant", "sochi", "--players", "4", "--format", "xlsx"), "--format must be text or csv"),
        (("--variant", "sochi", "--players", "4", "--rules", "{"), "--rules is not valid JSON"),
        (("--variant", "sochi", "--players", "4", "--rules", '{"colour": 1}'), "unknown rules key 'colour'"),
    ],
)
def test_command_bad_arguments(args: tuple[str, ...], message: str) -> None:
    with pytest.raises(CommandError, match=re.escape(message)):
        _run(*args)
