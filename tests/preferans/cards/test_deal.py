"""Boards, layout checks, dealer rotation, dealing and the bundle's board form."""

from __future__ import annotations

import random
import secrets
from collections import Counter
from typing import Any

import pytest

from preferans.cards.board_form import board_from_dict, board_to_dict
from preferans.cards.deal import (
    PRIKUP,
    BoardError,
    DealtBoard,
    Seat,
    check_layout,
    deal_board,
    deal_boards,
    deal_sets,
    dealer_for,
    dealer_rotation,
    first_hand,
    hand_seats,
    secure_rng,
    seeded_rng,
    set_of_board,
)
from preferans.cards.deck import DECK, parse_card, parse_hand

N_HAND = "SAKQJ C7 DJ98 HA10"
E_HAND = "S10987 CAKQJ DA10"
S_HAND = "C1098 DKQ7 HKQJ9"


def _good() -> dict[str, Any]:
    """A valid 4-player board, dealer W (the bundle example's shape); prikup ♥8 on top of ♥7."""
    return {
        "number": 1,
        "set": 1,
        "dealer": "W",
        "hands": {"N": N_HAND, "E": E_HAND, "S": S_HAND},
        "prikup": ["H8", "H7"],
    }


def test_fixture_layout_is_valid() -> None:
    d = _good()
    board = board_from_dict(d)
    assert board.players == 4
    assert board.prikup_pocket is Seat.W
    assert board.first_hand is Seat.N
    assert board_to_dict(board) == d


def test_prikup_order_is_kept_and_hands_are_sorted() -> None:
    d = _good()
    d["prikup"] = ["H7", "H8"]
    d["hands"]["N"] = "H10A DJ98 C7 SKQJA"
    board = board_from_dict(d)
    assert [c.notation for c in board.prikup] == ["H7", "H8"]
    assert board_to_dict(board)["hands"]["N"] == N_HAND


def test_three_player_board() -> None:
    d = _good()
    d["dealer"] = "E"  # hands N, E, S; prikup in W; E is the first hand
    board = board_from_dict(d)
    assert board.players == 3
    assert board.prikup_pocket is Seat.W
    assert board.first_hand is Seat.E


def _codes(exc: pytest.ExceptionInfo[BoardError]) -> list[str]:
    return [issue.code for issue in exc.value.issues]


def test_wrong_count_is_refused() -> None:
    d = _good()
    d["hands"]["N"] = "SAKQJ C7 DJ98 HA"  # 9 cards, ♥10 missing
    with pytest.raises(BoardError) as info:
        board_from_dict(d)
    assert _codes(info) == ["wrong_count", "missing"]
    assert "N has 9 cards — a hand must have 10" in str(info.value)
    assert "missing: ♥10" in str(info.value)
    assert str(info.value).startswith("board 1: ")


def test_duplicate_and_missing_are_named() -> None:
    d = _good()
    d["hands"]["E"] = "S10987 CAKQJ DA H10"  # ♥10 also in N; ♦10 missing
    with pytest.raises(BoardError) as info:
        board_from_dict(d)
    assert _codes(info) == ["duplicate", "missing"]
    assert "♥10 is written twice: in N and in E" in str(info.value)
    assert "missing: ♦10" in str(info.value)
    dup = info.value.issues[0]
    assert dup.params == {"card": "♥10", "count": 2, "places": ("N", "E")}


def test_duplicate_with_the_prikup_and_within_a_hand() -> None:
    issues = check_layout(
        {"N": parse_hand("SAKQJ C7 DJ98 HA"), "E": parse_hand(E_HAND), "S": parse_hand(S_HAND)},
        [parse_card("H8"), parse_card("H9")],
    )
    messages = [i.message for i in issues]
    assert "♥9 is written twice: in S and in the prikup" in messages
    assert "missing: ♥10, ♥7" in messages
    assert "N has 9 cards — a hand must have 10" in messages
    same = check_layout({"N": parse_hand("SAA")}, [])
    assert "♠A is written twice in N" in [i.message for i in same]


def test_missing_lists_cards_in_order() -> None:
    issues = check_layout({"N": (), "E": (), "S": ()}, [], exact_counts=False)
    assert [i.code for i in issues] == ["missing"]
    assert issues[0].params["count"] == 32


