"""Table-driven tests of the scoring rules: one row per DECISION of spec §13, the validation rules of §11.4,
contracts and variant profiles. Changing a default is one visible edit in DECISIONS below.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import pytest

from preferans.game import (
    CONTRACT_CODES,
    OVERRIDE_KEYS,
    ROW_CONTRACT_CODES,
    SEATS,
    VARIANTS,
    ContractError,
    ContractKind,
    RowError,
    RowInvalid,
    RulesError,
    compute_ledger,
    describe_rules,
    make_rules,
    parse_contract,
    parse_row,
    rules_to_overrides,
    score_row,
    validate_row,
)
from preferans.numbers import parse_fraction


def row(
    contract: str, declarer: tuple[str, int], w1: tuple[str, int], w2: tuple[str, int], **extra: Any
) -> dict[str, Any]:
    out: dict[str, Any] = {"contract": contract, "declarer": list(declarer), "w1": list(w1), "w2": list(w2)}
    out.update(extra)
    return out


def both(e: str = "E", s: str = "S", **extra: Any) -> dict[str, Any]:
    return {"calls": {e: "whist", s: "whist"}, "play": "closed", **extra}


# id, variant, overrides, players, dealer, row, expected: vists {seat: value} or "error: <text in the message>"
DECISIONS: list[tuple[str, str, Mapping[str, object], int, str | None, dict[str, Any], object]] = [
    # D-C1: 10·(mean M' − M'_i) + whists, mean over all 4 incl. the dealer N
    (
        "D-C1",
        "sochi",
        {},
        4,
        "N",
        row("6S", ("E", 6), ("S", 2), ("W", 2), **both("S", "W")),
        {"N": -5, "E": 7, "S": -1, "W": -1},
    ),
    # D-C2: exact rationals, thirds at 3 players (S01)
    (
        "D-C2",
        "sochi",
        {},
        3,
        None,
        row("6S", ("N", 6), ("E", 2), ("S", 2), **both()),
        {"N": "16/3", "E": "-8/3", "S": "-8/3"},
    ),
    # D-C3: Leningrad λ = 2 — the closing eight of Code 4.2.3.3 is 80/−40/−40 (L13)
    (
        "D-C3",
        "leningrad",
        {},
        3,
        None,
        row("8S", ("N", 10), ("E", 0), ("S", 0), calls={"E": "pass", "S": "pass"}, play="none"),
        {"N": 80, "E": -40, "S": -40},
    ),
    # D-C4: no overtrick bonus — a seven made with eight scores as a seven made exactly
    (
        "D-C4",
        "sochi",
        {},
        3,
        None,
        row("7S", ("N", 8), ("E", 1), ("S", 1), **both()),
        {"N": "56/3", "E": "-28/3", "S": "-28/3"},
    ),
    # D-C5: no dark/bomb multipliers: there is no such rules key
    (
        "D-C5",
        "sochi",
        {"bomb_multiplier": 2},
        3,
        None,
        row("6S", ("N", 6), ("E", 2), ("S", 2), **both()),
        "error: unknown rules key 'bomb_multiplier'",
    ),
    # D-T1: at 3 players the "dealer" label is the first hand; raspasy columns start there
    (
        "D-T1",
        "sochi",
        {},
        3,
        "E",
        row("-", ("E", 4), ("S", 3), ("N", 3)),
        {"E": "-20/3", "S": "10/3", "N": "10/3"},
    ),
    (
        "D-T1 refused",
        "sochi",
        {},
        3,
        "E",
        row("-", ("N", 3), ("E", 4), ("S", 3)),
        "error: raspasy columns must start with the first hand E",
    ),
    # D-T2: misère — w1/w2 are the opponents, no calls
    (
        "D-T2",
        "sochi",
        {},
        3,
        None,
        row("MIS", ("N", 2), ("E", 4), ("S", 4), calls={}),
        {"N": "-400/3", "E": "200/3", "S": "200/3"},
    ),
    (
        "D-T2 refused",
        "sochi",
        {},
        3,
        None,
        row("MIS", ("N", 0), ("E", 5), ("S", 5), calls={"E": "whist"}),
        "error: misere has no whist calls",
    ),
    # D-T3: the extended fields are required where the vists depend on them: calls of a trick contract
    (
        "D-T3",
        "sochi",
        {},
        3,
        None,
        row("6S", ("N", 6), ("E", 2), ("S", 2), play="closed"),
        "error: calls are missing",
    ),
    # D-W1: w1/w2 are the defenders clockwise after the declarer, skipping the dealer
    (
        "D-W1",
        "sochi",
        {},
        4,
        "N",
        row("6S", ("W", 6), ("S", 2), ("E", 2), **both()),
        "error: after W the first whister is E and the second S",
    ),
    # D-W2: a lone whister answers for and books both hands (S43)
    (
        "D-W2",
        "sochi",
        {},
        3,
        None,
        row("6S", ("N", 6), ("E", 3), ("S", 1), calls={"E": "whist", "S": "pass"}, play="closed"),
        {"N": "16/3", "E": "4/3", "S": "-20/3"},
    ),
    # D-W3: one whister below half pays the collective shortfall (S38)
    (
        "D-W3",
        "sochi",
        {},
        3,
        None,
        row("6S", ("N", 7), ("E", 3), ("S", 0), **both()),
        {"N": 14, "E": 6, "S": -20},
    ),
    # D-W4: gentleman's split of trick whists; each writes his own consolation (R09)
    (
        "D-W4",
        "rostov",
        {},
        4,
        "N",
        row("7C", ("E", 6), ("S", 3), ("W", 1), calls={"S": "whist", "W": "pass"}, play="closed"),
        {"N": 20, "E": -76, "S": 28, "W": 28},
    ),
    # D-W5: the ex-half-whister (whist returned) gets no trick whists on a remiz but writes consolation
    (
        "D-W5",
        "rostov",
        {},
        3,
        None,
        row("7S", ("N", 6), ("E", 2), ("S", 2), calls={"E": "whist", "S": "half_returned"}, play="closed"),
        {"N": "-188/3", "E": "118/3", "S": "70/3"},
    ),
    # D-W6: dealer-whist: sole whister, both hands, no split even under gentleman's whist
    (
        "D-W6",
        "leningrad",
        {},
        4,
        "N",
        row(
            "8C",
            ("E", 7),
            ("S", 2),
            ("W", 1),
            calls={"S": "pass", "W": "pass"},
            dealer_whist=True,
            play="closed",
        ),
        {"N": 57, "E": -99, "S": 21, "W": 21},
    ),
    # D-W7: no-play deals record nominal tricks: half-whist on a seven → 7 / 2 / 1 (half-whister S books 1)
    (
        "D-W7",
        "sochi",
        {},
        3,
        None,
        row("7S", ("N", 7), ("E", 2), ("S", 1), calls={"E": "pass", "S": "half"}, play="none"),
        {"N": "68/3", "E": "-40/3", "S": "-28/3"},
    ),
    (
        "D-W7 refused",
        "sochi",
        {},
        3,
        None,
        row("7S", ("N", 8), ("E", 1), ("S", 1), calls={"E": "pass", "S": "pass"}, play="none"),
        "error: no-play deal must record nominal tricks (10/0/0)",
    ),
    # D-W8: a ten is whisted like any contract (S14)
    (
        "D-W8",
        "sochi",
        {},
        3,
        None,
        row("10NT", ("N", 10), ("E", 0), ("S", 0), **both()),
        {"N": 100, "E": 0, "S": -100},
    ),
    # D-W9: both defenders may pass a six
    (
        "D-W9",
        "sochi",
        {},
        3,
        None,
        row("6S", ("N", 10), ("E", 0), ("S", 0), calls={"E": "pass", "S": "pass"}, play="none"),
        {"N": "40/3", "E": "-20/3", "S": "-20/3"},
    ),
    # D-X1: penalty tricks touch only the declarer's pool/mountain (S31)
    (
        "D-X1",
        "sochi",
        {},
        3,
        None,
        row("6H", ("N", 6), ("E", 2), ("S", 2), penalty_tricks=2, **both()),
        {"N": "-104/3", "E": "52/3", "S": "52/3"},
    ),
    # D-M1: no consolation on misère (S20: 25 each, Code 3.8.5.1)
    (
        "D-M1",
        "sochi",
        {},
        4,
        "N",
        row("MIS", ("E", 1), ("S", 4), ("W", 5)),
        {"N": 25, "E": -75, "S": 25, "W": 25},
    ),
    # D-M2: misère shared with the dealer: halves (S19)
    (
        "D-M2",
        "sochi",
        {},
        4,
        "N",
        row("MIS", ("E", 1), ("S", 4), ("W", 5), misere_shared=True),
        {"N": -25, "E": -25, "S": 25, "W": 25},
    ),
    (
        "D-M2 refused",
        "sochi",
        {},
        3,
        None,
        row("MIS", ("N", 1), ("E", 4), ("S", 5), misere_shared=True),
        "error: a misère can be shared only with the dealer of a 4-player table",
    ),
    # D-L1: Leningrad whist per trick = 2p (L01)
    (
        "D-L1",
        "leningrad",
        {},
        3,
        None,
        row("6S", ("N", 6), ("E", 2), ("S", 2), **both()),
        {"N": "32/3", "E": "-16/3", "S": "-16/3"},
    ),
    # D-L2: Leningrad remiz p and consolation p by default …
    (
        "D-L2",
        "leningrad",
        {},
        3,
        None,
        row("6D", ("N", 5), ("E", 3), ("S", 2), **both()),
        {"N": "-112/3", "E": "62/3", "S": "50/3"},
    ),
    # … and the all-doubled option (L12)
    (
        "D-L2 option",
        "leningrad",
        {"remiz_mult": 2, "consolation": "whist"},
        3,
        None,
        row("6D", ("N", 5), ("E", 3), ("S", 2), **both()),
        {"N": "-164/3", "E": "88/3", "S": "76/3"},
    ),
    # D-R1: Rostov whist mode is gentleman's: a lone whister's trick whists are split on a remiz
    (
        "D-R1",
        "rostov",
        {},
        3,
        None,
        row("6S", ("N", 5), ("E", 3), ("S", 2), calls={"E": "whist", "S": "pass"}, play="open"),
        {"N": "-130/3", "E": "65/3", "S": "65/3"},
    ),
    # D-R2: Rostov consolation 10 per undertrick (R08) …
    (
        "D-R2",
        "rostov",
        {},
        3,
        None,
        row("6S", ("N", 4), ("E", 3), ("S", 3), **both()),
        {"N": "-236/3", "E": "118/3", "S": "118/3"},
    ),
    # … or 15 by agreement
    (
        "D-R2 option",
        "rostov",
        {"consolation": 15},
        3,
        None,
        row("6S", ("N", 4), ("E", 3), ("S", 3), **both()),
        {"N": "-296/3", "E": "148/3", "S": "148/3"},
    ),
    # D-R3: Rostov λ = 1
    (
        "D-R3",
        "rostov",
        {},
        3,
        None,
        row("8S", ("N", 10), ("E", 0), ("S", 0), calls={"E": "pass", "S": "pass"}, play="none"),
        {"N": 40, "E": -20, "S": -20},
    ),
    # D-P1: no raspasy progression by default …
    (
        "D-P1",
        "sochi",
        {},
        3,
        "N",
        row("-", ("N", 5), ("E", 3), ("S", 2), raspasy_step=2),
        "error: raspasy step 2 given, but the rules have no progression",
    ),
    # … the arithmetic option (S23), capped at 3 steps
    (
        "D-P1 option",
        "sochi",
        {"progression": "arithmetic"},
        3,
        "N",
        row("-", ("N", 5), ("E", 3), ("S", 2), raspasy_step=2),
        {"N": "-100/3", "E": "20/3", "S": "80/3"},
    ),
    (
        "D-P1 cap",
        "sochi",
        {"progression": "geometric"},
        3,
        "N",
        row("-", ("N", 5), ("E", 3), ("S", 2), raspasy_step=4),
        "error: raspasy_step 4 — it must be a whole number 1 to 3",
    ),
    # D-P2: the 4-player dealer is a raspasy participant; zero prikup tricks → pool (S25) …
    (
        "D-P2",
        "sochi",
        {},
        4,
        "N",
        row("-", ("E", 4), ("S", 3), ("W", 3)),
        {"N": "65/2", "E": "-35/2", "S": "-15/2", "W": "-15/2"},
    ),
    # … configurable
    (
        "D-P2 option",
        "sochi",
        {"dealer_zero_bonus": False},
        4,
        "N",
        row("-", ("E", 4), ("S", 3), ("W", 3)),
        {"N": 25, "E": -15, "S": -5, "W": -5},
    ),
    # D-P3: Rostov 4 players: dealer outside the min-trick test, always 1 to pool (R06)
    (
        "D-P3",
        "rostov",
        {},
        4,
        "N",
        row("-", ("E", 2), ("S", 3), ("W", 5)),
        {"N": "15/2", "E": "75/2", "S": "-35/2", "W": "-55/2"},
    ),
    # D-P4: Rostov ties for the minimum split and do not write on each other (Code 3.7.2.2: 15 each)
    ("D-P4", "rostov", {}, 3, None, row("-", ("N", 2), ("E", 2), ("S", 6)), {"N": 15, "E": 15, "S": -30}),
    # D-P5: amnesty is vist-neutral: on and off give the same vists
    (
        "D-P5",
        "sochi",
        {},
        3,
        "N",
        row("-", ("N", 5), ("E", 3), ("S", 2)),
        {"N": "-50/3", "E": "10/3", "S": "40/3"},
    ),
    (
        "D-P5 option",
        "sochi",
        {"amnesty": False},
        3,
        "N",
        row("-", ("N", 5), ("E", 3), ("S", 2)),
        {"N": "-50/3", "E": "10/3", "S": "40/3"},
    ),
    # D-F1 (fouled boards) belongs to the matchpoint layer, not to the scoring of one deal.
]


@pytest.mark.parametrize(
    ("variant", "overrides", "players", "dealer", "the_row", "expected"),
    [case[1:] for case in DECISIONS],
    ids=[case[0] for case in DECISIONS],
)
def test_decision(
    variant: str,
    overrides: Mapping[str, object],
    players: int,
    dealer: str | None,
    the_row: dict[str, Any],
    expected: object,
) -> None:
    if isinstance(expected, str):
        text = expected.removeprefix("error: ")
        with pytest.raises((RowInvalid, RulesError)) as caught:
            score_row(the_row, rules=make_rules(variant, overrides), players=players, dealer=dealer)
        assert text in str(caught.value)
        return
    assert isinstance(expected, dict)
    vists = score_row(the_row, rules=make_rules(variant, overrides), players=players, dealer=dealer)
    assert vists == {seat: parse_fraction(value) for seat, value in expected.items()}
    assert sum(vists.values()) == 0


def test_every_decision_of_the_spec_has_a_row() -> None:
    named = {case[0].split()[0] for case in DECISIONS}
    spec_ids = [
        "D-C1",
        "D-C2",
        "D-C3",
        "D-C4",
        "D-C5",
        "D-T1",
        "D-T2",
        "D-T3",
        "D-W1",
        "D-W2",
        "D-W3",
        "D-W4",
        "D-W5",
        "D-W6",
        "D-W7",
        "D-W8",
        "D-W9",
        "D-X1",
        "D-M1",
        "D-M2",
        "D-L1",
        "D-L2",
        "D-R1",
        "D-R2",
        "D-R3",
        "D-P1",
        "D-P2",
        "D-P3",
        "D-P4",
        "D-P5",
    ]
    assert set(spec_ids) <= named


def test_amnesty_changes_the_ledger_not_the_vists() -> None:
    the_row = row("-", ("N", 5), ("E", 3), ("S", 2))
    on = parse_row(the_row, rules=make_rules("sochi"), players=3, dealer="N")
    off_rules = make_rules("sochi", {"amnesty": False})
    off = parse_row(the_row, rules=off_rules, players=3, dealer="N")
    assert compute_ledger(on[0], rules=make_rules("sochi"), table=on[1]).mountain == {"N": 3, "E": 1}
    assert compute_ledger(off[0], rules=off_rules, table=off[1]).mountain == {"N": 5, "E": 3, "S": 2}


# -- §11.4 validation ------------------------------------------------------------------------------------
SIX = row("6S", ("N", 6), ("E", 2), ("S", 2), **both())
SIX_4P = row("6S", ("E", 6), ("S", 2), ("W", 2), **both("S", "W"))

# rule, players, dealer, variant, row, expected code, field, text in the message
INVALID: list[tuple[str, int, str | None, str, dict[str, Any], str, str, str]] = [
    (
        "1 W empty at 3",
        3,
        None,
        "sochi",
        row("6S", ("N", 6), ("E", 2), ("W", 2), **both("E", "W")),
        "seat_empty",
        "w2",
        "W is empty at a 3-player table",
    ),
    ("1 dealer required at 4", 4, None, "sochi", SIX_4P, "dealer", "dealer", "needs the dealer's seat"),
    (
        "1 dealer in a column",
        4,
        "W",
        "sochi",
        SIX_4P,
        "dealer_position",
        "w2",
        "second whister is the dealer W",
    ),
    (
        "2 duplicate",
        3,
        None,
        "sochi",
        row("6S", ("N", 6), ("E", 2), ("E", 2), **both()),
        "duplicate_position",
        "w2",
        "duplicate position E",
    ),
    (
        "3 tricks 11",
        3,
        None,
        "sochi",
        row("6S", ("N", 11), ("E", 0), ("S", 0), **both()),
        "tricks_range",
        "declarer",
        "tricks are whole numbers 0 to 10",
    ),
    (
        "3 tricks not int",
        3,
        None,
        "sochi",
        row("6S", ("N", "6"), ("E", 2), ("S", 2), **both()),
        "tricks_range",
        "declarer",
        "declarer's tricks '6'",
    ),
    (
        "4 contract",
        3,
        None,
        "sochi",
        row("6X", ("N", 6), ("E", 2), ("S", 2), **both()),
        "contract",
        "contract",
        "illegal contract '6X'",
    ),
    (
        "5 total",
        3,
        None,
        "sochi",
        row("6S", ("N", 6), ("E", 2), ("S", 1), **both()),
        "tricks_total",
        "declarer",
        "tricks total 9 — they must total 10",
    ),
    (
        "6 rostov 4p total",
        4,
        "N",
        "rostov",
        row("-", ("E", 3), ("S", 3), ("W", 3)),
        "raspasy_total",
        "declarer",
        "raspasy total 9 at a 4-player rostov table",
    ),
    (
        "6 order",
        4,
        "N",
        "sochi",
        row("-", ("E", 3), ("W", 3), ("S", 3)),
        "column_order",
        "w1",
        "after E come S and W",
    ),
    (
        "8 call for a non-defender",
        3,
        None,
        "sochi",
        row(
            "6S", ("N", 6), ("E", 2), ("S", 2), calls={"E": "whist", "S": "whist", "N": "pass"}, play="closed"
        ),
        "calls_seat",
        "calls.N",
        "N is not a defender",
    ),
    (
        "8 call missing",
        3,
        None,
        "sochi",
        row("6S", ("N", 6), ("E", 2), ("S", 2), calls={"E": "whist"}, play="closed"),
        "calls_missing",
        "calls.S",
        "S has no call",
    ),
    (
        "8 bad call",
        3,
        None,
        "sochi",
        row("6S", ("N", 6), ("E", 2), ("S", 2), calls={"E": "whist", "S": "vist"}, play="closed"),
        "calls_value",
        "calls.S",
        "S's call 'vist'",
    ),
    (
        "8 half by d1 under greedy",
        3,
        None,
        "sochi",
        row("6S", ("N", 6), ("E", 2), ("S", 2), calls={"E": "half", "S": "pass"}, play="none"),
        "calls_half_first",
        "calls.E",
        "only under gentleman's whist",
    ),
    (
        "8 half beside whist",
        3,
        None,
        "sochi",
        row("6S", ("N", 6), ("E", 2), ("S", 2), calls={"E": "whist", "S": "half"}, play="closed"),
        "calls_half_with_whist",
        "calls.S",
        "cannot stand beside a whist",
    ),
    (
        "8 half_returned without returner",
        3,
        None,
        "sochi",
        row("6S", ("N", 6), ("E", 2), ("S", 2), calls={"E": "pass", "S": "half_returned"}, play="none"),
        "calls_no_returner",
        "calls.S",
        "nobody returned the whist",
    ),
    (
        "8 two halves",
        3,
        None,
        "leningrad",
        row("6S", ("N", 6), ("E", 2), ("S", 2), calls={"E": "half", "S": "half"}, play="none"),
        "calls_two_halves",
        "calls.S",
        "only one defender",
    ),
    (
        "9 dealer_whist at 3",
        3,
        None,
        "sochi",
        row(
            "8S",
            ("N", 10),
            ("E", 0),
            ("S", 0),
            calls={"E": "pass", "S": "pass"},
            dealer_whist=True,
            play="closed",
        ),
        "dealer_whist",
        "dealer_whist",
        "only at a 4-player table",
    ),
    (
        "9 dealer_whist beside a whist",
        4,
        "N",
        "sochi",
        row(
            "8S",
            ("E", 8),
            ("S", 1),
            ("W", 1),
            calls={"S": "whist", "W": "pass"},
            dealer_whist=True,
            play="closed",
        ),
        "dealer_whist",
        "dealer_whist",
        "a defender whists",
    ),
    (
        "10 no whister must be none",
        3,
        None,
        "sochi",
        row("8S", ("N", 10), ("E", 0), ("S", 0), calls={"E": "pass", "S": "pass"}, play="closed"),
        "play_no_whister",
        "play",
        "nobody whisted",
    ),
    (
        "10 whister cannot be none",
        3,
        None,
        "sochi",
        row("8S", ("N", 8), ("E", 1), ("S", 1), calls={"E": "whist", "S": "pass"}, play="none"),
        "play_none",
        "play",
        "someone whisted",
    ),
    (
        "11 sum",
        3,
        None,
        "sochi",
        {**SIX, "vists": {"N": "16/3", "E": "-8/3", "S": "-7/3"}},
        "vists_sum",
        "vists",
        "vists sum to 1/3",
    ),
    (
        "11 mismatch",
        3,
        None,
        "sochi",
        {**SIX, "vists": {"N": 5, "E": "-8/3", "S": "-7/3"}},
        "vists_mismatch",
        "vists.N",
        "N's vists 5 — the rules give 16/3",
    ),
    (
        "11 missing seat",
        3,
        None,
        "sochi",
        {**SIX, "vists": {"N": "16/3", "E": "-8/3"}},
        "vists_missing",
        "vists.S",
        "S has no vists",
    ),
    (
        "11 W at 3",
        3,
        None,
        "sochi",
        {**SIX, "vists": {"N": "16/3", "E": "-8/3", "S": "-8/3", "W": "0"}},
        "vists_seat",
        "vists.W",
        "W has no player",
    ),
    (
        "11 float",
        3,
        None,
        "sochi",
        {**SIX, "vists": {"N": 5.3, "E": "-8/3", "S": "-8/3"}},
        "vists_number",
        "vists.N",
        "not an integer or a fraction",
    ),
    (
        "12 step on a contract",
        3,
        None,
        "sochi",
        {**SIX, "raspasy_step": 1},
        "raspasy_step",
        "raspasy_step",
        "belongs to a raspasy deal",
    ),
    (
        "§9 extra entry seat",
        3,
        None,
        "sochi",
        {**SIX, "extra_entries": [{"type": "whist", "from": "W", "to": "N", "amount": 5}]},
        "extra_entry",
        "extra_entries.0",
        "seats must be among N, E, S",
    ),
    (
        "§9 extra entry type",
        3,
        None,
        "sochi",
        {**SIX, "extra_entries": [{"type": "bonus", "seat": "N", "amount": 5}]},
        "extra_entry",
        "extra_entries.0",
        "type must be whist, pool or mountain",
    ),
]


@pytest.mark.parametrize(
    ("players", "dealer", "variant", "the_row", "code", "field", "text"),
    [case[1:] for case in INVALID],
    ids=[case[0] for case in INVALID],
)
def test_validation_rule(
    players: int, dealer: str | None, variant: str, the_row: dict[str, Any], code: str, field: str, text: str
) -> None:
    errors = validate_row(the_row, rules=make_rules(variant), players=players, dealer=dealer)
    matching = [e for e in errors if e.code == code and e.field == field]
    assert matching, errors
    assert text in matching[0].message
    with pytest.raises(RowInvalid):
        score_row(the_row, rules=make_rules(variant), players=players, dealer=dealer)


def test_all_problems_are_reported_and_joined() -> None:
    bad = row("6S", ("N", 6), ("E", 2), ("S", 1), calls={"E": "whist", "S": "whist"}, play="open")
    with pytest.raises(RowInvalid) as caught:
        score_row(bad, rules=make_rules("sochi"), players=3, dealer=None)
    codes = [e.code for e in caught.value.errors]
    assert codes == ["tricks_total", "play_two_whisters"]
    assert str(caught.value) == "; ".join(e.message for e in caught.value.errors)


def test_row_invalid_pickles_with_its_errors() -> None:
    import pickle

    bad = row("6S", ("N", 6), ("E", 3), ("S", 2), **both())
    with pytest.raises(RowInvalid) as caught:
        score_row(bad, rules=make_rules("sochi"), players=3, dealer=None)
    copy = pickle.loads(pickle.dumps(caught.value))
    assert copy.errors == caught.value.errors
    assert str(copy) == str(caught.value)


def test_error_params_rebuild_the_message() -> None:
    (error,) = validate_row(
        row("6S", ("N", 6), ("E", 3), ("S", 2), **both()), rules=make_rules("sochi"), players=3, dealer=None
    )
    assert error == RowError(
        "tricks_total", "declarer", "tricks total 11 — they must total 10", {"total": 11, "tricks": [6, 3, 2]}
    )


def test_unknown_row_keys_are_ignored() -> None:
    extended = {
        **SIX,
        "board": 1,
        "round": 2,
        "table": 3,
        "seats": {"N": 1},
        "dealer": "W",
        "version": "A",
        "second_whister": "S",
        "vists": {"N": "16/3", "E": "-8/3", "S": "-8/3", "W": None},
    }
    assert score_row(extended, rules=make_rules("sochi"), players=3, dealer=None)["N"] == Fraction(16, 3)


def test_vists_may_be_ints_strings_or_fractions() -> None:
    the_row = {
        **row("8S", ("N", 10), ("E", 0), ("S", 0), calls={"E": "pass", "S": "pass"}, play="none"),
        "vists": {"N": 40, "E": "-20", "S": Fraction(-20)},
    }
    assert score_row(the_row, rules=make_rules("sochi"), players=3, dealer=None) == {
        "N": 40,
        "E": -20,
        "S": -20,
    }


def test_extra_entries_in_a_row() -> None:
    # S17: the misère let through, with compensation written on S by W and the dealer N
    the_row = row(
        "MIS",
        ("E", 0),
        ("S", 5),
        ("W", 5),
        extra_entries=[
            {"type": "whist", "from": "W", "to": "S", "amount": 50},
            {"type": "whist", "from": "N", "to": "S", "amount": "50"},
            {"type": "mountain", "seat": "E", "amount": "0"},
        ],
    )
    vists = score_row(the_row, rules=make_rules("sochi"), players=4, dealer="N")
    assert vists == {"N": 25, "E": 75, "S": -125, "W": 25}


def test_four_player_results_include_the_dealer() -> None:
    vists = score_row(SIX_4P, rules=make_rules("sochi"), players=4, dealer="N")
    assert list(vists) == list(SEATS)
    assert vists["N"] == -5


# -- contracts ------------------------------------------------------------------------------------------
def test_contract_codes_are_the_ladder() -> None:
    assert len(CONTRACT_CODES) == 26
    assert CONTRACT_CODES[:5] == ("6S", "6C", "6D", "6H", "6NT")
    assert CONTRACT_CODES[14:17] == ("8NT", "MIS", "9S")
    assert CONTRACT_CODES[-1] == "10NT"
    assert (*CONTRACT_CODES, "-") == ROW_CONTRACT_CODES
    for code in ROW_CONTRACT_CODES:
        assert parse_contract(code).code == code


@pytest.mark.parametrize(
    ("code", "kind", "level", "strain"),
    [
        ("7NT", ContractKind.TRICKS, 7, "NT"),
        ("10H", ContractKind.TRICKS, 10, "H"),
        ("MIS", ContractKind.MISERE, None, None),
        ("-", ContractKind.RASPASY, None, None),
    ],
)
def test_parse_contract(code: str, kind: ContractKind, level: int | None, strain: str | None) -> None:
    contract = parse_contract(code)
    assert (contract.kind, contract.level, contract.strain) == (kind, level, strain)


@pytest.mark.parametrize("code", ["11S", "5S", "6", "6s", "6N", "mis", "", " 6S", "6♠", "10"])
def test_parse_contract_refuses(code: str) -> None:
    with pytest.raises(ContractError, match="illegal contract"):
        parse_contract(code)


# -- variant profiles -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("variant", "expected"),
    [
        (
            "sochi",
            {
                "pool_weight": 1,
                "whist_mult": 1,
                "consolation": "price",
                "whist_responsibility": "responsible",
                "whist_mode": "greedy",
                "raspasy_mode": "mountain",
                "raspasy_price": 1,
                "amnesty": True,
            },
        ),
        (
            "leningrad",
            {
                "pool_weight": 2,
                "whist_mult": 2,
                "consolation": "price",
                "whist_responsibility": "half",
                "whist_mode": "gentleman",
                "raspasy_mode": "mountain",
                "raspasy_price": 2,
                "amnesty": True,
            },
        ),
        (
            "rostov",
            {
                "pool_weight": 1,
                "whist_mult": 1,
                "consolation": 10,
                "whist_responsibility": "half",
                "whist_mode": "gentleman",
                "raspasy_mode": "whists",
                "raspasy_price": 5,
                "raspasy_zero_pool": 1,
                "amnesty": False,
            },
        ),
    ],
)
def test_variant_defaults(variant: str, expected: dict[str, object]) -> None:
    described = describe_rules(make_rules(variant))
    assert set(described) == {"variant", *OVERRIDE_KEYS}
    for key, value in expected.items():
        assert described[key] == value, key


@pytest.mark.parametrize("variant", VARIANTS)
def test_describe_and_overrides_round_trip(variant: str) -> None:
    rules = make_rules(variant)
    assert rules_to_overrides(rules) == {}
    described = describe_rules(rules)
    del described["variant"]
    assert make_rules(variant, described) == rules
    changed = make_rules(variant, {"consolation": "15", "progression": "geometric", "price_6": "5/2"})
    overrides = rules_to_overrides(changed)
    assert overrides == {"consolation": 15, "progression": "geometric", "price_6": "5/2"}
    assert make_rules(variant, overrides) == changed
    assert hash(changed) == hash(make_rules(variant, overrides))


@pytest.mark.parametrize(
    ("variant", "overrides", "text"),
    [
        ("moscow", {}, "unknown variant 'moscow'"),
        ("sochi", {"colour": "red"}, "unknown rules key 'colour'"),
        (
            "sochi",
            {"whist_mode": "polite"},
            "rules key 'whist_mode': 'polite' is not one of greedy, gentleman, odessa",
        ),
        ("sochi", {"pool_weight": 1.5}, "rules key 'pool_weight'"),
        ("sochi", {"pool_weight": True}, "rules key 'pool_weight'"),
        ("sochi", {"price_6": 0}, "rules key 'price_6': 0 must be greater than 0"),
        ("sochi", {"amnesty": "yes"}, "rules key 'amnesty': 'yes' must be true or false"),
        ("sochi", {"consolation": "double"}, "rules key 'consolation'"),
        ("sochi", {"progression_cap": 0}, "rules key 'progression_cap'"),
        ("sochi", {"raspasy_zero_pool": "none"}, "rules key 'raspasy_zero_pool'"),
        ("rostov", {"amnesty": True}, "rules key 'amnesty'"),
    ],
)
def test_bad_rules_name_the_key(variant: str, overrides: dict[str, object], text: str) -> None:
    with pytest.raises(RulesError) as caught:
        make_rules(variant, overrides)
    assert text in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_every_override_key_is_documented() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[3] / "docs" / "rules-keys.md").read_text(encoding="utf-8")
    for key in OVERRIDE_KEYS:
        assert f"`{key}`" in doc, key
