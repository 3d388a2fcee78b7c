"""Code 4.2.4, 4.2.7, 4.2.10: the penalty for a wrong entry is what the player added in his own favour.

Code 4.2.7: «штраф за приписку должен равняться величине приписки» — "the penalty for an overstatement equals
the overstatement"; а) «Если вы записали на партнёра вистов больше, чем следовало … партнёр может написать на вас
столько, сколько вы на него незаслуженно приписали»; б) «Если игрок приписал себе лишние очки в пулю, то столько
же очков (в виде штрафа) он должен написать в гору». Code 4.2.10: «Не сделанная вовремя запись (забытая) может
быть сделана не позднее окончания торговли в следующей сдаче» — a forgotten entry is written late, no penalty.
Code 4.2.4: «Каждый игрок сам ведёт запись результатов своей игры» — so the player who gains answers.

Sochi, 3 players, pool 30: a six costs 2, whist 2 per trick, consolation 2 per undertrick.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from preferans.pulka import PulkaGame, PulkaSetup
from preferans.pulka.corrections import writing_penalties

SETUP = PulkaSetup.create(variant="sochi", players=3, pool=30, first_dealer="N")
BOTH = {"calls": {"E": "whist", "S": "whist"}, "play": "closed"}


def six(n: int, e: int, s: int, calls: dict[str, Any] = BOTH, **extra: Any) -> dict[str, Any]:
    return {"contract": "6S", "declarer": ["N", n], "w1": ["E", e], "w2": ["S", s], **calls, **extra}


def cost(row: dict[str, Any], entries: list[dict[str, object]]) -> dict[str, Fraction]:
    """What the extra entries cost each player in vists: the settlement with them minus without them."""
    plain, punished = PulkaGame(SETUP), PulkaGame(SETUP)
    assert not plain.add(row) and not punished.add({**row, "extra_entries": entries})
    a, b = plain.score().settlement, punished.score().settlement
    return {seat: b[seat] - a[seat] for seat in SETUP.seats}


def test_pool_points_written_to_himself_go_on_his_mountain_and_nothing_else() -> None:
    """4.2.7 б «Если игрок приписал себе лишние очки в пулю, то столько же очков … он должен написать в гору»:
    N wrote his six made; he went down one. He added 2 pool points in his favour: 2 on his mountain. The
    mountain and the consolation he left off are written late without penalty (4.2.10) — issue 28: the old
    reading charged them too, 32.7 vists where the Code gives 13.3."""
    written, corrected = six(6, 2, 2), six(5, 3, 2)
    penalties = writing_penalties(SETUP, 1, written, corrected)
    assert penalties == {"N": [{"type": "mountain", "seat": "N", "amount": 2}]}
    assert cost(corrected, penalties["N"])["N"] == Fraction(-40, 3)  # 13.3 vists
    # the old reading: pool 2 + omitted mountain 2 on the mountain, and the omitted whists (E 4, S 2) on him
    old = [
        {"type": "mountain", "seat": "N", "amount": 4},
        {"type": "whist", "from": "E", "to": "N", "amount": 4},
        {"type": "whist", "from": "S", "to": "N", "amount": 2},
    ]
    assert cost(corrected, old)["N"] == Fraction(-98, 3)  # 32.7 vists: the figure of issue 28


def test_whists_written_on_a_partner_beyond_the_due_are_written_back_by_each_who_gained() -> None:
    """4.2.7 а «партнёр может написать на вас столько, сколько вы на него незаслуженно приписали»: the row said
    N went down one; he made his six. E wrote 4 whists too many on N (a trick and its consolation), S 2 (the
    consolation): each answers for his own entry (4.2.4); N, who lost by the row, answers for nothing."""
    penalties = writing_penalties(SETUP, 1, six(5, 3, 2), six(6, 2, 2))
    assert penalties == {
        "E": [{"type": "whist", "from": "N", "to": "E", "amount": 4}],
        "S": [{"type": "whist", "from": "N", "to": "S", "amount": 2}],
    }


def test_forgotten_whists_are_written_late_without_penalty() -> None:
    """4.2.10 «Не сделанная вовремя запись (забытая) может быть сделана»: the row left off E's whist (written as
    a six nobody whisted); the correction adds E's whists and gives nobody a penalty."""
    written = six(10, 0, 0, {"calls": {"E": "pass", "S": "pass"}, "play": "none"})
    corrected = six(6, 3, 1, {"calls": {"E": "whist", "S": "pass"}, "play": "open"})
    assert writing_penalties(SETUP, 1, written, corrected) == {}


def test_a_right_row_gives_no_penalty() -> None:
    """4.2.7: no «приписка», no penalty (the same row written twice)."""
    assert writing_penalties(SETUP, 1, six(6, 2, 2), six(6, 2, 2)) == {}


def test_split_whists_each_answers_for_his_half() -> None:
    """4.2.7 а with the gentleman's whist «висты пишутся пополам» (3.8.14): the row said N went down two, he went
    down one. Each defender wrote 3 whists too many on N (half a trick's whists and a consolation): each answers
    for his own (4.2.4). A row whose sums do not change adds nothing, so it punishes nobody."""
    gentleman = PulkaSetup.create(
        variant="sochi", players=3, pool=30, first_dealer="N", rules={"whist_mode": "gentleman"}
    )
    one = {"calls": {"E": "whist", "S": "pass"}, "play": "open"}
    written, corrected = six(5, 3, 2, one), six(5, 4, 1, one)
    assert writing_penalties(gentleman, 1, written, corrected) == {}  # the same sums: nothing added
    assert writing_penalties(gentleman, 1, six(4, 3, 3, one), six(5, 3, 2, one)) == {
        "E": [{"type": "whist", "from": "N", "to": "E", "amount": 3}],
        "S": [{"type": "whist", "from": "N", "to": "S", "amount": 3}],
    }
