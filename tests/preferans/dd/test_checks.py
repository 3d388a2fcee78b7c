"""Issue 19, "suspicious rows, for the director only" and "the personal card: tricks taken against tricks
possible": what a board's double-dummy analysis (formats.md §8.2 ``seats``) says about one protocol row."""

from __future__ import annotations

from typing import Any

import pytest

from preferans.dd.checks import (
    MADE_UNMAKEABLE,
    MISERE_UNDER_POSSIBLE,
    OVER_POSSIBLE,
    SEAT_NOT_IN_LAYOUT,
    Finding,
    TricksLine,
    row_findings,
    tricks_line,
)
from preferans.game import make_rules, parse_row

# A precomputed analysis of a 3-player board (never the real search in a test).
SEATS: dict[str, dict[str, Any]] = {
    "N": {"S": 6, "C": 5, "D": 4, "H": 7, "NT": 5, "misere": 2, "discards": {}},
    "E": {"S": 8, "C": 3, "D": 6, "H": 4, "NT": 4, "misere": 0, "discards": {}},
    "S": {"S": 3, "C": 7, "D": 5, "H": 3, "NT": 6, "misere": 1, "discards": {}},
}
BOTH = {"calls": {"E": "whist", "S": "whist"}, "play": "closed"}
ONE = {"calls": {"E": "whist", "S": "pass"}, "play": "open"}
NONE = {"calls": {"E": "pass", "S": "pass"}, "play": "none"}


def _deal(contract: str, n: int, e: int, s: int, calls: dict[str, Any] | None = None, **extra: Any) -> Any:
    row = {
        "contract": contract,
        "declarer": ["N", n],
        "w1": ["E", e],
        "w2": ["S", s],
        **(calls or {}),
        **extra,
    }
    deal, _table = parse_row(row, rules=make_rules("sochi"), players=3, dealer="N")
    return deal


def _raspasy() -> Any:
    row = {"contract": "-", "declarer": ["N", 5], "w1": ["E", 3], "w2": ["S", 2]}
    return parse_row(row, rules=make_rules("sochi"), players=3, dealer="N")[0]


# (case, deal, findings)
FINDINGS = [
    ("made exactly what the layout allows: nothing", _deal("7H", 7, 2, 1, BOTH), ()),
    ("fewer than possible (the declarer erred): nothing", _deal("6H", 6, 2, 2, BOTH), ()),
    (
        "a trick over best defence, contract makeable: the defence erred",
        _deal("6H", 8, 1, 1, BOTH),
        (Finding(OVER_POSSIBLE, "N", "H", 8, 7, 6),),
    ),
    (
        "over best defence but still down: over_possible, not made_unmakeable",
        _deal("8C", 6, 2, 2, BOTH),
        (Finding(OVER_POSSIBLE, "N", "C", 6, 5, 8, ("S",)),),
    ),
    (
        "a contract recorded made that best defence always beats; E's spades fit the tricks",
        _deal("8S", 8, 1, 1, BOTH),
        (Finding(MADE_UNMAKEABLE, "N", "S", 8, 6, 8, ("E",)),),
    ),
    (
        "one whister, open play: still checked",
        _deal("6D", 6, 4, 0, ONE),
        (Finding(MADE_UNMAKEABLE, "N", "D", 6, 4, 6, ("E",)),),
    ),
    ("nobody whisted: nominal tricks, nothing", _deal("8S", 10, 0, 0, NONE), ()),
    (
        "a wrong number of cards (Code 3.9.18): another layout was played, nothing",
        _deal("8S", 8, 1, 1, BOTH, wrong_cards=["N"]),
        (),
    ),
    ("misère caught as the layout forces: nothing", _deal("MIS", 2, 4, 4), ()),
    (
        "misère with fewer tricks than the defence can force; E and S could avoid one trick",
        _deal("MIS", 0, 5, 5),
        (Finding(MISERE_UNDER_POSSIBLE, "N", "misere", 0, 2, None, ("E",)),),
    ),
    ("misère: more than forced (declarer erred): nothing", _deal("MIS", 3, 4, 3), ()),
    ("raspasy: never a finding", _raspasy(), ()),
]


@pytest.mark.parametrize(("case", "deal", "expected"), FINDINGS, ids=[c[0] for c in FINDINGS])
def test_row_findings(case: str, deal: Any, expected: tuple[Finding, ...]) -> None:
    assert row_findings(deal, SEATS) == expected


def test_misere_fits_name_every_seat_that_could_have_taken_that_few() -> None:
    (finding,) = row_findings(_deal("MIS", 1, 5, 4), SEATS)
    assert (finding.taken, finding.possible, finding.fits) == (1, 2, ("E", "S"))


def test_a_declarer_without_a_hand_in_the_layout_cannot_be_of_this_layout() -> None:
    four_handed = {seat: SEATS[seat] for seat in ("E", "S")} | {"W": SEATS["N"]}  # N deals and sits out
    (finding,) = row_findings(_deal("7H", 7, 2, 1, BOTH), four_handed)
    assert (finding.code, finding.declarer, finding.possible) == (SEAT_NOT_IN_LAYOUT, "N", None)


def test_findings_carry_an_english_message_for_the_command_line() -> None:
    (finding,) = row_findings(_deal("6H", 8, 1, 1, BOTH), SEATS)
    assert finding.message == "6H by N: took 8, best defence allows 7"


# (case, deal, seat, line)
LINES = [
    (
        "declarer: his tricks against his strain's value",
        _deal("6H", 6, 2, 2, BOTH),
        "N",
        TricksLine("declarer", 6, 7, "more"),
    ),
    (
        "whister: both defenders' tricks against 10 − the declarer's value",
        _deal("6H", 6, 2, 2, BOTH),
        "E",
        TricksLine("whister", 4, 3, "more"),
    ),
    ("the passer of a one-whister deal is no whister: no line", _deal("6D", 6, 4, 0, ONE), "S", None),
    ("the one whister", _deal("6D", 6, 4, 0, ONE), "E", TricksLine("whister", 4, 6, "more")),
    ("nobody whisted: no play, no line", _deal("8S", 10, 0, 0, NONE), "N", None),
    (
        "misère declarer: fewer is better",
        _deal("MIS", 1, 5, 4),
        "N",
        TricksLine("misere_declarer", 1, 2, "fewer"),
    ),
    (
        "misère catcher: the declarer's tricks against the forced ones",
        _deal("MIS", 3, 4, 3),
        "S",
        TricksLine("misere_catcher", 3, 2, "more"),
    ),
    ("raspasy: no line", _raspasy(), "N", None),
]


@pytest.mark.parametrize(("case", "deal", "seat", "expected"), LINES, ids=[c[0] for c in LINES])
def test_tricks_line(case: str, deal: Any, seat: str, expected: TricksLine | None) -> None:
    assert tricks_line(deal, seat, SEATS) == expected


def test_difference_is_in_the_seats_favour() -> None:
    assert TricksLine("declarer", 6, 7, "more").difference == -1
    assert TricksLine("whister", 4, 3, "more").difference == 1
    assert TricksLine("misere_declarer", 1, 2, "fewer").difference == 1
