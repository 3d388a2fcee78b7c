"""The double-dummy solver against the shared positions and, on random endings, against the reference."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from preferans.dd.kernel import KernelSearch
from preferans.dd.position import (
    SEATS,
    TRUMPS,
    Position,
    PositionInvalid,
    legal_moves,
    parse_position,
    parse_positions,
    trick_winner,
)
from preferans.dd.reference import solve_reference
from preferans.dd.solver import Solver, solve
from tests import golden

CASES = golden.load("dd_positions.json")["cases"]


@pytest.mark.parametrize("number", range(1, len(CASES) + 1))
def test_shared_positions(number: int) -> None:
    case = CASES[number - 1]
    position = parse_position(case["position"], number)
    assert solve(position) == case["tricks"]
    assert solve(position, KernelSearch(position.trump, position.declarer, position.goal)) == case["tricks"]
    if position.tricks_left <= 5:
        assert solve_reference(position) == case["tricks"]


def test_a_solver_is_shared_by_positions_of_the_same_rules() -> None:
    positions = [parse_position(case["position"]) for case in CASES]
    solvers: dict[tuple[int, int, str], Solver] = {}
    for position, case in zip(positions, CASES, strict=True):
        rules = (position.trump, position.declarer, position.goal)
        solver = solvers.setdefault(rules, Solver(*rules))
        assert solve(position, solver) == case["tricks"]
    other = next(
        p
        for p in positions
        if (p.trump, p.declarer, p.goal) != (positions[0].trump, positions[0].declarer, positions[0].goal)
    )
    with pytest.raises(ValueError, match="another trump"):
        solve(other, Solver(positions[0].trump, positions[0].declarer, positions[0].goal))


_BITS = {
    s + r: 8 * i + 7 - j
    for i, s in enumerate("SCDH")
    for j, r in enumerate(["A", "K", "Q", "J", "10", "9", "8", "7"])
}


def test_must_trump_without_the_led_suit() -> None:
    hand = 1 << _BITS["C7"] | 1 << _BITS["H8"]
    assert legal_moves(hand, 0, 1) == 1 << _BITS["C7"]  # spade led, clubs trumps: ruff
    assert legal_moves(hand, 0, -1) == hand  # no trumps: any card
    assert legal_moves(hand, 3, 1) == 1 << _BITS["H8"]  # hearts led: follow


def test_trick_winner() -> None:
    assert trick_winner([_BITS["SA"], _BITS["C7"], _BITS["S8"]], 1) == 1
    assert trick_winner([_BITS["S8"], _BITS["D7"], _BITS["SK"]], 1) == 2
    assert trick_winner([_BITS["S8"], _BITS["DA"], _BITS["S7"]], -1) == 0


def test_bad_positions_name_every_problem() -> None:
    with pytest.raises(PositionInvalid) as caught:
        parse_positions(
            [
                {
                    "hands": {"N": "SA", "E": "S7", "S": "S8"},
                    "trump": "NT",
                    "leader": "N",
                    "declarer": "N",
                    "goal": "max",
                },
                {"hands": {"N": "SA", "E": "SA", "X": "S8"}, "trump": "Z", "leader": "W", "goal": "best"},
            ]
        )
    text = "\n".join(caught.value.problems)
    assert all(line.startswith("position 2: ") for line in caught.value.problems)
    for part in (
        "missing key(s) declarer",
        "unknown seat(s) X",
        "SA appears in N and in E",
        "unknown trump 'Z'",
        "unknown goal 'best'",
        "leader W",
    ):
        assert part in text


@st.composite
def endings(draw: st.DrawFn) -> Position:
    size = draw(st.integers(1, 5))
    # Sometimes fewer suits in play, so that voids, ruffs and the obligation to trump come up often.
    suits = draw(st.integers((3 * size + 7) // 8, 4))
    cards = draw(st.permutations(range(8 * suits)))
    absent = draw(st.sampled_from(SEATS))
    seats = tuple(s for s in SEATS if s != absent)
    hands = []
    for i in range(3):
        mask = 0
        for bit in cards[i * size : (i + 1) * size]:
            mask |= 1 << bit
        hands.append(mask)
    trump = TRUMPS.index(draw(st.sampled_from(TRUMPS)))
    return Position(
        seats=(seats[0], seats[1], seats[2]),
        hands=(hands[0], hands[1], hands[2]),
        trump=-1 if trump == 4 else trump,
        leader=draw(st.integers(0, 2)),
        declarer=draw(st.integers(0, 2)),
        goal=draw(st.sampled_from(("max", "min"))),
    )


@settings(max_examples=300, deadline=None)
@given(endings())
def test_fast_solver_agrees_with_the_reference(position: Position) -> None:
    assert solve(position) == solve_reference(position), position.describe()


@settings(max_examples=400, deadline=None)
@given(endings())
def test_compiled_kernel_agrees_with_the_reference(position: Position) -> None:
    """The compiled kernel (numba) against the plain full-tree search, on the same random endings."""
    kernel = KernelSearch(position.trump, position.declarer, position.goal)
    assert solve(position, kernel) == solve_reference(position), position.describe()


def test_compiled_kernel_agrees_with_the_python_solver_on_full_deals() -> None:
    """Ten-card positions are out of the reference's reach; there the two fast solvers check each other."""
    import random

    rng = random.Random(19)
    for _ in range(12):
        cards = rng.sample(range(32), 30)
        hands = tuple(sum(1 << b for b in cards[i * 10 : (i + 1) * 10]) for i in range(3))
        goal = rng.choice(("max", "min"))
        position = Position(
            seats=("N", "E", "S"),
            hands=(hands[0], hands[1], hands[2]),
            trump=-1 if goal == "min" else rng.choice((-1, 0, 1, 2, 3)),
            leader=rng.randrange(3),
            declarer=rng.randrange(3),
            goal=goal,
        )
        kernel = KernelSearch(position.trump, position.declarer, position.goal)
        assert solve(position, kernel) == solve(position), position.describe()
