"""Invariants over many random legal rows (hypothesis): every variant, both table sizes."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from preferans.game import (
    SEATS,
    VARIANTS,
    RowInvalid,
    Rules,
    TableSeats,
    make_rules,
    score_row,
    validate_row,
)
from preferans.numbers import format_fraction

OPTIONS: list[dict[str, object]] = [
    {},
    {"whist_mode": "gentleman"},
    {"whist_mode": "greedy"},
    {"whist_mode": "odessa"},
    {"progression": "arithmetic"},
    {"progression": "geometric", "amnesty": False},
    {"remiz_mult": 2, "consolation": "whist", "whist_responsibility": "responsible"},
    {"consolation": 15},
]


def _legal_rules(variant: str, options: dict[str, object]) -> Rules:
    if variant == "rostov" and options.get("amnesty") is False:
        options = {k: v for k, v in options.items() if k != "amnesty"}
    return make_rules(variant, options)


@st.composite
def settings_and_row(draw: st.DrawFn) -> tuple[Rules, int, str | None, dict[str, Any]]:
    rules = _legal_rules(draw(st.sampled_from(VARIANTS)), draw(st.sampled_from(OPTIONS)))
    players = draw(st.sampled_from([3, 4]))
    dealer = draw(st.sampled_from(SEATS)) if players == 4 else draw(st.sampled_from(["N", "E", "S", None]))
    table = TableSeats.standard(players, dealer if players == 4 else None)
    kind = draw(st.sampled_from(["contract", "contract", "contract", "misere", "raspasy"]))
    if kind == "raspasy":
        first = table.first_hand() or dealer or draw(st.sampled_from(table.active))
        hands = (first, *table.after(first))
        total = 10 if players == 3 or rules.raspasy_mode.value == "whists" else draw(st.integers(8, 10))
        a = draw(st.integers(0, total))
        b = draw(st.integers(0, total - a))
        row: dict[str, Any] = {
            "contract": "-",
            "declarer": [hands[0], a],
            "w1": [hands[1], b],
            "w2": [hands[2], total - a - b],
        }
        if rules.progression.value != "none":
            row["raspasy_step"] = draw(st.integers(1, rules.progression_cap))
        return rules, players, dealer, _with_extras(draw, row, table)
    declarer = draw(st.sampled_from(table.active))
    d1, d2 = table.after(declarer)
    t_d = draw(st.integers(0, 10))
    t1 = draw(st.integers(0, 10 - t_d))
    tricks = [t_d, t1, 10 - t_d - t1]
    if kind == "misere":
        row = {
            "contract": "MIS",
            "declarer": [declarer, tricks[0]],
            "w1": [d1, tricks[1]],
            "w2": [d2, tricks[2]],
        }
        if players == 4 and draw(st.booleans()):
            row["misere_shared"] = True
        return rules, players, dealer, _with_extras(draw, row, table)
    level = draw(st.sampled_from([6, 7, 8, 9, 10]))
    contract = f"{level}{draw(st.sampled_from(['S', 'C', 'D', 'H', 'NT']))}"
    scenarios: list[tuple[str, str, bool]] = [
        ("whist", "whist", False),
        ("whist", "pass", False),
        ("pass", "whist", False),
        ("pass", "pass", False),
    ]
    if players == 4:
        scenarios.append(("pass", "pass", True))
    if level <= 7:
        scenarios += [("pass", "half", False), ("whist", "half_returned", False)]
        if players == 4:
            scenarios.append(("pass", "half_returned", True))
        if rules.whist_mode.value == "gentleman":
            scenarios += [("half", "pass", False), ("half_returned", "whist", False)]
            if players == 4:
                scenarios.append(("half_returned", "pass", True))
    c1, c2, dealer_whist = draw(st.sampled_from(scenarios))
    whisters = [c1, c2].count("whist") + int(dealer_whist)
    if whisters == 0:
        half_obl = {6: 2, 7: 1}.get(level, 0)
        if c1 == "half":
            tricks = [level, half_obl, 10 - level - half_obl]
        elif c2 == "half":
            tricks = [level, 10 - level - half_obl, half_obl]
        else:
            tricks = [10, 0, 0]
        play = "none"
    else:
        play = "closed" if whisters == 2 else draw(st.sampled_from(["open", "closed"]))
    row = {
        "contract": contract,
        "declarer": [declarer, tricks[0]],
        "w1": [d1, tricks[1]],
        "w2": [d2, tricks[2]],
        "calls": {d1: c1, d2: c2},
        "dealer_whist": dealer_whist,
        "play": play,
    }
    if draw(st.integers(0, 4)) == 0:
        row["penalty_tricks"] = draw(st.integers(1, 2))
    return rules, players, dealer, _with_extras(draw, row, table)


def _with_extras(draw: st.DrawFn, row: dict[str, Any], table: TableSeats) -> dict[str, Any]:
    if draw(st.integers(0, 5)) == 0:
        writer, debtor = draw(st.permutations(table.seats))[:2]
        row["extra_entries"] = [
            {"type": "whist", "from": writer, "to": debtor, "amount": draw(st.integers(1, 60))},
            {
                "type": draw(st.sampled_from(["pool", "mountain"])),
                "seat": writer,
                "amount": draw(st.integers(-5, 5)),
            },
        ]
    # keys of the bundle layer are ignored by the scoring core
    row.update({"board": 1, "round": 1, "table": 1})
    return row


@settings(max_examples=400, deadline=None)
@given(settings_and_row())
def test_every_legal_row_scores_to_zero_sum(case: tuple[Rules, int, str | None, dict[str, Any]]) -> None:
    rules, players, dealer, row = case
    assert validate_row(row, rules=rules, players=players, dealer=dealer) == ()
    vists = score_row(row, rules=rules, players=players, dealer=dealer)
    assert list(vists) == list(SEATS[:players])
    assert sum(vists.values()) == 0
    assert all(isinstance(v, Fraction) for v in vists.values())
    # at 3 players every value is a multiple of 1/3, at 4 of 1/2 (D-C2)
    assert all((v * (3 if players == 3 else 2)).denominator == 1 for v in vists.values())


@settings(max_examples=300, deadline=None)
@given(settings_and_row(), st.data())
def test_claimed_vists_accepted_when_equal_refused_when_perturbed(
    case: tuple[Rules, int, str | None, dict[str, Any]], data: st.DataObject
) -> None:
    rules, players, dealer, row = case
    vists = score_row(row, rules=rules, players=players, dealer=dealer)
    claimed = {seat: format_fraction(value) for seat, value in vists.items()}
    if players == 3:
        claimed["W"] = None  # type: ignore[assignment]
    assert score_row({**row, "vists": claimed}, rules=rules, players=players, dealer=dealer) == vists

    seats = list(vists)
    up, down = data.draw(st.permutations(seats))[:2]
    delta = data.draw(st.sampled_from([Fraction(1, 3), Fraction(1, 2), Fraction(1), Fraction(10)]))
    perturbed = {seat: format_fraction(v) for seat, v in vists.items()}
    perturbed[up] = format_fraction(vists[up] + delta)
    perturbed[down] = format_fraction(
        vists[down] - delta
    )  # still zero-sum: only the recomputation catches it
    try:
        score_row({**row, "vists": perturbed}, rules=rules, players=players, dealer=dealer)
    except RowInvalid as exc:
        assert {e.field for e in exc.errors} == {f"vists.{up}", f"vists.{down}"}
        assert {e.code for e in exc.errors} == {"vists_mismatch"}
    else:
        raise AssertionError("a perturbed vists field was accepted")

    one_off = {**perturbed, down: format_fraction(vists[down])}  # no longer zero-sum
    errors = validate_row({**row, "vists": one_off}, rules=rules, players=players, dealer=dealer)
    assert [e.code for e in errors] == ["vists_sum"]


@settings(max_examples=200, deadline=None)
@given(settings_and_row())
def test_amnesty_never_changes_vists(case: tuple[Rules, int, str | None, dict[str, Any]]) -> None:
    rules, players, dealer, row = case
    if rules.raspasy_mode.value != "mountain":
        return
    from dataclasses import replace

    other = replace(rules, amnesty=not rules.amnesty)
    assert score_row(row, rules=rules, players=players, dealer=dealer) == score_row(
        row, rules=other, players=players, dealer=dealer
    )
