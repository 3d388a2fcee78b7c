"""The Olympic bracket by the book (004-II): «Победитель пули (или еще и второй игрок, по регламенту) проходит в
следующий круг соревнований. Остальные игроки выбывают.»"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from preferans.pulka.forms import split_tables
from preferans.pulka.olympic import bracket, extra_needed, going_on, refill, seatable, unseatable


def simulate(players: int, per_table: int, advance: int) -> tuple[list[int], int]:
    """The fields round by round when only table winners go on, with no refill: the rounds whose winners
    could not be seated, and how many times a player who was out would have to come back (refill paths)."""
    flagged, refills, number = [], 0, 1
    while True:
        sizes, byes = split_tables(players, per_table)
        assert byes == 0
        if len(sizes) == 1:
            return flagged, refills
        going = advance * len(sizes)
        if not seatable(going):
            flagged.append(number)
            going += extra_needed(going, len(sizes)) or 0  # the director's decision, never a loser back
        players, number = going, number + 1


def test_остальные_игроки_выбывают_twenty_at_tables_of_four() -> None:
    """«Остальные игроки выбывают»: 20 players at tables of 4, one going on — 5 winners cannot be seated, so round
    1 is flagged with its fixes, and nobody out is brought back (before: a lucky loser of round 2 won)."""
    b = bracket(20, 4, 1)
    first = b.rounds[0]
    assert (first.players, first.tables, first.going_on) == (20, (4, 4, 4, 4, 4), 5)
    assert first.problem is not None and first.problem.code == "five"
    assert (first.fix_advance, first.fix_going_on, first.extra) == (2, 10, 1)
    # with the director's decision (one second-placed), 6 play round 2: two tables of 3 send on 2 — flagged too
    assert [(r.number, r.players, r.going_on) for r in b.rounds] == [(1, 20, 5), (2, 6, 2), (3, 3, 0)]
    assert b.flagged == (1, 2) and b.rounds[-1].final
    # by the regulation, the first two go on in round 1: 10 players, 3 winners, a final of 3, nothing flagged
    by_regulation = bracket(20, 4, lambda n: 2 if n == 1 else 1)
    assert [(r.players, r.going_on) for r in by_regulation.rounds] == [(20, 10), (10, 3), (3, 0)]
    assert by_regulation.flagged == ()


@pytest.mark.parametrize("per_table", [3, 4])
def test_fields_6_to_64_no_refill_and_exactly_the_unseatable_rounds_flagged(per_table: int) -> None:
    """«Остальные игроки выбывают», advance 1, every field 6–64: no refill path at all (nobody out comes back),
    and the bracket flags exactly the rounds whose winners cannot sit at tables of 3–4 (19 fields at tables of
    4 and 35 at tables of 3 have such a round)."""
    with_problem = 0
    for players in range(6, 65):
        flagged, refills = simulate(players, per_table, 1)
        assert refills == 0
        b = bracket(players, per_table, 1)
        assert list(b.flagged) == flagged, players
        for r in b.rounds:
            assert (r.problem is not None) == (not r.final and not seatable(r.going_on))
        with_problem += bool(flagged)
    assert with_problem == {4: 19, 3: 35}[per_table]


def test_regulation_advance_two_per_round() -> None:
    """«или еще и второй игрок, по регламенту»: the regulation's advance per round — 6 players at tables of 3
    with two going on in round 1 make a final of 4; with one, round 1 is flagged (2 winners, no table)."""
    two = bracket(6, 3, lambda n: 2 if n == 1 else 1)
    assert [(r.players, r.tables, r.going_on) for r in two.rounds] == [(6, (3, 3), 4), (4, (4,), 0)]
    one = bracket(6, 3, 1)
    assert one.flagged == (1,) and one.rounds[0].problem is not None
    assert one.rounds[0].problem.code == "too_few" and one.rounds[0].fix_advance == 2


def test_a_decision_counted_in_the_bracket() -> None:
    """The software's choice, the book being silent: a decision of the director sends the second-placed on at
    chosen tables; the bracket counts them (6 at tables of 3, one second-placed: a final of 3)."""
    b = bracket(6, 3, 1, decided={1: 1})
    assert b.flagged == () and [r.going_on for r in b.rounds] == [3, 0]


def test_a_field_that_cannot_sit_at_all() -> None:
    """The software's choice: a registered field of 5 (or 2) cannot be seated at tables of 3–4 by the book;
    the bracket says so instead of giving a bye."""
    assert bracket(5, 4).field_problem == unseatable(5) and bracket(5, 4).rounds == ()
    assert unseatable(2) is not None and unseatable(2).code == "too_few"
    assert unseatable(1) is None and unseatable(7) is None
    assert [n for n in range(1, 20) if not seatable(n)] == [1, 2, 5]
    assert going_on((3,), 1) == 0  # the final sends nobody on
    with pytest.raises(ValueError):
        going_on((3, 3), 3)


def test_lucky_losers_ties_by_lot_not_by_table_number() -> None:
    """Not from the book (the regulation's option only): lucky losers by round rating, equal ratings by lot —
    the seed decides, not the order of the tables."""
    others = {f"t{i}": Fraction(1) for i in range(1, 7)} | {"best": Fraction(5)}
    picks = {tuple(refill(["a", "b"], others, 3, random.Random(seed))) for seed in range(40)}
    assert {("best",)} == picks
    ties = {
        tuple(refill(["a"], others | {"best": Fraction(1)}, 3, random.Random(seed))) for seed in range(40)
    }
    assert len(ties) > 5  # many different pairs: a lot, not the first tables
    again = refill(["a"], others, 3, random.Random(7))
    assert again == refill(["a"], others, 3, random.Random(7))  # the recorded seed repeats it
    assert refill(["a", "b", "c"], others, 3, random.Random(1)) == []
