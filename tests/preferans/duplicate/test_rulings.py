"""What the rules prescribe, one row per case (pure, no database)."""

from __future__ import annotations

import pytest

from preferans.duplicate.rulings import grades_by_fault, propose

SEATS = ("N", "E", "S", "W")
FAULT = {"E": "offending", "W": "partly"}
GRADES = {"N": "A+", "E": "A-", "S": "A+", "W": "A"}


def kinds(p):
    return [c.kind for c in p.changes]


@pytest.mark.parametrize(
    "kind, facts, rule, code, changes",
    [
        ("wrong_cards", {"call_made": True}, "§11.3", "wrong_cards_call", ["artificial"]),
        ("wrong_cards", {}, "§11.3", "wrong_cards_repaired", []),
        ("wrong_cards", {"seen": True}, "§11.3", "wrong_cards_seen", ["artificial"]),
        (
            "wrong_cards",
            {"seen": True, "insignificant": True, "consent": True},
            "§11.3",
            "wrong_cards_repaired",
            [],
        ),
        ("wrong_cards", {"seen": True, "insignificant": True}, "§11.3", "wrong_cards_seen", ["artificial"]),
        ("wrong_cards", {"play_completed": True}, "§11.3", "wrong_cards_completed", ["artificial"]),
        (
            "wrong_cards",
            {"play_completed": True, "keep_non_offenders": True},
            "§11.3",
            "wrong_cards_keep",
            ["row"],
        ),
        ("missing_card", {"found": "hand"}, "§11.4", "missing_card_restored", []),
        ("missing_card", {"found": "played", "version": "B"}, "§10", "missing_card_played", ["version"]),
        ("defective_trick", {}, "§11.5", "defective_trick", []),
        ("wrong_board", {"played_before": []}, "§11.6", "wrong_board_stands", []),
        ("wrong_board", {"played_before": ["S"]}, "§11.6", "wrong_board_annul", ["row"]),
        (
            "wrong_board",
            {"played_before": ["S"], "intended_board": 7},
            "§11.6",
            "wrong_board_annul",
            ["row", "artificial"],
        ),
        ("wrong_hand", {}, "§11.7", "wrong_hand", ["artificial"]),
        ("fouled", {"version": "B"}, "§10", "fouled", ["version"]),
        ("fouled", {"version": "A"}, "§10", "fouled_same", []),
        (
            "procedural",
            {"penalty_participant": 3, "penalty_matchpoints": "-1"},
            "§12",
            "procedural",
            ["penalty"],
        ),
        ("director_error", {}, "§13.2.6", "director_error", ["artificial"]),
        ("other", {}, "§11.2", "other", []),
        ("other", {"remedy": "artificial"}, "§11.2", "override_artificial", ["artificial"]),
        ("wrong_hand", {"remedy": "none"}, "§11.7", "override_none", []),
        ("other", {"remedy": "assigned", "assigned": {"N": "5"}}, "§11.2", "override_assigned", ["assigned"]),
    ],
)
def test_proposals(kind, facts, rule, code, changes):
    p = propose(kind, board=4, seats=SEATS, fault=FAULT, facts=facts, current_vists={s: "0" for s in SEATS})
    assert (p.rule, p.code, kinds(p)) == (rule, code, changes)


def test_fault_grades_follow_11_2():
    assert grades_by_fault(SEATS, FAULT) == GRADES
    p = propose("wrong_hand", board=4, seats=SEATS, fault=FAULT, facts={})
    assert dict(p.changes[0].values) == GRADES


def test_director_error_treats_all_as_non_offending():
    p = propose("director_error", board=4, seats=SEATS, fault=FAULT, facts={})
    assert dict(p.changes[0].values) == dict.fromkeys(SEATS, "A+")


def test_wrong_board_artificial_goes_to_the_intended_board():
    p = propose(
        "wrong_board",
        board=4,
        seats=SEATS,
        fault=FAULT,
        facts={"played_before": ["N"], "intended_board": 9},
        current_vists={s: "0" for s in SEATS},
    )
    assert [(c.kind, c.board) for c in p.changes] == [("row", 4), ("artificial", 9)]
    assert p.changes[0].values == {"annulled": ["N"]}


def test_a_penalty_rides_along():
    p = propose(
        "wrong_hand",
        board=4,
        seats=SEATS,
        fault=FAULT,
        facts={"penalty_participant": "6", "penalty_matchpoints": "-2"},
    )
    assert kinds(p) == ["artificial", "penalty"] and p.changes[1].participant == 6
