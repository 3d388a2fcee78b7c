"""Every reason the pulka core gives for refusing a deal reaches a Russian page in Russian."""

from __future__ import annotations

import pytest
from django.utils import translation

from preferans.pulka import PulkaGame, PulkaSetup
from tournaments.refusals import Refusal, refusal_message

RASPASY = {"contract": "-", "declarer": ["E", 2], "w1": ["S", 3], "w2": ["N", 5]}


def problems():
    setup = PulkaSetup.create(
        variant="sochi",
        players=3,
        pool=2,
        first_dealer="N",
        max_deals=3,
        rules={"raspasy_exit": [7], "progression": "arithmetic"},
    )
    game = PulkaGame(setup)
    found = []
    found += game.add({**RASPASY, "board": 1, "colour": "red"})  # pulka_row_field, pulka_unknown_field
    found += game.add({**RASPASY, "raspasy_step": 3})  # raspasy_step_chain
    assert not game.add(RASPASY)
    found += game.add(
        {
            "contract": "6S",
            "declarer": ["S", 6],
            "w1": ["N", 2],
            "w2": ["E", 2],
            "calls": {"N": "whist", "E": "whist"},
            "play": "closed",
        }
    )  # raspasy_exit
    found += game.add(
        {
            **RASPASY,
            "declarer": ["S", 2],
            "w1": ["N", 3],
            "w2": ["E", 5],
            "extra_entries": [{"type": "pool", "seat": "N", "amount": "1/2"}],
        }
    )  # extra_whole
    assert not game.add({"contract": "-", "declarer": ["S", 2], "w1": ["N", 3], "w2": ["E", 5]})
    assert not game.add({"contract": "-", "declarer": ["N", 2], "w1": ["E", 3], "w2": ["S", 5]})
    found += game.add({"contract": "-", "declarer": ["E", 2], "w1": ["S", 3], "w2": ["N", 5]})  # deal_limit
    return found


def test_the_core_reports_each_pulka_code() -> None:
    codes = {p.code for p in problems()}
    assert {
        "pulka_row_field",
        "pulka_unknown_field",
        "raspasy_step_chain",
        "raspasy_exit",
        "extra_whole",
        "deal_limit",
    } <= codes


@pytest.mark.parametrize("language", ["ru"])
def test_every_pulka_refusal_is_translated(language: str) -> None:
    with translation.override(language):
        for p in problems():
            message = refusal_message(Refusal(p.code, p.field, p.message, p.params))
            assert message != p.message, (p.code, message)
            assert not any(word in message for word in ("raspasy", "deal", "pulka")), message
