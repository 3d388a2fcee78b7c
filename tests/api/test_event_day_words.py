"""Issue 17: the API documentation page in Russian has no English interface words; the schema for programs stays
English unless asked; the table's audit names read in the page's language."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.html import english_phrases, lang, parse

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
