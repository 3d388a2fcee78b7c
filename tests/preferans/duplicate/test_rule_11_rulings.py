"""The irregularity rulings of seed 004 §11 in the pure core: what is proposed, and how the rows it leaves are
scored (no database). Each test quotes the rule it enforces, in Russian (seed 004) and English."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from preferans.bundle.document import BundleInvalid
from preferans.duplicate.artificial import artificial_bounds, parse_percent, seat_percent_problems
from preferans.duplicate.rulings import propose
from preferans.duplicate.session_scoring import validate_and_score

SEATS = ("N", "E", "S", "W")
PLAYED = {"N": "0"}  # a stored row (its vists do not matter to the proposal)
ROW = {
    "contract": "6S",
    "declarer": ["N", 6],
    "w1": ["E", 2],
    "w2": ["S", 2],
    "calls": {"E": "whist", "S": "whist"},
    "play": "closed",
}


def _bundle(results: list[dict[str, Any]], people: int = 16, **scoring: Any) -> dict[str, Any]:
    return {
        "format": "duplicate-preferans-bundle",
        "version": 1,
        "tournament": {
            "name": "t",
            "variant": "sochi",
            "players_per_table": 4,
            "scoring": {"unequal_results": "neuberg", **scoring},
        },
        "participants": [{"number": n} for n in range(1, people + 1)],
        "sessions": [{"number": 1, "results": results}],
    }


def _row(table: int, rnd: int, seats: list[int], vists: list[int], **extra: Any) -> dict[str, Any]:
    return {
        "board": 1,
        "round": rnd,
        "table": table,
        "dealer": "N",
        "seats": dict(zip(SEATS, seats, strict=True)),
        "assigned": {s: str(v) for s, v in zip(SEATS, vists, strict=True)},
        **extra,
    }


# --- §11.2 B1 -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "minus, average, plus, codes",
    [
        (40, 50, 60, []),  # the book's own values
        (40, 50, 75, []),  # A+ above 60 %: the organisers' choice («по меньшей мере»)
        (40, 50, 100, []),
        (30, 50, 60, ["artificial_minus_fixed"]),  # A- is 40 %, not less
        (41, 50, 60, ["artificial_minus_fixed"]),  # nor more
        (40, 45, 60, ["artificial_average_fixed"]),  # A is 50 %
        (40, 55, 60, ["artificial_average_fixed"]),
        (40, 50, 59, ["artificial_plus_low"]),  # A+ below 60 %
        (
            45,
            50,
            55,
            ["artificial_minus_fixed", "artificial_plus_low"],
        ),
        (40, 50, 101, ["artificial_range"]),
    ],
)
def test_rule_11_2_B1_artificial_result_bounds(minus, average, plus, codes):
    """§11.2 Б.1: «40% от макса (средний минус) для безусловно виновной стороны; 50% (среднее) для частично
    виновной стороны; и по меньшей мере 60% (средний плюс) для невиновной стороны» — 40 % of the top for the side at
    fault, 50 % for a side partly at fault, at least 60 % for the non-offending side. A− and A are fixed by the
    book; only A+ («по меньшей мере 60%») is the organisers' setting."""
    problems = artificial_bounds({"A-": minus, "A": average, "A+": plus})
    assert [p.code for p in problems] == codes


@pytest.mark.parametrize(
    "artificial, percent, codes",
    [
        ({"A-": 40, "A": 50, "A+": 60}, {"N": 75}, []),
        ({"A-": 40, "A": 50, "A+": 60}, {"N": 59}, ["percent N: a non-offender gets at least 60 %"]),
        (
            {"A-": 40, "A": 50, "A+": 60},
            {"E": 70},
            ["only a non-offender's artificial result (A+) may be raised"],
        ),
        ({"A-": 40, "A": 50, "A+": 65}, {"N": 62}, ["gets at least 65 %"]),
    ],
)
def test_rule_11_2_B1_a_non_offender_may_get_more_than_A_plus(artificial, percent, codes):
    """§11.2 Б.1: «и по меньшей мере 60% (средний плюс) для невиновной стороны» — at least 60 %: the director may
    give a non-offender more (his session percentage, say), never less, and only a non-offender."""
    rows = [
        _row(1, 1, [1, 2, 3, 4], [10, -5, -5, 0]),
        _row(2, 2, [5, 6, 7, 8], [4, -2, -2, 0]),
        {**_row(3, 3, [9, 10, 11, 12], [0, 0, 0, 0]), "assigned": None},
    ]
    del rows[2]["assigned"]
    rows[2]["adjusted"] = {"N": "A+", "E": "A-", "S": "A", "W": "A+"}
    rows[2]["percent"] = {k: str(v) for k, v in percent.items()}
    data = _bundle(rows, artificial=artificial)
    if not codes:
        _bundle_obj, scored = validate_and_score(data)
        result = scored.sessions[0].results[2]
        assert result.matchpoints["N"] == Fraction(75, 100) * result.top["N"]
        assert (
            result.matchpoints["W"] == Fraction(60, 100) * result.top["W"]
        )  # the other A+ keeps the tournament's
        return
    with pytest.raises(BundleInvalid) as exc:
        validate_and_score(data)
    assert any(code in str(p) for p in exc.value.problems for code in codes), exc.value.problems


