"""The movement library's refusals reach the director in the page's language, with a stable code.

``preferans.movements`` says why it cannot build a movement in English with a ``code`` and ``params``
(``MovementError``); ``duplicate.movement_errors`` says the same in the request's language.
"""

from __future__ import annotations

import pickle
import re
from collections import defaultdict
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation

from duplicate.movement_errors import FIELD_NAMES, KNOWN_CODES, MESSAGES, movement_message
from duplicate.rounds import movement_choose, movement_offer
from duplicate.seating import SeatingError, apply_movement
from events.bundles import BundleInvalid, _seat
from preferans.movements import MovementError, build_movement, plan
from tests.html import english_phrases, parse, visible_text
from tournaments.errors import UserError
from tournaments.models import Round

RU = {"Accept-Language": "ru"}
MOVEMENTS = Path(settings.BASE_DIR) / "preferans" / "movements"


def _core_error(build) -> MovementError:
    with pytest.raises(MovementError) as caught:
        build()
    return caught.value


def _post(dclient, event, data):
    url = reverse("director:movement", kwargs={"slug": event.slug, "session": 1})
    return dclient.post(url, data, headers=RU)


def _keep(event, n: int) -> None:
    event.participants.filter(number__gt=n).delete()


def _shows_in_russian(page, exc: MovementError) -> str:
    """The page shows ``exc`` in Russian (as the translation says it), not the core's English."""
    assert page.status_code == 200
    with translation.override("ru"):
        expected = movement_message(exc)
    text = visible_text(page)
    assert expected in text
    assert str(exc) not in text
    errors = parse(page).find(class_="form-errors", role="alert")
    assert errors is not None and expected in errors.text()
    assert not english_phrases(errors.text())
    return expected


@pytest.mark.django_db
def test_basic_movement_with_too_many_rounds(dclient, event):
    exc = _core_error(lambda: build_movement({"scheme": "basic", "tables": 5, "rounds": 7}))
    assert exc.code == "basic_rounds" and exc.params == {"tables": 5, "maximum": 5, "rounds": 7}
    expected = _shows_in_russian(_post(dclient, event, {"scheme": "basic", "tables": 5, "rounds": 7}), exc)
    assert "от 2 до 5" in expected
    assert not Round.objects.filter(session__tournament=event).exists()
    with pytest.raises(SeatingError) as caught:
        movement_choose(
            session=event.sessions.get(number=1),
            user=None,
            now=timezone.now(),
            spec={"scheme": "basic", "tables": 5, "rounds": 7},
        )
    assert isinstance(caught.value, UserError) and caught.value.code == "basic_rounds"


@pytest.mark.django_db
def test_book_scheme_for_a_field_the_book_has_none_for(dclient, event):
    exc = _core_error(lambda: build_movement({"scheme": "book", "participants": 20}))
    assert exc.code == "book_participants" and exc.params["participants"] == 20
    _shows_in_russian(_post(dclient, event, {"scheme": "book"}), exc)


@pytest.mark.django_db
def test_book_scheme_with_too_many_rounds(dclient, event):
    _keep(event, 13)
    exc = _core_error(lambda: build_movement({"scheme": "book", "participants": 13, "rounds": 14}))
    assert exc.code == "scheme_rounds" and (exc.params["maximum"], exc.params["rounds"]) == (13, 14)
    _shows_in_russian(_post(dclient, event, {"scheme": "book", "rounds": 14}), exc)


@pytest.mark.django_db
def test_suggested_movement_for_a_field_tables_of_four_cannot_seat(dclient, event):
    _keep(event, 7)
    exc = _core_error(lambda: plan(7, per_table=4, deals_per_set=event.deals_per_set))
    assert exc.code == "too_few_for_tables_of_4"
    offer = movement_offer(event)
    assert offer.plan is None and offer.code == "too_few_for_tables_of_4"
    _shows_in_russian(_post(dclient, event, {"scheme": "auto"}), exc)


@pytest.mark.django_db
def test_basic_movement_for_too_few_participants_names_the_field(dclient, event):
    _keep(event, 5)  # 5 // 4 = 1 table
    exc = _core_error(lambda: build_movement({"scheme": "basic", "tables": 1}))
    assert exc.code == "below_minimum" and exc.params["field"] == "movement.tables"
    expected = _shows_in_russian(_post(dclient, event, {"scheme": "basic"}), exc)
    assert expected.startswith("Число столов")


