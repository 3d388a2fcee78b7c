"""Issue 18, hostile names on output: typed text never becomes a spreadsheet formula (OWASP «CSV injection»), and
control characters in a name never make a file fail.

Every kind of file of a duplicate event and of a pulka event is made in every format it has, in both languages,
for participants named and clubbed with the payloads below (stored as they are, the way older data or another
channel could hold them). In every workbook no cell is a formula and each payload is text with an apostrophe in
front; in every CSV each payload field starts with the apostrophe; numbers stay numbers (a negative number too);
the control characters are gone and the rest of the name is there.
"""

from __future__ import annotations

import csv
import io
import random
import re
import zipfile
from fractions import Fraction

import pytest
from django.utils import timezone
from openpyxl import load_workbook
from pypdf import PdfReader

from events.bundles import import_bundle
from pulkas.services import rounds
from results.exporters import EXPORTERS
from results.render_tabular import render_csv, render_xlsx
from results.services import build_file
from results.sheets import Column, Sheet
from tests.publishing import end_every_round, publish_to
from tests.pulkas.factory import SURNAMES, play_to_the_end, pulka_event
from tests.results.conftest import three_player_bundle
from tournaments.models import Participant, Publication
from ui.cells import safe_text

pytestmark = pytest.mark.django_db

PAYLOADS = ['=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0", "@SUM(A1)", "-2+3", "\t=1", "\r=1"]
# Reads «Иванов Пётр» once the control characters are gone (no NUL: PostgreSQL cannot store one, and input drops it).
CONTROL = "Ива\x01нов\x07 Пётр\x1b"
CONTROL_SHOWN = "Иванов Пётр"
CONTROL_CLUB = "Клуб\x0b\x0c\x1f «Пас»"
CONTROL_CLUB_SHOWN = "Клуб «Пас»"
_ILLEGAL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")
_NUMBER = re.compile(r"^[+-]?\d+([.,]\d+)?(/\d+)?%?$")  # "-2/3": an exact value, no formula
_LANGS = (("ru", ";"), ("en", ","))


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def _name_them(t) -> None:
    """Participants 1-6 carry a payload as their name, 7-12 as their club, 13 control characters in both."""
    for i, payload in enumerate(PAYLOADS):
        Participant.objects.filter(tournament=t, number=i + 1).update(name=payload)
        Participant.objects.filter(tournament=t, number=i + 7).update(club=payload)
    Participant.objects.filter(tournament=t, number=13).update(name=CONTROL, club=CONTROL_CLUB)


@pytest.fixture
def duplicate(director):
    """The finished 3-player event (15 participants, two sessions, a penalty of -3) with hostile names."""
    now = timezone.now()
    t = import_bundle(data=three_player_bundle(), user=director, slug="hostile-dup", now=now)
    t.name = "@Cup\x07 of =1+1"
    t.save(update_fields=["name"])
    end_every_round(t, director, now)
    publish_to(t, Publication.OFFICIAL, director, now)
    _name_them(t)
    return t


@pytest.fixture
def pulka(director):
    """A compensation event of 15 players at tables of 3, one round played, with hostile names."""
    t = pulka_event(director, "compensation", 15, 3, slug="hostile-pulka", names=SURNAMES, pool=4, rounds=1)
    _name_them(t)
    Participant.objects.filter(tournament=t, number=14).update(name="-5")  # a number as a name: kept as typed
    play_to_the_end(
        t, director, rounds.draw_round(tournament=t, user=director, now=timezone.now()), random.Random(3), 2
    )
    return t


@pytest.fixture
def olympic(director):
    t = pulka_event(director, "olympic", 15, 3, slug="hostile-olympic", names=SURNAMES, pool=4, advance=2)
    _name_them(t)
    play_to_the_end(
        t, director, rounds.draw_round(tournament=t, user=director, now=timezone.now()), random.Random(11)
    )
    return t


def _kinds(t, fmt: str) -> list[str]:
    return [k for k, cls in EXPORTERS.items() if fmt in cls.formats and t.form in cls.forms]


def _xlsx_cells(body: bytes) -> list:
    wb = load_workbook(io.BytesIO(body))
    return [c for ws in wb for row in ws.iter_rows() for c in row if c.value is not None]


def _check_xlsx(body: bytes, *, names: bool = True) -> list:
    cells = _xlsx_cells(body)
    assert not [c.value for c in cells if c.data_type == "f"], "no cell is a formula"
    texts = [c.value for c in cells if isinstance(c.value, str)]
    for text in texts:
        assert not _ILLEGAL.search(text), repr(text)
        if text.startswith(_FORMULA_START):
            assert _NUMBER.match(text.strip()), f"{text!r} starts like a formula"
    if names:
        shown = {t.replace("\r\n", "\n") for t in texts}
        for payload in PAYLOADS:
            # an XML reader gives a lone CR back as LF: the apostrophe is what counts
            assert "'" + payload.replace("\r", "\n") in shown or "'" + payload in shown, payload
        assert any(CONTROL_SHOWN in t for t in texts)
    numbers = [c.value for c in cells if isinstance(c.value, int | float) and not isinstance(c.value, bool)]
    assert numbers, "numbers are written as numbers"
    return cells


def _check_csv(body: bytes, delimiter: str, *, names: bool = True) -> list[str]:
    text = body.decode("utf-8-sig")
    fields = [f for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter) for f in row]
    for field in fields:
        assert not _ILLEGAL.search(field), repr(field)
        if field.startswith(_FORMULA_START):
            assert _NUMBER.match(field), f"{field!r} starts like a formula"
    if names:
        for payload in PAYLOADS:
            assert "'" + payload in fields, payload
        assert any(CONTROL_SHOWN in f for f in fields)
    assert any(_NUMBER.match(f) for f in fields), "numbers are written as numbers"
    return fields