def test_unknown_card_and_bad_suit_letter() -> None:
    d = _good()
    d["hands"]["N"] = "SAKQJ C7 DJ98 HAX10"
    with pytest.raises(BoardError) as info:
        board_from_dict(d)
    assert _codes(info) == ["unknown_rank"]
    assert "in N" in str(info.value)
    d = _good()
    d["hands"]["E"] = "S10987 CAKQJ XA10"
    with pytest.raises(BoardError) as info:
        board_from_dict(d)
    assert "'X' is neither a suit letter" in str(info.value)
    d = _good()
    d["hands"]["E"] = "X10987 CAKQJ DA10"
    with pytest.raises(BoardError) as info:
        board_from_dict(d)
    assert _codes(info) == ["unknown_suit"]
    assert "'X' is not a suit letter (use S, C, D, H) in E" in str(info.value)
    d = _good()
    d["prikup"] = ["H8", "Z7"]
    with pytest.raises(BoardError) as info:
        board_from_dict(d)
    assert "prikup" in str(info.value)


def test_prikup_must_be_in_the_dealer_pocket_or_w() -> None:
    d = _good()
    d["dealer"] = "N"
    d["hands"] = {"N": d["hands"]["N"], "E": d["hands"]["E"], "W": d["hands"]["S"]}  # prikup in S
    with pytest.raises(BoardError) as info:
        board_from_dict(d)
    assert _codes(info) == ["prikup_pocket"]
    assert "must be in the dealer's pocket (N)" in str(info.value)


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"number": 0}, "bad_number"),
        ({"number": "1"}, "bad_number"),
        ({"number": True}, "bad_number"),
        ({"set": -1}, "bad_set"),
        ({"dealer": "X"}, "bad_dealer"),
        ({"hands": "SAKQ"}, "bad_hands"),
        ({"prikup": "HJ H8"}, "bad_prikup"),
        ({"extra": 1}, "unknown_field"),
        ({"hands": {"N": N_HAND, "E": E_HAND, "X": S_HAND}}, "bad_seat"),
        ({"hands": {"N": N_HAND, "E": E_HAND, "S": 5}}, "bad_hand"),
    ],
)
def test_bad_fields_are_refused(change: dict[str, Any], code: str) -> None:
    d = {**_good(), **change}
    with pytest.raises(BoardError) as info:
        board_from_dict(d)
    assert code in _codes(info)


def test_missing_fields() -> None:
    with pytest.raises(BoardError) as info:
        board_from_dict({})
    assert _codes(info).count("missing_field") == 5
    with pytest.raises(BoardError):
        board_from_dict([])  # type: ignore[arg-type]


def test_set_follows_from_number_when_deals_per_set_is_given() -> None:
    d = _good()
    del d["set"]
    d["number"] = 6
    assert board_from_dict(d, deals_per_set=4).set_number == 2
    d["set"] = 1
    with pytest.raises(BoardError) as info:
        board_from_dict(d, deals_per_set=4)
    assert _codes(info) == ["wrong_set"]


def test_board_is_hashable_and_compares_by_value() -> None:
    a = board_from_dict(_good())
    b = board_from_dict(_good())
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    c = board_from_dict({**_good(), "prikup": ["H7", "H8"]})
    assert a != c and not a.same_layout(c)
    assert a.place_of(parse_card("H8")) == PRIKUP
    assert a.place_of(parse_card("SA")) == "N"
    assert a.cards_at(PRIKUP) == a.prikup
    assert a.cards_at("W") == ()


# --- rotation -------------------------------------------------------------------------------------------


def test_dealer_rotation() -> None:
    assert dealer_rotation(4) == (Seat.N, Seat.E, Seat.S, Seat.W)
    assert dealer_rotation(3) == (Seat.N, Seat.E, Seat.S)
    assert [dealer_for(i, 4) for i in range(5)] == [Seat.N, Seat.E, Seat.S, Seat.W, Seat.N]
    assert [dealer_for(i, 3) for i in range(4)] == [Seat.N, Seat.E, Seat.S, Seat.N]
    assert hand_seats(Seat.E, 4) == (Seat.N, Seat.S, Seat.W)
    assert hand_seats(Seat.E, 3) == (Seat.N, Seat.E, Seat.S)
    assert first_hand(Seat.W, 4) is Seat.N
    assert first_hand(Seat.S, 3) is Seat.S
    with pytest.raises(ValueError, match="3 or 4 players"):
        dealer_rotation(5)


