"""Code 3.9.18 (a wrong number of cards) and Code 3.4.9 (penalty tricks), scored by the core.

Code 3.9.18 (seed 000, the Code of 1996):
  «Заказавший игру ставит ремиз по меньшей мере без двух (даже если он выигрывал контракт). … Если он взял шесть
  взяток, то пишет за четыре; если взял четыре взятки, пишет за две. Если взял восемь взяток, то пишет всё равно
  за четыре – т. е. без двух. Вистующие пишут висты за фактическое количество взяток и консоляцию – за
  фактический подсад, без учёта штрафных взяток.»
  "The declarer is set at least two (even if he was making the contract). … Having taken six tricks he writes for
  four; four tricks, for two. Having taken eight he still writes for four, i.e. two down. The defenders write
  whists for the tricks actually taken and consolation for the actual undertricks, without the penalty tricks."
  Example 2: a defender with a wrong number of cards «наказывается ремизом «без двух» (в данном случае – на
  висте)» — "is punished by a remiz of two (here: on whist)". Example 3: «Наказываются оба: один – без двух на
  игре, другой – без двух на висте» — "Both are punished: one two down on the contract, the other two down on
  whist".

Code 3.4.9: «Если было набрано ровно объявленное количество взяток, то считается ремиз без одной. Если была взята
  лишняя взятка, то она не считается (взаимно уничтожается со штрафной). Если были взяты несколько лишних взяток,
  то одна отнимается. Если имел место ремиз, то штрафная взятка плюсуется к недобранным.» — "Exactly the contract:
  one down. One overtrick cancels the penalty trick. Several overtricks: one is taken off. A remiz: the penalty
  trick is added to the undertricks." (`penalty_tricks`, unchanged.)

The row field: ``wrong_cards`` — the seats found with a wrong number of cards (docs/formats.md §2.1).
Sochi, 3 players, N declares, E and S defend: a six costs p = 2, whist w = 2, whist remiz 2, consolation 2.
"""

from __future__ import annotations

from typing import Any

import pytest

from preferans.game import RowInvalid, compute_ledger, make_rules, parse_row, score_row, validate_row

BOTH = {"calls": {"E": "whist", "S": "whist"}, "play": "closed"}
ONE = {"calls": {"E": "whist", "S": "pass"}, "play": "open"}


def _row(contract: str, n: int, e: int, s: int, calls: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"contract": contract, "declarer": ["N", n], "w1": ["E", e], "w2": ["S", s], **calls, **extra}


def _ledger(the_row: dict[str, Any]) -> tuple[dict[str, int], dict[str, int], dict[tuple[str, str], int]]:
    rules = make_rules("sochi")
    deal, table = parse_row(the_row, rules=rules, players=3, dealer=None)
    ledger = compute_ledger(deal, rules=rules, table=table)
    as_int = lambda m: {k: int(v) for k, v in m.items()}  # noqa: E731 — the amounts here are whole
    return as_int(ledger.pool), as_int(ledger.mountain), as_int(ledger.whists)


# (case, row, pool, mountain, whists (writer, debtor) → amount)
CODE_3_9_18 = [
    (
        "ex1 six taken on a six: writes for four, two down",
        _row("6H", 6, 2, 2, BOTH, wrong_cards=["N"]),
        {},
        {"N": 4},
        {("E", "N"): 4, ("S", "N"): 4},
    ),
    (
        "ex1 four taken on a six: writes for two, four down; consolation for the actual two",
        _row("6H", 4, 3, 3, BOTH, wrong_cards=["N"]),
        {},
        {"N": 8},
        {("E", "N"): 6 + 4, ("S", "N"): 6 + 4},
    ),
    (
        "ex1 eight taken on a six: still writes for four, two down (overtricks do not count); «Вистующие пишут "
        "висты за фактическое количество взяток и консоляцию»: whists only, no whist remiz for the defenders",
        _row("6H", 8, 1, 1, BOTH, wrong_cards=["N"]),
        {},
        {"N": 4},
        {("E", "N"): 2, ("S", "N"): 2},
    ),
    (
        "ex1 one whister answers for both hands, as played",
        _row("6H", 6, 3, 1, ONE, wrong_cards=["N"]),
        {},
        {"N": 4},
        {("E", "N"): 8},
    ),
    (
        "ex2 a defender with wrong cards: two down on whist, the contract stands",
        _row("6H", 6, 2, 2, BOTH, wrong_cards=["E"]),
        {"N": 2},
        {"E": 4},
        {("E", "N"): 4, ("S", "N"): 4},
    ),
    (
        "ex2 the passer with wrong cards is a defender too",
        _row("6H", 6, 2, 2, ONE, wrong_cards=["S"]),
        {"N": 2},
        {"S": 4},
        {("E", "N"): 8},
    ),
    (
        "ex2 on top of the whist remiz he owes for the play (S below half pays the collective 1, then 2)",
        _row("6H", 7, 2, 1, BOTH, wrong_cards=["S"]),
        {"N": 2},
        {"S": 2 * 3},
        {("E", "N"): 4, ("S", "N"): 2},
    ),
    (
        "ex3 both: the declarer two down on the contract, the defender two down on whist",
        _row("6H", 6, 2, 2, BOTH, wrong_cards=["N", "E"]),
        {},
        {"N": 4, "E": 4},
        {("E", "N"): 4, ("S", "N"): 4},
    ),
    (
        "ex3 both at fault, eight taken: the defender at fault books his two below on whist, the innocent one "
        "no whist remiz (ex1: «висты … и консоляцию»)",
        _row("6H", 8, 1, 1, BOTH, wrong_cards=["N", "E"]),
        {},
        {"N": 4, "E": 4},
        {("E", "N"): 2, ("S", "N"): 2},
    ),
    (
        "3.4.9 still: exactly six with one penalty trick is one down",
        _row("6H", 6, 2, 2, BOTH, penalty_tricks=1),
        {},
        {"N": 2},
        {("E", "N"): 4, ("S", "N"): 4},
    ),
    (
        "3.4.9 still: one overtrick cancels the penalty trick",
        _row("6H", 7, 2, 1, BOTH, penalty_tricks=1),
        {"N": 2},
        {"S": 2},
        {("E", "N"): 4, ("S", "N"): 2},
    ),
    (
        "3.4.9 still: several overtricks, one is taken off, the six is made",
        _row("6H", 8, 1, 1, BOTH, penalty_tricks=1),
        {"N": 2},
        {"S": 2, "E": 2},
        {("E", "N"): 2, ("S", "N"): 2},
    ),
    (
        "3.4.9 still: a remiz, the penalty trick adds to the undertricks",
        _row("6H", 5, 3, 2, BOTH, penalty_tricks=1),
        {},
        {"N": 4},
        {("E", "N"): 6 + 2, ("S", "N"): 4 + 2},
    ),
]


