"""The deal notation (issue 20, «a deal export in a documented text notation of preferans deals»;
docs/deal-notation.md): one line a board — dealer, table size, hands in playing order, prikup top first — that
round-trips, and a reader that names the line of every problem."""

from __future__ import annotations

import pytest

from preferans.cards.deck import DECK, parse_hand
from preferans.interchange.deals import (
    HEADER,
    DealLine,
    DealsInvalid,
    board_of,
    deal_of,
    read_deals,
    write_deals,
)
from tests import golden

BOARD = {
    "number": 1,
    "dealer": "N",
    "hands": {"E": "SAKQJ C7 DJ98 HA10", "S": "S1098 CAKQ DAK HK9", "W": "S7 CJ1098 DQ10 HQJ8"},
    "prikup": ["H7", "D7"],
}
LINE = "1.1 N 4 E:AKQJ.7.J98.A10 S:1098.AKQ.AK.K9 W:7.J1098.Q10.QJ8 H7,D7"


def test_a_board_is_one_line_with_the_hands_in_playing_order() -> None:
    text = write_deals([deal_of(1, 4, BOARD)], title="Кубок клуба")
    assert text == f"{HEADER}\n% Кубок клуба\n{LINE}\n"


def test_the_notation_round_trips_and_gives_the_bundle_board_back() -> None:
    bundle = golden.load("club_cup.json")
    deals = [deal_of(s["number"], 4, b) for s in bundle["sessions"] for b in s["boards"]]
    text = write_deals(deals)
    assert read_deals(text) == deals
    assert write_deals(read_deals(text)) == text
    for deal, board in zip(deals, bundle["sessions"][0]["boards"], strict=True):
        assert board_of(deal) == {k: board[k] for k in ("number", "dealer", "hands", "prikup")}


@pytest.mark.parametrize(
    ("dealer", "players", "order"),
    [
        ("N", 4, "ESW"),
        ("E", 4, "SWN"),
        ("S", 4, "WNE"),
        ("W", 4, "NES"),
        ("N", 3, "NES"),
        ("E", 3, "ESN"),
        ("S", 3, "SNE"),
    ],
)
def test_first_hand_comes_first(dealer: str, players: int, order: str) -> None:
    """Rules: the first hand is the seat after the 4-player dealer, the «dealer» label itself at 3 players."""
    cards = [c.notation for c in DECK]
    hands = {seat: " ".join(cards[i * 10 : i * 10 + 10]) for i, seat in enumerate(order)}
    deal = deal_of(2, players, {"number": 5, "dealer": dealer, "hands": hands, "prikup": cards[30:]})
    line = write_deals([deal]).splitlines()[1]
    assert [token[0] for token in line.split()[3:6]] == list(order)
    assert read_deals(write_deals([deal])) == [deal]
    assert sorted(deal.hands[0][1]) == sorted(parse_hand(hands[order[0]]))


def test_a_board_without_a_layout_is_written_with_a_dash() -> None:
    deal = deal_of(1, 3, {"number": 4, "dealer": "S"})
    assert deal == DealLine(1, 4, "S", 3)
    assert write_deals([deal]).splitlines()[1] == "1.4 S 3 -"
    assert board_of(read_deals(write_deals([deal]))[0]) == {"number": 4, "dealer": "S"}


def test_comments_blank_lines_and_a_void_suit_are_read() -> None:
    void = "1.2 W 4 N:AKQJ10.987.AK. E:987.AKQJ10.Q.A S:..J10987.KQJ109 H8,H7"
    assert len(read_deals(f"{HEADER}\n\n% a comment\n{void}\n")[0].hands or ()) == 3
    assert write_deals(read_deals(f"{HEADER}\n{void}\n")) == f"{HEADER}\n{void}\n"


def test_a_layout_that_is_not_a_whole_deck_is_not_a_deal() -> None:
    with pytest.raises(ValueError, match="board 1: E holds 9 cards"):
        deal_of(1, 4, {**BOARD, "hands": {**BOARD["hands"], "E": "SAKQJ C7 DJ98 HA"}})
    with pytest.raises(ValueError, match="hands are not given for S, W, N"):
        deal_of(1, 4, {**BOARD, "dealer": "E"})


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("1.1 N 4", "line 2: a line is <session>.<board> <dealer> <players>"),
        ("1 N 4 -", "line 2: '1' is not <session>.<board>"),
        ("1.0 N 4 -", "line 2: '1.0' is not <session>.<board>"),
        ("1.1 N 5 -", "line 2: players must be 3 or 4"),
        ("1.1 W 3 -", "line 2: dealer 'W' is not a seat of a 3-player table"),
        ("1.1 N 4 x", "line 2: 'x': a board without a layout is written -"),
        (LINE.replace("E:", "S:", 1), "line 2: hand 1 is E's (playing order E S W)"),
        (LINE.replace("J98", "J9X"), "line 2: E: 'J9X' is not ranks"),
        (LINE.replace("AKQJ.7", "AKQJ7"), "line 2: E: 'AKQJ7.J98.A10' is not four suits"),
        (LINE.replace("H7,D7", "H7"), "line 2: prikup 'H7' is not two cards"),
        (LINE.replace("H7,D7", "H7,X7"), "line 2: prikup 'H7,X7' is not two cards"),
        (LINE.replace("H7,D7", "H7,H7"), "line 2: a card is dealt twice: H7"),
        (LINE.replace(".A10 ", ".A ", 1), "line 2: E holds 9 cards, not 10"),
        (LINE + "\n" + LINE, "line 3: session 1, board 1 is also on line 2"),
    ],
)
def test_every_problem_names_its_line(line: str, expected: str) -> None:
    with pytest.raises(DealsInvalid) as caught:
        read_deals(f"{HEADER}\n{line}\n")
    assert any(p.startswith(expected) for p in caught.value.problems), caught.value.problems


def test_the_header_is_required() -> None:
    with pytest.raises(DealsInvalid, match="line 1: the first line must be"):
        read_deals(LINE + "\n")