def test_rule_11_2_B1_bundle_refuses_artificial_percentages_outside_the_book():
    """§11.2 Б.1 «по меньшей мере 60%»: a bundle whose A+ is 55 % is refused, with the rule named."""
    with pytest.raises(BundleInvalid, match="A\\+ is at least 60 %"):
        validate_and_score(_bundle([_row(1, 1, [1, 2, 3, 4], [1, 0, 0, -1])], artificial={"A+": 55}))


def test_percentages_read_as_written():
    assert [parse_percent(x) for x in ("65", "62.5", "62,5", "125/2", 70)] == [
        65,
        Fraction(125, 2),
        Fraction(125, 2),
        Fraction(125, 2),
        70,
    ]
    with pytest.raises(ValueError):
        parse_percent("lots")
    assert seat_percent_problems({"N": Fraction(101)}, adjusted=None, artificial={}, seats=SEATS)[0].code == (
        "percent_range"
    )


# --- §11.3 C --------------------------------------------------------------------------------------------------


def test_rule_11_3_C_the_annulled_offender_gets_the_artificial_A_minus():
    """§11.3 В: «результат должен быть аннулирован. Но возможно сохранение результата ненарушивших игроков, если
    его получение не зависело от игры оппонентов» — the result is annulled, but the non-offenders' result may be
    kept. The offender's annulled result leaves him none reached naturally, so §11.2 Б.1 applies: «40% от макса
    (средний минус) для безусловно виновной стороны» (a side partly at fault: «50% (среднее)»). The book does not
    name the offender's result here: A− is the software's reading, as when the whole row is annulled."""
    p = propose(
        "wrong_cards",
        board=2,
        seats=SEATS,
        fault={"E": "offending", "W": "partly"},
        facts={"play_completed": True, "keep_non_offenders": True},
        current_vists=PLAYED,
        percentages={"A-": Fraction(40), "A": Fraction(50), "A+": Fraction(60)},
    )
    assert p.code == "wrong_cards_keep"
    assert [(c.kind, dict(c.values)) for c in p.changes] == [("row", {"percent": {"E": "40", "W": "50"}})]
    everything = propose(
        "wrong_cards",
        board=2,
        seats=SEATS,
        fault={"E": "offending", "W": "partly"},
        facts={"play_completed": True},
        current_vists=PLAYED,
        percentages={"A-": Fraction(40), "A": Fraction(50), "A+": Fraction(60)},
    )
    # The whole row annulled: the offender gets A- there too; keeping the others' result does not worsen his.
    assert everything.code == "wrong_cards_completed"
    assert dict(everything.changes[0].values)["E"] == "A-"
    # Scored: E earns 40 % on the row and leaves the E line's comparison; N and S keep their vists, compared.
    rows = [
        _row(1, 1, [1, 2, 3, 4], [10, 30, -5, -35], percent={"E": "40", "W": "50"}),
        _row(2, 2, [5, 6, 7, 8], [4, -2, -2, 0]),
        _row(3, 3, [9, 10, 11, 12], [2, 5, -7, 0]),
    ]
    _b, scored = validate_and_score(_bundle(rows))
    first, second, third = scored.sessions[0].results
    assert first.matchpoints["E"] == Fraction(8, 5) and first.top["E"] == 4  # 40 % of the top 4
    assert first.matchpoints["W"] == 2  # 50 % of the top 4
    assert first.matchpoints["N"] == 4  # 10 beats 4 and 2: compared normally
    # The E line is the two other rows, scaled to three results (Neuberg: (mp + 1) · 3/2 − 1): 5 beats -2.
    assert (second.matchpoints["E"], third.matchpoints["E"]) == (Fraction(1, 2), Fraction(7, 2))


# --- §11.4 ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "found, code, words",
    [
        ("hand", "missing_card_restored", "deemed always to have belonged"),
        ("not_found", "missing_card_not_found", "reconstructs the layout as far as possible on another deck"),
    ],
)
def test_rule_11_4_missing_card_wording(found, code, words):
    """§11.4 А.2/Б.2: «Карта не найдена. Судья реконструирует расклад, насколько это возможно, заменяя колоду»;
    Б.3: «Карта, возвращенная в руку ... считается всегда принадлежавшей той руке, в которой не хватало карт» — a
    card not found: the layout is reconstructed on another deck; a card found: deemed always to have belonged to
    the short hand."""
    p = propose("missing_card", board=2, seats=SEATS, fault={}, facts={"found": found})
    assert p.code == code and words in p.text and not p.changes


