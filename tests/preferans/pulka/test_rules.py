"""The pulka's parameters and the rules a row breaks only inside a game (pulka §2.2, §6, §7, §11)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from preferans.pulka import PulkaGame, PulkaInvalid, PulkaSetup, SetupError, play_pulka
from preferans.pulka.document import read_pulka
from tests import golden

CASES = {c["id"]: c for c in golden.load("pulka_vectors.json")["cases"]}


def pulka(case: str) -> dict[str, Any]:
    data: dict[str, Any] = copy.deepcopy(CASES[case]["input"])
    return data


def problems(doc: dict[str, Any]) -> list[str]:
    with pytest.raises(PulkaInvalid) as caught:
        document = read_pulka(doc)
        play_pulka(document.setup, document.rows, stopped=document.stopped)
    return [str(p) for p in caught.value.problems]


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        ({"pool_weight": 2}, "rules.pool_weight"),
        ({"price_6": "5/2"}, "rules.price_6"),
        ({"raspasy_exit": []}, "rules.raspasy_exit"),
        ({"raspasy_exit": [5]}, "rules.raspasy_exit"),
        ({"raspasy_exit": [6, True]}, "rules.raspasy_exit"),
        ({"nonsense": 1}, "rules"),
    ],
)
def test_rules_keys_refused(rules: dict[str, object], field: str) -> None:
    with pytest.raises(SetupError) as caught:
        PulkaSetup.create(variant="sochi", players=3, pool=10, first_dealer="N", rules=rules)
    assert caught.value.field == field


def test_rostov_refuses_amnesty() -> None:
    """Code fn46: Rostov raspasy has no amnesty."""
    with pytest.raises(SetupError):
        PulkaSetup.create(variant="rostov", players=4, pool=10, first_dealer="N", rules={"amnesty": True})


def test_rostov_raspasy_progression_is_the_organisers_agreed_option() -> None:
    """Code 3.7.4 «Если распасовка случается несколько раз подряд, то, по предварительной договоренности между
    игроками, цена за одну взятку может увеличиваться» is general: Rostov may agree on it too. The software's
    reading: Rostov raspasy are whists (3.7.2.2), so the step multiplies the whist price of a trick (1-2-3)."""
    setup = PulkaSetup.create(
        variant="rostov", players=3, pool=10, first_dealer="N", rules={"progression": "arithmetic"}
    )
    game = PulkaGame(setup)
    assert not game.add({"contract": "-", "declarer": ["E", 2], "w1": ["S", 3], "w2": ["N", 5]})
    assert not game.add({"contract": "-", "declarer": ["S", 2], "w1": ["N", 3], "w2": ["E", 5]})
    first, second = (d.ledger.whists for d in game.deals)
    assert [d.raspasy_step for d in game.deals] == [1, 2]
    r = setup.rules.raspasy_price  # whists per trick at step 1 (Rostov: 5)
    assert first == {("E", "N"): r * 5, ("E", "S"): r * 3}
    assert second == {("S", "N"): 2 * r * 3, ("S", "E"): 2 * r * 5}  # step 2: twice the price


@pytest.mark.parametrize(
    ("change", "mentions"),
    [
        ({"pool": 0}, "pool"),
        ({"pool": 2.5}, "pool"),
        ({"max_deals": 0}, "max_deals"),
        ({"first_dealer": "W"}, "first_dealer"),
        ({"tiebreaks": ["remizes", "remizes"]}, "tiebreaks"),
        ({"tiebreaks": ["luck"]}, "tiebreaks"),
        ({"olympic": {"advance": 3}}, "olympic"),
        ({"compensation": {"x": 1.5, "y": 0}}, "compensation"),
        ({"format": "preferans-bundle"}, "format"),
        ({"version": 2}, "version"),
        ({"extra": 1}, "extra"),
        ({"stopped": "yes"}, "stopped"),
    ],
)
def test_top_level_refusals_name_the_field(change: dict[str, Any], mentions: str) -> None:
    doc = pulka("V04")
    doc.update(change)
    assert any(line.startswith(mentions) for line in problems(doc))


def test_players_on_the_wrong_seats() -> None:
    doc = pulka("V04")
    doc["players"][2]["seat"] = "W"
    assert any("players" in line for line in problems(doc))


@pytest.mark.parametrize("key", ["board", "dealer", "seats", "adjusted", "version", "colour"])
def test_row_fields_a_pulka_does_not_have(key: str) -> None:
    doc = pulka("V04")
    doc["deals"][1][key] = 1
    assert any(line.startswith("deal 2:") and key in line for line in problems(doc))


def test_every_bad_deal_is_reported_with_its_number() -> None:
    doc = pulka("V07")
    doc["deals"][1]["w2"] = ["E", 9]  # tricks total 14
    doc["deals"][3]["raspasy_step"] = 2  # the fourth raspasy has step 3 (cap 3)
    lines = problems(doc)
    assert any(line.startswith("deal 2:") for line in lines)
    assert any(line.startswith("deal 4:") and "step is 3" in line for line in lines)


def test_deal_limit_refuses_more_deals() -> None:
    doc = pulka("V10")
    doc["deals"].append(doc["deals"][0])
    assert any(line.startswith("deal 3:") and "limit" in line for line in problems(doc))


def test_misere_after_raspasy_only_when_the_exit_is_eight_or_less() -> None:
    setup = PulkaSetup.create(
        variant="sochi", players=3, pool=10, first_dealer="N", rules={"raspasy_exit": [9]}
    )
    game = PulkaGame(setup)
    assert not game.add({"contract": "-", "declarer": ["E", 2], "w1": ["S", 3], "w2": ["N", 5]})
    misere = {"contract": "MIS", "declarer": ["S", 0], "w1": ["N", 5], "w2": ["E", 5], "play": "open"}
    refused = game.add(misere)
    assert refused and refused[0].code == "raspasy_exit"
    assert len(game.deals) == 1  # nothing was written
    ladder = PulkaSetup.create(
        variant="sochi", players=3, pool=10, first_dealer="N", rules={"raspasy_exit": [8]}
    )
    game = PulkaGame(ladder)
    game.add({"contract": "-", "declarer": ["E", 2], "w1": ["S", 3], "w2": ["N", 5]})
    assert not game.add(misere)


def test_in_progress_gives_the_next_dealer_and_the_exit() -> None:
    setup = PulkaSetup.create(
        variant="sochi", players=4, pool=10, first_dealer="S", rules={"raspasy_exit": [7, 8]}
    )
    game = PulkaGame(setup)
    assert game.add({"contract": "-", "declarer": ["W", 2], "w1": ["N", 3], "w2": ["E", 5]}) == ()
    score = game.score()
    assert score.reason == "in_progress" and not score.ended
    assert score.next_deal is not None
    assert (score.next_deal.number, score.next_deal.dealer, score.next_deal.first_hand) == (2, "W", "N")
    assert score.next_deal.exit_minimum == 7