@pytest.mark.parametrize(
    ("the_row", "pool", "mountain", "whists"), [c[1:] for c in CODE_3_9_18], ids=[c[0] for c in CODE_3_9_18]
)
def test_code_3_9_18_wrong_number_of_cards_at_least_two_down(
    the_row: dict[str, Any],
    pool: dict[str, int],
    mountain: dict[str, int],
    whists: dict[tuple[str, str], int],
) -> None:
    got_pool, got_mountain, got_whists = _ledger(the_row)
    assert got_pool == pool
    assert got_mountain == mountain
    assert got_whists == whists


def test_code_3_9_18_eight_tricks_is_not_made_although_two_penalty_tricks_would_make_it() -> None:
    """The case of the issue: 8 tricks on a six. ``penalty_tricks`` = 2 subtracts (3.4.9-style) and the six is
    made; Code 3.9.18 («пишет всё равно за четыре») sets it two down."""
    rules = make_rules("sochi")
    subtracted = score_row(_row("6H", 8, 1, 1, BOTH, penalty_tricks=2), rules=rules, players=3, dealer=None)
    wrong = score_row(_row("6H", 8, 1, 1, BOTH, wrong_cards=["N"]), rules=rules, players=3, dealer=None)
    assert subtracted["N"] > 0 > wrong["N"]
    assert sum(wrong.values()) == 0
    assert _ledger(_row("6H", 8, 1, 1, BOTH, wrong_cards=["N"]))[1]["N"] == 4  # two down: 2 × p


def test_code_3_9_18_at_a_four_player_table_the_dealer_holds_no_cards() -> None:
    rules = make_rules("sochi")
    four = {
        "contract": "6H",
        "declarer": ["E", 6],
        "w1": ["S", 2],
        "w2": ["W", 2],
        **{"calls": {"S": "whist", "W": "whist"}},
    }
    ok = score_row({**four, "wrong_cards": ["E"]}, rules=rules, players=4, dealer="N")
    assert sum(ok.values()) == 0
    errors = validate_row({**four, "wrong_cards": ["N"]}, rules=rules, players=4, dealer="N")
    assert [e.code for e in errors] == ["wrong_cards_seat"]
    assert "N held no cards in this deal" in errors[0].message


# (case, players, dealer, row, code, text)
REFUSED = [
    ("not a list", _row("6H", 6, 2, 2, BOTH, wrong_cards="N"), "wrong_cards", "list the seats"),
    ("not a seat", _row("6H", 6, 2, 2, BOTH, wrong_cards=["X"]), "wrong_cards", "list the seats"),
    ("twice", _row("6H", 6, 2, 2, BOTH, wrong_cards=["N", "N"]), "wrong_cards_twice", "names a seat twice"),
    (
        "all three",
        _row("6H", 6, 2, 2, BOTH, wrong_cards=["N", "E", "S"]),
        "wrong_cards_all",
        "all three hands",
    ),
    (
        "no play",
        _row("6H", 10, 0, 0, {"calls": {"E": "pass", "S": "pass"}}, wrong_cards=["N"]),
        "wrong_cards_no_play",
        "the deal was not played",
    ),
    ("misère", _row("MIS", 1, 4, 5, {}, wrong_cards=["N"]), "wrong_cards_kind", "not to a misere"),
    (
        "raspasy",
        {"contract": "-", "declarer": ["N", 4], "w1": ["E", 3], "w2": ["S", 3], "wrong_cards": ["N"]},
        "wrong_cards_kind",
        "not to a raspasy",
    ),
]


@pytest.mark.parametrize(("the_row", "code", "text"), [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_code_3_9_18_wrong_cards_refused_with_a_reason(the_row: dict[str, Any], code: str, text: str) -> None:
    rules = make_rules("sochi")
    errors = validate_row(the_row, rules=rules, players=3, dealer="N")
    assert [e.code for e in errors if e.field == "wrong_cards"] == [code], errors
    assert text in next(e.message for e in errors if e.code == code)
    with pytest.raises(RowInvalid):
        score_row(the_row, rules=rules, players=3, dealer="N")
