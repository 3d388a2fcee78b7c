"""The planner's reasons reach the director in the page's language.

``preferans.movements`` explains its choice in English ``Reason`` strings with a stable ``code`` and ``params``
(the command line prints them unchanged); ``duplicate.movement_text`` says them in the request's
language, and the movement page shows them — the reasons, the scheme's name and the alternatives considered.
"""

from __future__ import annotations

import json
import pickle
import re
from functools import cache

import pytest
from django.urls import reverse
from django.utils import translation

from duplicate.movement_text import KNOWN_CODES, plan_text, reason_text
from preferans.movements import MovementError, Plan, Reason, plan
from tests.html import english_phrases, parse, visible_text
from tournaments.models import Participant

RU = {"Accept-Language": "ru"}
EN = {"Accept-Language": "en"}


def _no_latin(text: str) -> bool:
    """No English word (two Latin letters or more): seats such as ``1N`` and lines N, E, S, W, P are data."""
    return not re.search(r"[A-Za-z]{2,}", text)


def _reasons(p: Plan) -> list[Reason]:
    """Every reason of a plan, nested ones included: the explanation, the alternatives and the note."""
    top = [*p.explanation, *p.alternatives]
    if isinstance(p.movement.note, Reason):
        top.append(p.movement.note)
    return [r for reason in top for r in reason.walk()]


def _seat(event, n: int, *, per_table: int = 4) -> None:
    """The event with participants 1…n at tables of ``per_table``."""
    event.participants.filter(number__gt=n).delete()
    Participant.objects.bulk_create(
        Participant(tournament=event, number=i, name=f"Игрок {i}", pin=f"{1000 + i}")
        for i in range(21, n + 1)
    )
    event.players_per_table = per_table
    event.save(update_fields=["players_per_table"])


def _page(dclient, event, headers):
    return dclient.get(
        reverse("director:movement", kwargs={"slug": event.slug, "session": 1}), headers=headers
    )


# (participants, players per table, a code the page must explain)
FIELDS = [
    (8, 4, "book_special"),  # the book's scheme
    (12, 4, "book_uneven"),  # a balanced cyclic scheme instead of the book's, and its price
    (13, 4, "book_special"),
    (20, 4, "basic_perfect_4"),  # the basic movement on a prime number of tables
    (88, 4, "best_plan"),  # two rooms
    (68, 4, "shortened"),  # 17 tables: the basic movement shortened to 13 rounds
    (60, 4, "shortened"),  # 15 tables: the skip procedure, shortened, with alternatives
    (19, 3, "best_plan"),  # a cyclic scheme with rests at tables of three
    (21, 3, "basic_perfect_3"),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("n", "per_table", "code"), FIELDS)
def test_the_movement_page_explains_in_russian(dclient, event, n, per_table, code):
    _seat(event, n, per_table=per_table)
    page = _page(dclient, event, RU)
    assert page.status_code == 200
    offer = page.context["offer"]
    p = offer.plan
    assert p is not None and offer.participants == n
    assert code in {r.code for r in p.explanation}
    with translation.override("ru"):
        expected = plan_text(p)
    assert (offer.note, offer.reasons, offer.alternatives) == (
        expected.note,
        expected.reasons,
        expected.alternatives,
    )
    text = visible_text(page)
    assert not english_phrases(text, event.name), english_phrases(text, event.name)
    suggestion = parse(page).one("section", class_="suggestion")
    shown = [li.text() for li in suggestion.one("ul", class_="reasons").find_all("li")]
    assert shown == list(expected.reasons)
    for english in p.explanation:
        assert str(english) not in text
    assert (
        expected.note[:1].upper() + expected.note[1:] in suggestion.find("b").text()
    )  # the first bold line: the movement named
    assert str(p.movement.note) not in text
    if p.alternatives:
        others = [li.text() for li in suggestion.one("ul", class_="alternatives").find_all("li")]
        assert others == list(expected.alternatives) and all(_no_latin(a) for a in others)
        assert not any(str(a) in text for a in p.alternatives)
    else:
        assert suggestion.find("ul", class_="alternatives") is None
    assert all(_no_latin(line) for line in shown)


