"""One notation for pulka numbers everywhere a person or a spreadsheet reads them: every pulka page, PDF and
file of a played event shows decimals in the language's sign and never a fraction such as ``31/3`` (Excel reads
it as the 31st of March); the workbook's figures are number cells; whole vists come with the line that says how
Code 4.2.12 rounded them. The exact value stays in a page's ``title``, which is not scanned."""

from __future__ import annotations

import csv
import datetime as dt
import io
import random
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook
from pypdf import PdfReader

from appeals import services as appeals
from appeals.models import Irregularity
from preferans.numbers import parse_fraction
from pulkas.models import PulkaRound, PulkaTable
from pulkas.services import rounds
from pulkas.services.sheet import load_sheet
from results.services import build_file
from tests.html import parse, visible_text
from tests.pulkas.factory import play_to_the_end, pulka_event

from .test_public_and_exports import publish

pytestmark = pytest.mark.django_db

FRACTION = re.compile(r"\d+/\d+")  # as formats.md §1 writes a fraction; a page counter «1 / 2» has spaces
DECIMAL = {"ru": re.compile(r"\d,\d\d\b"), "en": re.compile(r"\d\.\d\d\b")}


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def compensation(director):
    """9 players at tables of 3 (thirds of a vist), two rounds with ratings per deal, published."""
    t = pulka_event(director, "compensation", 9, 3, slug="comp-cup", pool=4, rounds=2)
    rng = random.Random(8)
    for _ in range(2):
        play_to_the_end(
            t, director, rounds.draw_round(tournament=t, user=director, now=timezone.now()), rng, deals=4
        )
    publish(t)
    return t


@pytest.fixture
def olympic(director):
    """9 players at tables of 3, then the final table."""
    t = pulka_event(director, "olympic", 9, 3, slug="olympic-numbers", pool=4)
    rng = random.Random(4)
    for _ in range(2):
        play_to_the_end(
            t, director, rounds.draw_round(tournament=t, user=director, now=timezone.now()), rng, deals=4
        )
    publish(t)
    return t


def fractional(t) -> bool:
    """The event has a result that is no whole number (else the scan would prove nothing)."""
    return any(
        parse_fraction(r.vists).denominator > 1
        for table in PulkaTable.objects.filter(round__tournament=t)
        for r in table.results.all()
    )


def pages(t, director) -> list[tuple[str, Client]]:
    """Every page that shows a pulka number, with a client allowed to see it (an Olympic event's page shows
    none: who reached which round)."""
    boss = Client()
    boss.force_login(director)
    anyone = Client()
    table = PulkaTable.objects.filter(round__tournament=t).order_by("round__number", "number").first()
    assert table is not None
    irregularity = appeals.pulka_irregularity_record(
        tournament=t,
        table=table,
        kind=Irregularity.Kind.WRONG_HAND,
        deal=1,
        description="",
        user=director,
        now=timezone.now(),
    )
    slug = {"slug": t.slug}
    out = [
        (reverse("tournament-detail", kwargs=slug), anyone),
        (reverse("results:pulka-standings", kwargs=slug), anyone),
        (reverse("results:pulka-round", kwargs={**slug, "number": 1}), anyone),
        (reverse("results:pulka-round", kwargs={**slug, "number": 2}), anyone),
        (reverse("results:pulka-player", kwargs={**slug, "number": 1}), anyone),
        (reverse("table:pulka", kwargs={"code": table.code}), boss),
        (reverse("director:pulka_rounds", kwargs=slug), boss),
        (reverse("director:pulka_standings", kwargs=slug), boss),
        (reverse("director:pulka_table", kwargs={**slug, "number": 1, "table": table.number}), boss),
        (reverse("appeals:ruling", kwargs={**slug, "pk": irregularity.pk}), boss),
    ]
    if t.form == "olympic":
        out.append((reverse("results:pulka-bracket", kwargs=slug), anyone))
    return out


def files(t) -> list[tuple[str, str, dict]]:
    kinds = [("pulka_standings", "pdf"), ("pulka_standings", "csv"), ("pulka_seating", "pdf")]
    kinds += [("pulka_sheets", "pdf"), ("pulka_workbook", "xlsx"), ("pulka_standings", "xlsx")]
    if t.form == "olympic":
        kinds.append(("pulka_bracket", "pdf"))
    return [(kind, fmt, {"lang": lang}) for kind, fmt in kinds for lang in ("ru", "en")]


def file_text(fmt: str, body: bytes) -> str:
    if fmt == "pdf":
        return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)
    if fmt == "csv":
        return body.decode("utf-8-sig")
    workbook = load_workbook(io.BytesIO(body))
    return "\n".join(
        str(cell.value) for ws in workbook for row in ws.iter_rows() for cell in row if cell.value is not None
    )


