"""Issue 17, «Paper and files»: the files a director downloads open right in the reader's locale.

- A Russian CSV opens in Russian Excel as columns: the ``;`` dialect, decimal commas (``104,5``), the column
  titles on the first line (no title line), UTF-8 with a byte-order mark. An English CSV keeps ``,`` and points.
- One decimal sign per language on every page and PDF (ru ``,``, en ``.``), from one formatter
  (``ui.templatetags.scores.display_number``).
- «Место» in the workbook is a number where it is one; a shared place («3–4») or a mark («дискв.») is text.
- The workbook prints: A4, one page wide, the column titles on every page, landscape where the sheet is wide.
- A Russian and an English export of the same kind have different file names (the language code).
"""

from __future__ import annotations

import csv
import io
import re
from fractions import Fraction

import openpyxl
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from pypdf import PdfReader

from results.data import Progress
from results.exporters import EXPORTERS, exporter_for
from results.render_tabular import render_csv, render_xlsx
from results.services import build_file
from results.sheets import Column, Sheet
from scoring.models import Standing
from tests.html import visible_text
from ui.templatetags.scores import display_number

pytestmark = pytest.mark.django_db

_DECIMAL_COMMA = re.compile(r"^-?\d+,\d{1,2}$")
_DECIMAL_POINT = re.compile(r"^-?\d+\.\d{1,2}$")


def _standings(t) -> list[Standing]:
    return list(Standing.objects.filter(tournament=t).select_related("participant").order_by("position"))


def _csv(t, lang: str, delimiter: str) -> list[list[str]]:
    _name, body = build_file(t.pk, "standings", "csv", {"lang": lang})
    assert body.startswith("\ufeff".encode()), "UTF-8 with a byte-order mark, so Excel reads Cyrillic"
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig")), delimiter=delimiter))


# -- CSV ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("lang", "delimiter", "head", "decimal", "wrong_sign"),
    [
        ("ru", ";", ["Место", "№", "Фамилия, имя", "Клуб", "МП", "Макс", "%"], _DECIMAL_COMMA, "."),
        ("en", ",", ["Place", "No.", "Name", "Club", "MP", "Max", "%"], _DECIMAL_POINT, ","),
    ],
)
def test_csv_dialect_follows_the_language_header_first(three, lang, delimiter, head, decimal, wrong_sign):
    """ru: ``;`` with decimal commas (Russian Excel splits on ``;``); en: ``,`` with points; no title line."""
    lines = _csv(three, lang, delimiter)
    assert lines[0][:7] == head  # the column titles are the first line: no title line above them
    blank = lines.index([])  # the session totals follow after an empty line, with their own column titles
    rows = lines[1:blank]
    standings = _standings(three)
    assert len(rows) == len(standings)
    decimals = 0
    for row, st in zip(rows, standings, strict=True):
        assert len(row) == len(lines[0]), "every row splits into the header's columns"
        assert int(row[1]) == st.participant.number and row[2] == st.participant.name
        assert row[6] == st.percent.replace(".", "," if lang == "ru" else ".")  # both places: «52,78»
        for field in row[4:]:
            assert wrong_sign not in field, f"{field!r}: one decimal sign per language"
            if field and not field.lstrip("-").isdigit():
                assert decimal.match(field), field
                decimals += 1
        mp = Fraction(row[4].replace(",", "."))
        assert abs(mp - Fraction(st.matchpoints)) <= Fraction(1, 200)  # rounded half-up to 2 places
    assert decimals > len(rows)  # the event has fractional matchpoints: the decimal sign was really written


def test_csv_has_no_title_line_in_any_kind(three):
    """Every CSV kind starts with its column titles (the old files began with «Three Cup — Standings (...)»)."""
    for kind, cls in EXPORTERS.items():
        if "csv" not in cls.formats or three.form not in cls.forms:
            continue
        for lang, delimiter in (("ru", ";"), ("en", ",")):
            body = build_file(three.pk, kind, "csv", {"lang": lang})[1].decode("utf-8-sig")
            first = next(csv.reader(io.StringIO(body), delimiter=delimiter))
            assert "Three Cup" not in body.splitlines()[0], (kind, lang)
            assert len(first) > 3, (kind, lang, first)


def test_ru_csv_field_with_semicolon_is_quoted():
    """A name with the separator in it stays one field."""
    sheet = Sheet(
        "s",
        "s",
        "heading",
        [Column("Фамилия, имя"), Column("МП", "num")],
        [["Иванов; мл.", Fraction(209, 2)]],
        1,
    )
    text = render_csv([sheet], lang="ru").decode("utf-8-sig")
    assert list(csv.reader(io.StringIO(text), delimiter=";")) == [
        ["Фамилия, имя", "МП"],
        ["Иванов; мл.", "104,5"],
    ]