@pytest.mark.django_db
def test_the_movement_page_in_english_says_what_the_planner_says(dclient, event):
    _seat(event, 60)
    page = _page(dclient, event, EN)
    p = page.context["offer"].plan
    shown = [li.text() for li in parse(page).one("ul", class_="reasons").find_all("li")]
    assert shown == [str(r) for r in p.explanation]  # the same English as ``manage.py movement``
    others = [li.text() for li in parse(page).one("ul", class_="alternatives").find_all("li")]
    assert others == [str(a) for a in p.alternatives]


@cache
def _sweep(per_table: int | None) -> tuple[Plan, ...]:
    plans = []
    for n in range(6, 121):
        try:
            plans.append(plan(n, per_table=per_table))
        except MovementError:
            assert n < 8 and per_table == 4  # two tables of 4 are the least
    return tuple(plans)


def _other_paths() -> list[Plan]:
    """Plans of the command line's other choices: the basic movement and the book's schemes asked for."""
    plans = [plan(n, scheme="book") for n in (8, 9, 12, 13, 16, 18, 24)]
    plans += [plan(n, scheme="basic") for n in (20, 24, 28, 33, 36)]
    plans += [plan(40, scheme="basic", rooms=2), plan(30, scheme="basic", per_table=3, rounds=6)]
    plans += [plan(n) for n in (19, 22, 23, 25, 26)]  # tables of 4 or 3
    return plans


def _check_translated(reasons: list[Reason]) -> set[str]:
    codes = {r.code for r in reasons}
    assert codes <= KNOWN_CODES, sorted(codes - KNOWN_CODES)
    for reason in reasons:
        with translation.override("ru"):
            russian = reason_text(reason)
        assert russian != str(reason) and _no_latin(russian), (reason.code, russian)
    return codes


@pytest.mark.parametrize("per_table", [4, 3])
def test_every_reason_the_planner_gives_has_a_russian_translation(per_table):
    codes: set[str] = set()
    for p in _sweep(per_table):
        codes |= _check_translated(_reasons(p))
    assert {"best_plan", "chosen_by_score", "summary", "meeting_pairs", "alternative"} <= codes


def test_every_translated_code_is_one_the_planner_gives():
    plans = _other_paths()
    plans += [plan(n, per_table=4) for n in (8, 9, 10, 12, 14, 16, 18, 20, 21, 24, 32, 36, 56, 88)]
    plans += [plan(n, per_table=3) for n in (8, 15)]
    plans += [plan(68, per_table=4), plan(33, per_table=3, rounds=6)]  # shortened basic movements
    codes: set[str] = set()
    for p in plans:
        codes |= _check_translated(_reasons(p))
    assert codes >= KNOWN_CODES, sorted(KNOWN_CODES - codes)  # no translation is left over


def test_in_english_the_translation_is_the_planners_text():
    for p in _other_paths() + [plan(n) for n in (8, 13, 20, 60, 68, 88)]:
        with translation.override("en"):
            text = plan_text(p)
        assert text.reasons == p.explanation and text.alternatives == p.alternatives
        assert text.note == p.movement.note


def test_an_unknown_code_falls_back_to_the_english_text():
    with translation.override("ru"):
        assert reason_text(Reason("Some new reason.", "no_such_code", {"n": 3})) == "Some new reason."
        assert reason_text("a scheme read from a file") == "a scheme read from a file"
        wrong = Reason("Shortened to 9 of 13 rounds.", "shortened", {"played": 9})  # a param missing
        assert reason_text(wrong) == "Shortened to 9 of 13 rounds."
        nested = Reason("x", "book_special", {"participants": 8, "note": Reason("new note", "no_such_note")})
        assert reason_text(nested).endswith(": new note.") and reason_text(nested).startswith("В книге")


def test_a_reason_is_the_english_string_for_every_other_consumer():
    p = plan(88)
    reason = p.explanation[0]
    assert isinstance(reason, str) and reason.code == "best_plan"
    assert reason == str(reason) and hash(reason) == hash(str(reason)) and f"{reason}" == str(reason)
    assert json.dumps(list(p.explanation)) == json.dumps([str(r) for r in p.explanation])
    again = pickle.loads(pickle.dumps(reason))
    assert (str(again), again.code, again.params) == (str(reason), reason.code, reason.params)
    assert isinstance(again.params["summary"], Reason) and again.params["summary"].code == "summary"
    assert p.movement.note == "basic movement (§5), 2 rooms on the same boards (§5, procedure 2)"
    assert isinstance(p.movement.note, Reason) and p.movement.note.params["rooms"] == 2
