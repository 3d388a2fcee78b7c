"""The typed command of the row write path: what cannot be asked at all is refused as the command is built."""

from __future__ import annotations

import dataclasses

import pytest
from django.utils import translation

from scoring.models import Result
from scoring.row_command import (
    ArtificialAdjustment,
    AssignedAdjustment,
    PlayedRow,
    RowCommand,
    RowPlace,
    RowWriting,
    row_content,
)
from tournaments.errors import UserError
from tournaments.models import Session
from tournaments.refusals import ResultRejected

GRADES = {"N": "A", "E": "A", "S": "A", "W": "A"}


def test_a_correction_says_why_in_the_players_language():
    for reason in ("", "   "):
        with translation.override("ru"), pytest.raises(UserError) as refused:
            RowWriting(correction=True, reason=reason)
        assert refused.value.code == "reason_missing"
        assert refused.value.message == "Укажите, почему меняется результат (это попадёт в журнал)."
    assert RowWriting(correction=True, reason="typo").reason == "typo"
    assert RowWriting(reason="").correction is False  # a new row need not say why


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"revision": 3}, "a revision read belongs to a correction"),
        ({"correction": True, "reason": "x", "idempotency_key": "k"}, "an idempotency key is a new row's"),
        ({"confirmations": [("E", "2 Petrov")]}, "confirmations come with a row a player entered"),
        (
            {"status": Result.Status.ENTERED, "confirmations": [("E", "2 Petrov"), ("E", "2 Petrov")]},
            "a seat confirms a row once",
        ),
        ({"status": "final"}, "no row status 'final'"),
    ],
)
def test_impossible_ways_of_writing_are_refused(fields, words):
    with pytest.raises(ValueError, match=words):
        RowWriting(**fields)


def test_what_a_player_sends_is_a_possible_way_of_writing():
    entered = RowWriting(
        status=Result.Status.ENTERED,
        confirmations=[("E", "2 Petrov"), ("S", "3 Sidorov")],
        required=("E", "S"),
    )
    assert entered.idempotency_key is None and not entered.correction
    corrected = RowWriting(
        correction=True, reason="before confirmation", revision=4, status=Result.Status.ENTERED
    )
    assert corrected.revision == 4


@pytest.mark.parametrize("name", ["board", "round", "table", "room"])
@pytest.mark.parametrize("number", [0, -1, True, "3"])
def test_a_place_is_numbered_from_one(name, number):
    place = {"session": Session(), "board": 1, "round": 1, "table": 1, "room": 1}
    with pytest.raises(ValueError, match=f"a row's {name} is a whole number from 1"):
        RowPlace(**{**place, name: number})


def test_row_content_takes_exactly_one_kind_of_result():
    for given in ({}, {"row": {"contract": "6S"}, "adjusted": GRADES}):
        with pytest.raises(ResultRejected) as refused:
            row_content(**given)
        assert [r.code for r in refused.value.refusals] == ["row_kind"]
    played = row_content(row={"contract": "6S"}, version="B", annulled=["N"])
    assert isinstance(played, PlayedRow) and played.kind == "row"
    assert (played.version, played.annulled, played.percent) == ("B", ["N"], None)
    artificial = row_content(adjusted=GRADES, percent={"N": "65"})
    assert isinstance(artificial, ArtificialAdjustment) and artificial.grades == GRADES
    assert artificial.percent == {"N": "65"} and artificial.kind == "adjusted"
    assigned = row_content(assigned={"N": "5,5"})
    assert isinstance(assigned, AssignedAdjustment) and assigned.vists == {"N": "5,5"}


def test_a_content_holds_its_result_and_a_list_of_seats():
    with pytest.raises(TypeError):
        PlayedRow(row=None)
    with pytest.raises(TypeError):
        ArtificialAdjustment(grades="A+")
    with pytest.raises(TypeError):
        AssignedAdjustment(vists=None)
    with pytest.raises(TypeError, match="annulled is a list of seats"):
        PlayedRow(row={}, annulled="N")


def test_a_command_is_a_value():
    place = RowPlace(session=Session(), board=2, round=1, table=3)
    command = RowCommand(place, ArtificialAdjustment(grades=GRADES))
    assert command.writing == RowWriting() and command.writing.status == Result.Status.DIRECTOR
    assert command.author.user is None and command.author.actor == ""
    with pytest.raises(dataclasses.FrozenInstanceError):
        command.place.board = 3  # type: ignore[misc]
    with pytest.raises(TypeError, match="a row holds a played deal"):
        RowCommand(place, GRADES)  # type: ignore[arg-type]
    moved = dataclasses.replace(command.content, version="B")
    assert moved.version == "B" and moved.grades == GRADES