@pytest.mark.parametrize("form", ["compensation", "olympic"])
def test_no_pulka_page_or_file_shows_a_fraction(form, request, director) -> None:
    t = request.getfixturevalue(form)
    assert fractional(t)
    for page, client in pages(t, director):
        for lang in ("ru", "en"):
            response = client.get(page, HTTP_ACCEPT_LANGUAGE=lang)
            assert response.status_code == 200, page
            text = visible_text(response)  # a title (the exact value) is no visible text
            assert FRACTION.findall(text) == [], (page, lang, FRACTION.findall(text)[:5])
            if page != reverse("tournament-detail", kwargs={"slug": t.slug}) or t.form != "olympic":
                assert DECIMAL[lang].search(text), (page, lang)  # the numbers are there, as decimals
    code = PulkaTable.objects.filter(round__tournament=t).first().code  # type: ignore[union-attr]
    sheet = Client().get(reverse("table:pulka_pdf", kwargs={"code": code}), HTTP_ACCEPT_LANGUAGE="ru")
    assert FRACTION.findall(file_text("pdf", sheet.content)) == []
    for kind, fmt, options in files(t):
        name, body = build_file(t.pk, kind, fmt, {**options, "session": 1})
        text = file_text(fmt, body)
        assert FRACTION.findall(text) == [], (name, FRACTION.findall(text)[:5])
        if kind != "pulka_seating" and fmt != "xlsx":
            assert DECIMAL[options["lang"]].search(text), name


def test_the_exact_value_is_the_title_where_a_player_checks_it(compensation, director) -> None:
    table = next(
        t
        for t in PulkaTable.objects.filter(round__tournament=compensation)
        if any(parse_fraction(r.vists).denominator > 1 for r in t.results.all())
    )
    boss = Client()
    boss.force_login(director)
    doc = parse(boss.get(reverse("table:pulka", kwargs={"code": table.code})))
    cells = doc.one("table", class_="pk-totals").find_all("td", class_="num")
    titles = {c.get("title") for c in cells if c.get("title")}
    exact = {r.vists for r in table.results.all() if parse_fraction(r.vists).denominator > 1}
    assert exact and exact <= titles  # the exact value where a player checks his vists
    rounding = load_sheet(table).score().rounding
    line = doc.one("p", id="rounding").text()
    assert line.startswith("Целые висты по Кодексу 4.2.12") and (rounding is None or rounding.seat in line)


def test_workbook_figures_are_number_cells(compensation) -> None:
    _, body = build_file(compensation.pk, "pulka_workbook", "xlsx", {"lang": "ru"})
    workbook = load_workbook(io.BytesIO(body))
    figures = ("Висты", "Рейтинг", "Сумма", "Целые висты")
    checked = 0
    for ws in workbook:
        head = [c.value for c in ws[2]]
        wanted = [i for i, title in enumerate(head) if str(title).endswith(figures) or title in "NESW"]
        for row in ws.iter_rows(min_row=3):
            label = row[3].value if ws.title.endswith("сдачи") else None
            if label in ("Игроки", "Место за столом") or str(label).startswith("Целые висты по Кодексу"):
                continue  # the players' names, the places, and the rounding line in words
            for i in wanted:
                cell = row[i]
                if cell.value is None:
                    continue
                assert cell.data_type == "n" and isinstance(cell.value, int | float), (ws.title, cell)
                assert not isinstance(cell.value, dt.datetime)
                whole = str(head[i]).startswith("Целые") or label == "Целые висты"
                assert cell.number_format in (("0", "General") if whole else ("0.00",)), (
                    ws.title,
                    label,
                    cell,
                )
                checked += 1
    assert checked > 100


def test_csv_numbers_are_decimals_in_the_files_language(compensation) -> None:
    for lang, sign, delimiter in (("ru", ",", ";"), ("en", ".", ",")):
        body = build_file(compensation.pk, "pulka_standings", "csv", {"lang": lang})[1].decode("utf-8-sig")
        rows = list(csv.reader(io.StringIO(body), delimiter=delimiter))
        total = [row[rows[0].index("Сумма" if lang == "ru" else "Total")] for row in rows[1:]]
        assert all(re.fullmatch(rf"-?\d+\{sign}\d\d", v) for v in total), total


def test_the_round_sheets_say_how_whole_vists_were_rounded(compensation) -> None:
    _, body = build_file(compensation.pk, "pulka_workbook", "xlsx", {"lang": "en"})
    workbook = load_workbook(io.BytesIO(body))
    rounded = 0
    for pulka_round in PulkaRound.objects.filter(tournament=compensation):
        ws = workbook[f"Round {pulka_round.number}"]
        head = [c.value for c in ws[2]]
        said = {
            (row[0].value, row[1].value): row[
                head.index("How the whole vists were rounded (Code 4.2.12)")
            ].value
            for row in ws.iter_rows(min_row=3)
        }
        for table in pulka_round.tables.all():
            rounding = load_sheet(table).score().rounding
            for seat in table.seat_ids():
                line = said[(table.number, seat)]
                if rounding is not None and rounding.seat == seat:
                    assert line.startswith(f"Whole vists by Code 4.2.12: {seat} ")
                    assert f"{rounding.vists_each} whists" in line
                    rounded += 1
                else:
                    assert line is None
    assert rounded  # some table's exact vists were thirds
