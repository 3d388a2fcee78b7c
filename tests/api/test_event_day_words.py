"""Issue 17: the API documentation page in Russian has no English interface words; the schema for programs stays
English unless asked; the table's audit names read in the page's language."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.api.helpers import client_for, event  # noqa: F401
from tests.html import english_phrases, lang, parse
from tests.table.factory import legal_row, pin_of
from tournaments.audit import actor_words
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def prose(page) -> str:
    """The words a reader of the docs page reads: without scripts, styles, and code (paths, keys, samples)."""
    doc = parse(page)
    for node in doc.find_all("script") + doc.find_all("style") + doc.find_all("code") + doc.find_all("pre"):
        node.children = []
    return doc.text()


def test_the_russian_docs_page_describes_every_field_and_endpoint_in_russian():
    page = Client().get("/api/docs/", headers={"accept-language": "ru"})
    assert page.status_code == 200 and lang(page) == "ru"
    text = prose(page)
    assert english_phrases(text) == []
    # the descriptions are there, in Russian: an endpoint's, a request field's and a parameter's
    assert "Игрок стола (не N) согласен" in text
    assert "Разыгрывающий (на распасах — первая рука)" in text
    assert "Идентификатор сессии." in text
    # what a description quotes as code stays code
    assert "<code>tie_choice</code>" in page.content.decode()


def test_the_english_docs_page_keeps_its_english():
    page = Client().get("/api/docs/", headers={"accept-language": "en"})
    text = prose(page)
    assert "A player of the table other than N agrees" in text and "Игрок" not in text


def test_the_schema_for_programs_is_english_whatever_the_client_speaks_unless_asked():
    ru = Client(headers={"accept-language": "ru"})
    schema = ru.get("/api/schema/?format=json").json()
    confirm = schema["paths"]["/api/results/{id}/confirm/"]["post"]
    assert confirm["summary"] == "Confirm a row"
    assert "/api/docs/" not in [p for p in schema["paths"]]  # the pages are not API endpoints
    asked = ru.get("/api/schema/?format=json&lang=ru").json()
    assert asked["paths"]["/api/results/{id}/confirm/"]["post"]["summary"] == "Подтвердить строку"


def test_the_audit_names_a_player_at_a_table_in_the_readers_words(event, director):  # noqa: F811
    answer = client_for("player1").post(
        "/api/results/",
        {"board": 1, **legal_row(4, "N"), "confirmations": [{"number": 3, "pin": pin_of(3)}]},
        format="json",
    )
    assert answer.status_code == 201
    tournament, _session = event
    stored = list(AuditEntry.objects.order_by("id").values_list("actor", flat=True))
    assert stored == ["1 Player 1 · 1/N", "3 Player 3 · 1/S"]  # in no language
    # an entry written before issue 17, in English, is still read in words
    AuditEntry.objects.create(
        tournament=tournament,
        action="result.confirm",
        actor="4 Player 4 (table 1, seat W)",
        at=timezone.now(),
    )
    page = Client(headers={"accept-language": "ru"})
    page.force_login(director)
    text = prose(page.get(reverse("director:audit", args=[tournament.slug])))
    for words in (
        "1 Player 1 (стол 1, позиция N)",
        "3 Player 3 (стол 1, позиция S)",
        "4 Player 4 (стол 1, позиция W)",
    ):
        assert words in text
    assert "(table" not in text and " · 1/" not in text


def test_other_audit_names_are_shown_as_stored():
    assert actor_words("director") == "director"
    assert actor_words("") == ""
    assert actor_words("12 Anna · Maria") == "12 Anna · Maria"  # a name, not a seat