# -- the one formatter ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("value", "trim", "ru", "en"),
    [
        (Fraction(209, 2), True, "104,5", "104.5"),
        ("209/2", True, "104,5", "104.5"),
        ("59.38", True, "59,38", "59.38"),  # a stored rounded percentage
        ("59.30", False, "59,30", "59.30"),
        (Fraction(59), False, "59,00", "59.00"),
        (Fraction(-16, 3), True, "-5,33", "-5.33"),
        (Fraction(12), True, "12", "12"),
        ("A+", True, "A+", "A+"),  # not a number: shown as it is
    ],
)
def test_one_decimal_sign_per_language(value, trim, ru, en):
    assert display_number(value, "ru", trim=trim) == ru
    assert display_number(value, "en", trim=trim) == en
    with translation.override("ru"):
        assert display_number(value, trim=trim) == ru  # a page answers in the request's language
    with translation.override("en"):
        assert display_number(value, trim=trim) == en


@pytest.mark.parametrize(("lang", "sign", "other"), [("ru", ",", "."), ("en", ".", ",")])
def test_page_and_pdf_show_the_same_decimal_sign(three, lang, sign, other):
    """The public standings page and the standings PDF of one language print a percentage the same way."""
    page = visible_text(
        Client(HTTP_ACCEPT_LANGUAGE=lang).get(reverse("results:standings", kwargs={"slug": three.slug}))
    )
    _name, pdf = build_file(three.pk, "standings", "pdf", {"lang": lang})
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    for st in _standings(three):
        shown = st.percent.replace(".", sign)
        assert shown in page and shown in text, (st.participant.number, shown)
        assert st.percent.replace(".", other) not in page
        assert st.percent.replace(".", other) not in text


# -- Excel --------------------------------------------------------------------------------------------------
def test_xlsx_place_is_a_number_where_it_is_one():
    """«3–4» (a shared place) and «дискв.» stay text; «1» is the number 1, so Excel sorts the column."""
    sheet = Sheet(
        "standings",
        "Итоги",
        "heading",
        [Column("Место", "place"), Column("№", "int")],
        [["1", 5], ["2–3", 7], ["2–3", 8], [4, 9], ["дискв.", 3]],
        5,
    )
    ws = openpyxl.load_workbook(io.BytesIO(render_xlsx([sheet])))["Итоги"]
    cells = [row[0] for row in ws.iter_rows(min_row=3)]
    assert [c.value for c in cells] == [1, "2–3", "2–3", 4, "дискв."]
    assert [c.data_type for c in cells] == ["n", "s", "s", "n", "s"]


def test_xlsx_standings_places_are_numbers(three):
    body = build_file(three.pk, "workbook", "xlsx", {"lang": "ru"})[1]
    ws = openpyxl.load_workbook(io.BytesIO(body))["Итоги"]
    for row, st in zip(ws.iter_rows(min_row=3), _standings(three), strict=True):
        place = row[0].value
        assert place == (int(st.rank) if st.rank.isdigit() else st.rank)
        assert isinstance(place, int) == st.rank.isdigit()


def test_xlsx_print_setup(three):
    """Every sheet prints on A4, one page wide, the heading and column titles repeated on each page; the wide
    sheets (protocols, score cards, standings of two sessions) lie landscape, the narrow ones stand portrait."""
    body = build_file(three.pk, "workbook", "xlsx", {"lang": "ru"})[1]
    wb = openpyxl.load_workbook(io.BytesIO(body))
    orientation = {}
    for ws in wb.worksheets:
        setup = ws.page_setup
        assert str(setup.paperSize) == "9", ws.title  # A4
        assert (setup.fitToWidth, setup.fitToHeight) == (1, 0), ws.title
        assert ws.sheet_properties.pageSetUpPr.fitToPage, ws.title
        assert ws.print_title_rows == "$1:$2", ws.title
        orientation[ws.title] = setup.orientation
    assert orientation["Протоколы"] == "landscape" and orientation["Карточки"] == "landscape"
    assert orientation["Итоги по сессиям"] == "portrait" and orientation["Частоты"] == "portrait"


# -- file names ---------------------------------------------------------------------------------------------
def test_ru_and_en_files_have_different_names(three):
    """Every kind of file: the Russian and the English one never overwrite each other in a download folder."""
    now = timezone.now()
    for kind, cls in EXPORTERS.items():
        if three.form not in cls.forms:
            continue
        options = {"session": 1} if cls.per_session else {}
        names = {
            lang: exporter_for(
                three, kind, options={**options, "lang": lang}, now=now, progress=Progress()
            ).filename(cls.formats[0])
            for lang in ("ru", "en")
        }
        assert names["ru"] != names["en"], kind
        assert names["ru"].endswith(f"-ru.{cls.formats[0]}") and names["en"].endswith(f"-en.{cls.formats[0]}")
    assert build_file(three.pk, "standings", "csv", {"lang": "ru"})[0] == "three-standings-ru.csv"
    assert (
        build_file(three.pk, "table_cards", "pdf", {"lang": "en", "session": 2})[0]
        == "three-table-cards-s2-en.pdf"
    )