# --- §11.6 ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "current, facts, code, changes",
    [
        (
            None,
            {"row": ROW},
            "wrong_board_stands",
            [("row", ROW)],
        ),  # the table could not store it: the ruling does
        (PLAYED, {}, "wrong_board_stands", []),  # already stored: it simply stands
        (None, {}, "wrong_board_stands_enter", []),  # no row yet: the director is asked for it
    ],
)
def test_rule_11_6_A1_result_stands_when_nobody_played_it(current, facts, code, changes):
    """§11.6 А.1: «Судья обычно разрешает держать результат, если никто из игроков ранее не играл эту сдачу» —
    the director lets the result stand if nobody had played the deal before: the row is stored and compared."""
    p = propose(
        "wrong_board",
        board=9,
        seats=SEATS,
        fault={},
        facts={"played_before": [], **facts},
        current_vists=current,
        round=4,
    )
    assert p.code == code
    assert [(c.kind, dict(c.values)) for c in p.changes] == changes


@pytest.mark.parametrize(
    "this_round, other, stored, expected",
    [
        # this row is the later one: the repeater's seat is annulled here, the other three keep theirs
        (
            4,
            {"seat": "N", "round": 1, "table": 1, "seat_there": "E"},
            True,
            [("row", None, {"annulled": ["N"]})],
        ),
        # filed on the earlier row: the later row (round 4, room 2) is the second, whichever row was opened
        (
            1,
            {"seat": "N", "round": 4, "table": 3, "room": 2, "seat_there": "E"},
            True,
            [("row", (3, 4, 2), {"annulled": ["E"]})],
        ),
        # ... and the earlier row, refused at the table, is stored as played
        (
            1,
            {"seat": "N", "round": 4, "table": 3, "seat_there": "E"},
            False,
            [("row", (3, 4, 1), {"annulled": ["E"]}), ("row", None, ROW)],
        ),
        # the later row not stored: stored with the repeater annulled
        (
            4,
            {"seat": "S", "round": 2, "table": 5, "seat_there": "S"},
            False,
            [("row", None, {**ROW, "annulled": ["S"]})],
        ),
    ],
)
def test_rule_11_6_B_only_the_repeaters_second_result_is_annulled(this_round, other, stored, expected):
    """§11.6 Б: «Если один из игроков играет сдачу, которую он играл ранее ..., его второй результат в сдаче
    аннулируется» — if a player plays a deal he had played before, HIS second result (by time of play) is annulled;
    the other players at that table keep theirs."""
    p = propose(
        "wrong_board",
        board=1,
        seats=SEATS,
        fault={"N": "offending"},
        facts={"other_rows": [other], "row": ROW},
        current_vists=PLAYED if stored else None,
        round=this_round,
    )
    assert p.code == "wrong_board_annul"
    got = [
        (c.kind, None if c.table is None else (c.table, c.round, c.room), dict(c.values)) for c in p.changes
    ]
    assert got == expected


def test_rule_11_6_B_the_others_are_compared_and_the_repeater_scores_nothing():
    """§11.6 Б: «его второй результат в сдаче аннулируется» — the repeater's second result is annulled: he earns
    nothing and it counts in nobody's comparison on his line; the other three players are compared normally. The
    bundle accepts the repeat only when it is annulled."""
    first = _row(1, 1, [1, 2, 3, 4], [10, -5, -5, 0])
    rows = [first, _row(2, 2, [5, 6, 7, 8], [4, -2, -2, 0]), _row(3, 3, [1, 10, 11, 12], [20, 5, 7, -32])]
    with pytest.raises(BundleInvalid, match="participant 1 already played this board"):
        validate_and_score(_bundle(rows))
    rows[2]["annulled"] = ["N"]
    _b, scored = validate_and_score(_bundle(rows))
    one, two, three = scored.sessions[0].results
    assert (three.matchpoints["N"], three.top["N"]) == (0, 0)  # nothing earned, nothing counted
    # The N line: 10 and 4 only (scaled to three results): 20 would otherwise have beaten both.
    assert (one.matchpoints["N"], two.matchpoints["N"]) == (Fraction(7, 2), Fraction(1, 2))
    # E, S, W: all three rows compared (7 beats -5 and -2 on the S line).
    assert three.matchpoints["S"] == 4 and three.top["S"] == 4
    standings = {s.participant: s for s in scored.standings}
    assert standings[1].max == one.top["N"]  # his annulled second result adds nothing to his max


def test_rule_11_6_B_annulled_seats_are_checked():
    """An annulled seat must be at the table, and not every seat (then the row is deleted instead)."""
    rows = [_row(1, 1, [1, 2, 3, 4], [1, 0, 0, -1], annulled=["N", "E", "S", "W"])]
    with pytest.raises(BundleInvalid, match="every seat's result cannot be annulled"):
        validate_and_score(_bundle(rows))