@pytest.mark.parametrize(("players", "per_set"), [(4, 4), (3, 3), (4, 2), (3, 4), (4, 5)])
def test_deal_sets_numbers_and_dealers(players: int, per_set: int) -> None:
    sets = deal_sets(seeded_rng(7), sets=3, per_set=per_set, players=players)
    boards = [b for s in sets for b in s.boards]
    assert [b.number for b in boards] == list(range(1, 3 * per_set + 1))
    assert [s.number for s in sets] == [1, 2, 3]
    for board in boards:
        j = (board.number - 1) % per_set
        assert board.set_number == set_of_board(board.number, per_set)
        assert board.dealer is dealer_rotation(players)[j % players]
        assert board.players == players
        assert board.prikup_pocket is (board.dealer if players == 4 else Seat.W)


def test_same_seed_same_boards_different_seed_differs() -> None:
    a = deal_boards(seeded_rng(42), sets=2, per_set=4, players=4)
    b = deal_boards(seeded_rng(42), sets=2, per_set=4, players=4)
    c = deal_boards(seeded_rng(43), sets=2, per_set=4, players=4)
    assert a == b
    assert a != c
    assert len({(tuple(x.hands.items()), x.prikup) for x in a}) == 8


def test_secure_rng_is_the_system_random() -> None:
    rng = secure_rng()
    assert isinstance(rng, secrets.SystemRandom)
    boards = deal_boards(rng, sets=1, per_set=4, players=4)
    assert len(boards) == 4


@pytest.mark.parametrize(("sets", "per_set", "players"), [(0, 4, 4), (1, 0, 4), (1, 4, 2), (True, 4, 4)])
def test_deal_refuses_bad_sizes(sets: int, per_set: int, players: int) -> None:
    with pytest.raises(ValueError):
        deal_boards(seeded_rng(1), sets=sets, per_set=per_set, players=players)


def test_round_trip_of_many_dealt_boards() -> None:
    for board in deal_boards(seeded_rng(3), sets=10, per_set=4, players=4) + deal_boards(
        seeded_rng(4), sets=10, per_set=3, players=3
    ):
        assert board_from_dict(board_to_dict(board)) == board


# --- the shuffle is uniform -----------------------------------------------------------------------------

DEALS = 4000
# chi-square critical values at p = 0.001: 3 degrees of freedom, Bonferroni-corrected over 32 cards
# (p = 0.001/32) for the per-card test, and 96 degrees of freedom (Wilson–Hilferty) for the total.
CHI2_PER_CARD = 23.5
CHI2_TOTAL = 144.6


def test_each_card_is_equally_likely_in_each_pocket() -> None:
    rng = random.Random(20240601)
    pockets = ("E", "S", "W", PRIKUP)
    counts: dict[object, Counter[str]] = {card: Counter() for card in DECK}
    tops: Counter[object] = Counter()
    for n in range(DEALS):
        board = deal_board(rng, number=n + 1, set_number=1, dealer=Seat.N, players=4)
        for card in DECK:
            counts[card][board.place_of(card)] += 1
        tops[board.prikup[0]] += 1
    expected = {"E": DEALS * 10 / 32, "S": DEALS * 10 / 32, "W": DEALS * 10 / 32, PRIKUP: DEALS * 2 / 32}
    total = 0.0
    for card in DECK:
        chi2 = sum((counts[card][p] - expected[p]) ** 2 / expected[p] for p in pockets)
        assert chi2 < CHI2_PER_CARD, (card, counts[card])
        total += chi2
    assert total < CHI2_TOTAL
    # Every card is as likely to be the top card of the prikup as any other (31 df; p = 0.001 → 61.1).
    chi2_top = sum((tops[card] - DEALS / 32) ** 2 / (DEALS / 32) for card in DECK)
    assert chi2_top < 61.1


def test_board_refuses_hands_not_keyed_by_seat() -> None:
    good = board_from_dict(_good())
    with pytest.raises(BoardError, match="keyed by Seat"):
        DealtBoard(
            number=1, set_number=1, dealer=Seat.W, hands={"N": (), "E": (), "S": ()}, prikup=good.prikup
        )  # type: ignore[dict-item]