# -- the one rule ----------------------------------------------------------------------------------------------
def test_safe_text_neutralises_every_payload_and_keeps_numbers() -> None:
    for payload in PAYLOADS:
        assert safe_text(payload) == "'" + payload
    assert safe_text(" =1") == "' =1"  # a space in front does not hide a formula from every reader
    assert safe_text("\x00=1") == "'=1"  # the control character goes first, then the formula is caught
    assert safe_text(CONTROL) == CONTROL_SHOWN
    assert safe_text("Ann\u202e\ud800a") == "Anna"  # a direction override, a lone surrogate (not UTF-8)
    for kept in ("-", "-5", "+7", "-43/2", "-1,5", "Иванов", "6S", "", "10,5", "Анна-Мария", "a=b"):
        assert safe_text(kept) == kept


def test_renderers_keep_numbers_and_write_text_as_text() -> None:
    sheet = Sheet(
        "t",
        "t\x07",
        "=heading\x00",
        [Column("=name", "text", 20), Column("mp", "num", 8), Column("n", "int", 5)],
        [[p, Fraction(-7, 2), -3] for p in [*PAYLOADS, CONTROL + "\ud800"]],
        len(PAYLOADS) + 1,
    )
    cells = _check_xlsx(render_xlsx([sheet]))
    assert "'=heading" in [c.value for c in cells] and "'=name" in [c.value for c in cells]
    assert [c.value for c in cells if c.column == 2 and c.row > 2] == [-3.5] * 7  # negative numbers: numbers
    assert [c.value for c in cells if c.column == 3 and c.row > 2] == [-3] * 7
    for lang, delimiter in _LANGS:
        fields = _check_csv(render_csv([sheet], lang=lang), delimiter)
        assert fields.count("-3,5" if lang == "ru" else "-3.5") == 7 and fields.count("-3") == 7


# -- every file of a duplicate event ---------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["results", "workbook", "standings", "protocols", "cards"])
def test_duplicate_workbooks_have_no_formula(duplicate, kind) -> None:
    for lang, _d in _LANGS:  # the protocols give participants by number: the name is only in the headings
        cells = _check_xlsx(
            build_file(duplicate.pk, kind, "xlsx", {"lang": lang})[1], names=kind != "protocols"
        )
        assert any(isinstance(c.value, str) and c.value.startswith("'@Cup of =1+1") for c in cells)


@pytest.mark.parametrize("kind", ["results", "standings", "protocols", "cards"])
def test_duplicate_csv_fields_start_with_an_apostrophe(duplicate, kind) -> None:
    for lang, delimiter in _LANGS:
        body = build_file(duplicate.pk, kind, "csv", {"lang": lang})[1]
        fields = _check_csv(body, delimiter, names=kind != "protocols")
        if kind in ("standings", "cards"):  # the penalty of -3 matchpoints: a number, no apostrophe
            assert any(f.startswith("-") and _NUMBER.match(f) for f in fields), kind


def _pdf_text(body: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)


def test_every_duplicate_file_is_made_with_control_characters(duplicate) -> None:
    """Every kind in every format it has (both languages): nothing fails; the PDFs show the name cleaned."""
    for lang, _d in _LANGS:
        for kind, cls in EXPORTERS.items():
            if duplicate.form not in cls.forms:
                continue
            for fmt in cls.formats:
                body = build_file(duplicate.pk, kind, fmt, {"lang": lang, "session": 1})[1]
                assert body, (kind, fmt)
                if fmt == "pdf" and kind in ("results", "standings", "cards"):
                    # the results' PDFs read the name cleaned (no box for a control character)
                    assert CONTROL_SHOWN in _pdf_text(body), (kind, lang)
                elif fmt == "pdf" and kind in ("pin_slips", "seating"):
                    assert "Пётр" in _pdf_text(body), (kind, lang)
                if fmt == "zip":
                    with zipfile.ZipFile(io.BytesIO(body)) as zf:
                        assert all(zf.read(n).startswith(b"%PDF") for n in zf.namelist())


# -- every file of a pulka event -------------------------------------------------------------------------------
def test_pulka_files_have_no_formula_and_survive_control_characters(pulka) -> None:
    for lang, delimiter in _LANGS:
        for kind in _kinds(pulka, "xlsx"):
            cells = _check_xlsx(build_file(pulka.pk, kind, "xlsx", {"lang": lang})[1])
            assert "-5" in [c.value for c in cells]  # the name «-5» is shown as typed
        for kind in _kinds(pulka, "csv"):
            fields = _check_csv(build_file(pulka.pk, kind, "csv", {"lang": lang})[1], delimiter)
            assert "-5" in fields
        for kind in _kinds(pulka, "pdf"):
            body = build_file(pulka.pk, kind, "pdf", {"lang": lang, "round": 1})[1]
            assert body.startswith(b"%PDF") and ("Пётр" in _pdf_text(body) or "pulka" not in kind), kind


def test_olympic_pdfs_with_control_characters(olympic) -> None:
    """The bracket, the seating and the round's pulka sheets (the table page's sheet drawing) are made."""
    for lang, _d in _LANGS:
        for kind in _kinds(olympic, "pdf"):
            body = build_file(olympic.pk, kind, "pdf", {"lang": lang, "round": 1})[1]
            assert body.startswith(b"%PDF") and ("Пётр" in _pdf_text(body) or "pulka" not in kind), kind
