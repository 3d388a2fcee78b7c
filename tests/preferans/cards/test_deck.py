"""Card notation (formats.md §2): printing, parsing, refusals."""

from __future__ import annotations

import pytest

from preferans.cards.deck import (
    DECK,
    Card,
    NotationError,
    Rank,
    Suit,
    format_hand,
    format_hand_symbols,
    parse_card,
    parse_hand,
    sort_cards,
)


def test_deck_has_32_distinct_cards_in_canonical_order() -> None:
    assert len(DECK) == 32
    assert len(set(DECK)) == 32
    assert sort_cards(reversed(DECK)) == DECK
    assert DECK[0] == Card(Suit.SPADES, Rank.ACE)
    assert DECK[-1] == Card(Suit.HEARTS, Rank.SEVEN)


@pytest.mark.parametrize("card", DECK, ids=lambda c: c.notation)
def test_every_card_round_trips(card: Card) -> None:
    assert parse_card(card.notation) == card
    assert parse_card(card.symbol_text) == card
    assert parse_card(card.notation.lower()) == card
    assert parse_hand(format_hand([card])) == (card,)


def test_hand_round_trip_and_canonical_print() -> None:
    text = "SAKQ C7 DJ98 H10"
    cards = parse_hand(text)
    assert [c.notation for c in cards] == ["SA", "SK", "SQ", "C7", "DJ", "D9", "D8", "H10"]
    assert format_hand(cards) == text
    assert format_hand(reversed(cards)) == text
    assert format_hand_symbols(cards) == "♠AKQ ♣7 ♦J98 ♥10"
    assert format_hand_symbols(parse_hand("SA")) == "♠A ♣— ♦— ♥—"


def test_whole_deck_round_trips_as_a_hand() -> None:
    text = format_hand(DECK)
    assert text == "SAKQJ10987 CAKQJ10987 DAKQJ10987 HAKQJ10987"
    assert parse_hand(text) == DECK


@pytest.mark.parametrize(
    "written",
    [
        "SAKQ C7 DJ98 H10",
        "sakq c7 dj98 h10",
        "SAKQC7DJ98H10",
        "♠AKQ ♣7 ♦J98 ♥10",
        "SAKQ, C7, DJ98, HT",
        "SAKQ C7 DJ98 H10 C-",
        "SAKQ С7 DJ98 Н10",  # Cyrillic С and Н look exactly like C and H
    ],
)
def test_forgiving_forms_read_the_same(written: str) -> None:
    assert format_hand(parse_hand(written)) == "SAKQ C7 DJ98 H10"


def test_void_suit_is_left_out_when_printing() -> None:
    assert format_hand(parse_hand("S- CAK DQ H-")) == "CAK DQ"
    assert parse_hand("") == ()


@pytest.mark.parametrize(
    ("written", "code", "fragment"),
    [
        ("XAKQ", "unknown_suit", "'X' is not a suit letter"),
        ("SAKQ BJ", "unknown_rank", "'B' is neither a suit letter"),
        ("S1", "unknown_rank", "'1'"),
        ("AKQ", "rank_without_suit", "comes before any suit letter"),
        ("SAK-", "misplaced_void", "void suit"),
        ("SТК", "cyrillic_letter", "Cyrillic"),
    ],
)
def test_bad_hand_is_refused_with_a_clear_message(written: str, code: str, fragment: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_hand(written, place="N")
    assert info.value.code == code
    assert fragment in str(info.value)
    assert "in N" in str(info.value)
    assert info.value.issue.place == "N"


@pytest.mark.parametrize(
    ("written", "code"),
    [
        ("", "empty_card"),
        ("   ", "empty_card"),
        ("HAK", "not_one_card"),
        ("H", "not_one_card"),
        ("Z7", "unknown_suit"),
    ],
)
def test_bad_card_is_refused(written: str, code: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_card(written)
    assert info.value.code == code
