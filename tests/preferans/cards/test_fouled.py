"""Fouled boards (duplicate-rules §10): which cards moved, and versions."""

from __future__ import annotations

import pytest

from preferans.cards.board_form import board_from_dict
from preferans.cards.deal import BoardError, Seat
from preferans.cards.deck import parse_card, parse_hand
from preferans.cards.fouled import CardMove, PlayedLayout, compare_layouts, version_labels

BOARD = board_from_dict(
    {
        "number": 4,
        "set": 1,
        "dealer": "W",
        "hands": {"N": "SAKQJ C7 DJ98 HA10", "E": "S10987 CAKQJ DA10", "S": "C1098 DKQ7 HKQJ9"},
        "prikup": ["H8", "H7"],
    }
)


def played(n: str, e: str, s: str, prikup: str) -> PlayedLayout:
    return PlayedLayout(
        hands={Seat.N: parse_hand(n), Seat.E: parse_hand(e), Seat.S: parse_hand(s)}, prikup=parse_hand(prikup)
    )


def test_same_layout_is_not_fouled() -> None:
    result = compare_layouts(BOARD, PlayedLayout.of(BOARD))
    assert not result.is_fouled
    assert result.moves == ()
    assert result.text == "no difference: the table played the board as dealt"


def test_two_cards_swapped_between_hands() -> None:
    result = compare_layouts(
        BOARD, played("SKQJ C7 DJ98 HA10 S7", "SA1098 CAKQJ DA10", "C1098 DKQ7 HKQJ9", "H8 H7")
    )
    assert result.moves == (
        CardMove(parse_card("SA"), "N", "E"),
        CardMove(parse_card("S7"), "E", "N"),
    )
    assert result.text.splitlines() == ["♠A: N → E", "♠7: E → N"]
    assert result.counts == {}


def test_prikup_card_went_into_a_hand() -> None:
    result = compare_layouts(
        BOARD, played("SAKQJ C7 DJ98 HA10", "S10987 CAKQJ DA10", "C1098 DKQ7 HKQJ97", "H8")
    )
    assert [m.text for m in result.moves] == ["♥7: prikup → S"]
    assert dict(result.counts) == {"S": 11, "prikup": 1}
    assert "S had 11 cards instead of 10" in result.lines
    assert "the prikup had 1 card instead of 2" in result.lines
    assert "prikup (top, bottom): ♥8, ♥7 → ♥8" in result.lines


def test_prikup_order_swapped() -> None:
    result = compare_layouts(BOARD, PlayedLayout(hands=BOARD.hands, prikup=BOARD.prikup[::-1]))
    assert result.is_fouled and result.moves == () and result.prikup_order_changed
    assert result.text == "prikup (top, bottom): ♥8, ♥7 → ♥7, ♥8"


def test_played_layout_must_hold_each_card_once() -> None:
    with pytest.raises(BoardError) as info:
        compare_layouts(BOARD, played("SAKQJ C7 DJ98 HA10", "S10987 CAKQJ DA10", "C1098 DKQ7 HKQJ9", "H8 H8"))
    assert [i.code for i in info.value.issues] == ["duplicate", "missing"]
    assert "♥8 is written twice in the prikup" in str(info.value)


def test_played_layout_must_use_the_board_pockets() -> None:
    other = PlayedLayout(hands={Seat.E: (), Seat.S: (), Seat.W: ()}, prikup=())
    with pytest.raises(BoardError, match="hands in N, E, S"):
        compare_layouts(BOARD, other)


def test_version_labels() -> None:
    swapped = played("SKQJ C7 DJ98 HA10 S7", "SA1098 CAKQJ DA10", "C1098 DKQ7 HKQJ9", "H8 H7")
    prikup_turned = PlayedLayout(hands=BOARD.hands, prikup=BOARD.prikup[::-1])
    labels = version_labels(BOARD, [None, swapped, PlayedLayout.of(BOARD), prikup_turned, swapped])
    assert labels == ("A", "B", "A", "C", "B")