@pytest.mark.django_db
def test_the_offer_explains_in_russian(dclient, event):
    _keep(event, 5)
    exc = _core_error(lambda: plan(5, per_table=4))
    assert exc.code == "too_few_participants"
    page = dclient.get(reverse("director:movement", kwargs={"slug": event.slug, "session": 1}), headers=RU)
    with translation.override("ru"):
        expected = movement_message(exc)
    assert expected in visible_text(page) and str(exc) not in visible_text(page)


@pytest.mark.django_db
def test_seating_error_is_a_translated_user_error(event):
    session = event.sessions.get(number=1)
    movement = build_movement({"scheme": "basic", "tables": 5}, per_table=3)
    with translation.override("ru"), pytest.raises(SeatingError) as caught:
        apply_movement(session=session, movement=movement, now=timezone.now())
    assert isinstance(caught.value, UserError) and caught.value.code == "movement_per_table"
    assert caught.value.message.startswith("Движение рассчитано на столы по 3")


@pytest.mark.django_db
def test_an_import_still_reports_a_movement_that_cannot_be_built(event):
    session = event.sessions.get(number=1)
    session.movement = {"scheme": "book", "participants": 20}
    with pytest.raises(BundleInvalid) as caught:
        _seat(session, now=timezone.now())
    assert caught.value.problems and caught.value.problems[0].loc.where == "movement"


def test_message_and_pickling_keep_the_english_and_the_code():
    exc = _core_error(lambda: plan(5))
    assert str(exc).startswith("5 participants cannot be seated: a duplicate movement needs at least 6")
    again = pickle.loads(pickle.dumps(exc))
    assert (str(again), again.code, again.params) == (str(exc), exc.code, exc.params)


def test_an_uncoded_error_falls_back_to_a_translated_sentence_with_the_detail():
    exc = MovementError("invalid movement:\nM4 something")
    with translation.override("ru"):
        text = movement_message(exc)
    assert text.startswith("Это движение использовать нельзя") and "M4 something" in text


def _raised_codes() -> set[str]:
    codes: set[str] = set()
    for path in MOVEMENTS.glob("*.py"):
        codes |= set(re.findall(r'\bcode="([a-z0-9_]+)"', path.read_text(encoding="utf-8")))
    return codes


def test_every_code_the_core_raises_has_a_translation():
    codes = _raised_codes()
    assert len(codes) >= 15 and {"basic_rounds", "book_participants", "scheme_rounds", "no_movement"} <= codes
    assert codes <= KNOWN_CODES, sorted(codes - KNOWN_CODES)


def _no_latin(text: str) -> bool:
    return not re.search(r"[A-Za-z]{2,}", re.sub(r"%\(\w+\)s", "", text))


def _said(message) -> str:
    """The message as a sentence; a plural one (``ngettext_lazy`` with a named number) formatted with 2 everywhere."""
    return str(message) or str(message % defaultdict(lambda: 2))


def test_every_message_has_a_russian_translation():
    for code, message in MESSAGES.items():
        with translation.override("en"):
            english = _said(message)
        with translation.override("ru"):
            russian = _said(message)
        assert russian != english and _no_latin(russian), code
    for name in FIELD_NAMES.values():
        with translation.override("ru"):
            assert _no_latin(str(name))
    no_movement = MovementError(
        "x", code="no_movement", params={"participants": 21, "per_table": 4, "rounds": 9}
    )
    with translation.override("ru"):
        text = movement_message(no_movement)
    assert _no_latin(text) and "21" in text and "9" in text


def test_a_movement_that_breaks_the_seating_rules_is_refused_in_words_naming_the_sets():
    """Issue 17: the book's scheme for 13 shortened to two rounds leaves sets played once in a line; the director
    read twenty lines of English. He reads which rule and which sets, in Russian."""
    from preferans.movements.book import book_movement
    from preferans.movements.validate import check

    exc = _core_error(lambda: check(book_movement(13, rounds=2)))
    assert exc.code == "movement_rules" and "M5" in exc.params["rules"]
    with translation.override("ru"):
        text = movement_message(exc)
    assert text.startswith("Это движение не соблюдает правила рассадки (§5):"), text
    assert "каждая сдача сыграна хотя бы дважды в каждой линии" in text
    assert f"Комплекты {exc.params['sets']} сыграют" in text and _no_latin(text.replace("§5", ""))
    assert len(text) < 400
    with translation.override("en"):
        assert "play more rounds or choose another movement" in movement_message(exc)


def test_the_planner_refuses_a_shortened_book_scheme_in_the_same_words():
    """The suggested movement for 13 shortened to two rounds: the planner's own check speaks through the same code."""
    exc = _core_error(lambda: plan(13, per_table=4, rounds=2))
    assert exc.code == "movement_rules"
    with translation.override("ru"):
        assert _no_latin(movement_message(exc).replace("§5", ""))
