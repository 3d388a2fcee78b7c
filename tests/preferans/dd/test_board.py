"""Whole boards (formats.md §8.2): the best discard of two from twelve for each strain and misère, checked against
every discard solved one by one; equivalent discards; the board form's problems (§8.3)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from preferans.cards.deck import DECK, format_hand
from preferans.dd.board import (
    KEYS,
    STRAINS,
    analyse_board,
    analysis_json,
    distinct_discards,
    parse_boards,
)
from preferans.dd.kernel import KernelSearch
from preferans.dd.position import NO_TRUMP, Position, PositionInvalid, mask_cards
from preferans.dd.solver import solve


def random_board(seed: int, players: int, dealer: str, number: int = 1) -> dict[str, object]:
    rng = random.Random(seed)
    cards = list(DECK)
    rng.shuffle(cards)
    seats = [s for s in "NESW" if s != dealer] if players == 4 else ["N", "E", "S"]
    return {
        "number": number,
        "dealer": dealer,
        "players": players,
        "hands": {s: format_hand(cards[10 * i : 10 * i + 10]) for i, s in enumerate(seats)},
        "prikup": [c.notation for c in cards[30:]],
    }


@pytest.mark.parametrize(("seed", "players", "dealer"), [(3, 4, "E"), (11, 3, "S")])
def test_every_key_is_the_best_over_all_66_discards(seed: int, players: int, dealer: str) -> None:
    """The analysis (one solver per strain, equivalent discards once, null-window questions after the first) gives
    the same value as solving each of the 66 discards exactly, and its discard achieves that value."""
    board = parse_boards([random_board(seed, players, dealer)])[0]
    result = analyse_board(board, KernelSearch)
    for seat in range(3):
        twelve = board.hands[seat] | board.prikup
        analysis = result[board.seats[seat]]
        for key in KEYS:
            trump = STRAINS.index(key) if key in ("S", "C", "D", "H") else NO_TRUMP
            goal = "min" if key == "misere" else "max"
            search = KernelSearch(trump, seat, goal)

            def value(
                pair: tuple[int, ...],
                seat: int = seat,
                goal: str = goal,
                search: KernelSearch = search,
                twelve: int = twelve,
                trump: int = trump,
            ) -> int:
                hands = list(board.hands)
                hands[seat] = twelve & ~(1 << pair[0]) & ~(1 << pair[1])
                position = Position(
                    board.seats, (hands[0], hands[1], hands[2]), trump, board.first, seat, goal
                )
                return solve(position, search)

            bits = [b for b in range(32) if twelve >> b & 1]
            values = [value(pair) for pair in combinations(bits, 2)]
            best = max(values) if goal == "max" else min(values)
            assert analysis.tricks[key] == best, (board.seats[seat], key)
            assert value(analysis.discards[key]) == best


def test_equivalent_discards_are_tried_once() -> None:
    # SAKQ in one hand with nothing of another hand between: discarding SA or SQ is the same
    hand = parse_boards([random_board(1, 4, "W")])[0].hands[0]
    pairs = distinct_discards(hand)
    assert len(pairs) == len(set(pairs)) <= 45
    every = {frozenset(p) for p in combinations([b for b in range(32) if hand >> b & 1], 2)}
    assert {frozenset(p) for p in pairs} <= every
    three_tops = (1 << 31) | (1 << 30) | (1 << 29)  # HA HK HQ, the rest of the deck elsewhere
    assert distinct_discards(three_tops) == [(29, 30)]


def test_output_form_of_formats_8_2() -> None:
    given = random_board(5, 3, "E", number=7)
    board = parse_boards([given])[0]
    out = analysis_json(board, analyse_board(board, KernelSearch))
    assert out["number"] == 7 and set(out) == {"number", "seats"}
    seats = out["seats"]
    assert isinstance(seats, dict) and set(seats) == {"N", "E", "S"}
    for seat, value in seats.items():
        assert set(value) == {*KEYS, "discards"}
        assert all(isinstance(value[k], int) and 0 <= value[k] <= 10 for k in KEYS)
        twelve = {c.notation for c in mask_cards(board.hands[board.seats.index(seat)] | board.prikup)}
        for key in KEYS:
            pair = value["discards"][key]
            assert len(pair) == 2 and set(pair) <= twelve
    del given["number"]
    assert "number" not in analysis_json(parse_boards([given])[0], analyse_board(board, KernelSearch))


def test_first_lead_by_the_first_hand() -> None:
    """4 players: the seat after the dealer leads; 3 players: the dealer's seat is the first hand and leads."""
    four = parse_boards([random_board(2, 4, "S")])[0]
    assert four.seats == ("N", "E", "W") and four.seats[four.first] == "W"
    three = parse_boards([random_board(2, 3, "E")])[0]
    assert three.seats == ("N", "E", "S") and three.seats[three.first] == "E"


BAD = {
    "not an object": (["x"], "not an object"),
    "missing key": (["missing"], "missing key(s) prikup"),
    "unknown key": ({"deal": 1}, "unknown key(s) deal"),
    "players": ({"players": 5}, "players must be 3 or 4"),
    "dealer": ({"dealer": "X"}, "unknown dealer"),
    "3-player dealer W": ({"players": 3, "dealer": "W"}, "the dealer is N, E or S"),
    "hands of another seat": ({"dealer": "N"}, "hands must be those of E, S, W"),
    "card count": ({"prikup": ["H7"]}, "the prikup holds 1 cards, not 2"),
    "unknown card": ({"prikup": ["H7", "X1"]}, "prikup"),
    "duplicate": ({"prikup": ["H7", "H7"]}, "appears"),
}


@pytest.mark.parametrize("name", BAD)
def test_every_problem_names_the_board(name: str) -> None:
    change, expected = BAD[name]
    good = random_board(4, 4, "W", number=12)
    if change == ["missing"]:
        item = {k: v for k, v in good.items() if k != "prikup"}
    else:
        item = change[0] if isinstance(change, list) else {**good, **change}
    with pytest.raises(PositionInvalid) as info:
        parse_boards([good, item])
    assert any(p.startswith("board 2") and expected in p for p in info.value.problems), info.value.problems


def test_not_a_list_and_short_hands() -> None:
    with pytest.raises(PositionInvalid, match="JSON list of boards"):
        parse_boards({"boards": []})
    good = random_board(4, 4, "W")
    hands = dict(good["hands"])  # type: ignore[call-overload]
    hands["N"] = hands["N"].rsplit(" ", 1)[0]
    with pytest.raises(PositionInvalid) as info:
        parse_boards([{**good, "hands": hands}])
    assert any("not 10" in p for p in info.value.problems)
