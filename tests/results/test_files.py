"""Generated files opened the way their readers open them (openpyxl, csv, pypdf); numbers against the core."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import zipfile
from fractions import Fraction

import openpyxl
import pytest
from pypdf import PdfReader

from appeals.pdf import AppealFormData, appeal_form_pdf
from boards.models import Board
from preferans.game import cost_table, make_rules
from preferans.game.costs import format_cost
from preferans.numbers import format_percent, parse_fraction
from results.services import ExportError, build_file
from scoring.models import Result, Standing

pytestmark = pytest.mark.django_db


def _pdf_text(body: bytes) -> tuple[PdfReader, str]:
    reader = PdfReader(io.BytesIO(body))
    text = "\n".join(page.extract_text() for page in reader.pages)
    return reader, text.replace("−", "-")


def _standings(t):
    return list(Standing.objects.filter(tournament=t).select_related("participant").order_by("position"))


# -- Excel -----------------------------------------------------------------------------------------------
def test_workbook_numbers_are_the_cores(demo):
    name, body = build_file(demo.pk, "workbook", "xlsx")
    assert name == "demo-workbook-ru.xlsx"
    wb = openpyxl.load_workbook(io.BytesIO(body))
    assert wb.sheetnames == ["Итоги", "Итоги по сессиям", "Протоколы", "Карточки", "Частоты"]
    ws = wb["Итоги"]
    assert ws.freeze_panes == "A3"
    # the demo's players have federation numbers (the register links them across events): their column is there
    assert [c.value for c in ws[2]] == [
        "Место",
        "№",
        "Фамилия, имя",
        "Клуб",
        "Номер в федерации",
        "МП",
        "Макс",
        "%",
    ]
    assert ws.auto_filter.ref.startswith("A2:")
    assert ws.column_dimensions["C"].width >= 20
    for row, st in zip(ws.iter_rows(min_row=3), _standings(demo), strict=True):
        rank, number, name_, _club, federation, mp, mx, pct = (c.value for c in row)
        assert federation == st.participant.federation_id
        place = int(st.rank) if st.rank.isdigit() else st.rank  # a number where the place is one
        assert (rank, number, name_) == (place, st.participant.number, st.participant.name)
        assert mp == pytest.approx(float(parse_fraction(st.matchpoints)), abs=1e-9)
        assert mx == pytest.approx(float(parse_fraction(st.max)))
        exact = parse_fraction(st.matchpoints) / parse_fraction(st.max)
        assert pct == pytest.approx(float(exact), abs=1e-12)
        assert format_percent(100 * exact) == st.percent
        assert row[5].number_format == "0.00" and row[7].number_format == "0.00%"
    # Protocols: every stored result, each seat's number, vists and MP.
    ws = wb["Протоколы"]
    head = [c.value for c in ws[2]]
    assert head[:5] == ["Сдача", "Тур", "Стол", "Контракт", "Разыгрывающий: Поз."]
    stored = {
        (r.board_number, r.round_number, r.table_number): r
        for r in Result.objects.filter(session__tournament=demo)
    }
    rows = list(ws.iter_rows(min_row=3, values_only=True))
    assert len(rows) == len(stored)
    n_col = head.index("N №")
    for row in rows:
        result = stored[(row[0], row[1], row[2])]
        for k, seat in enumerate("NESW"):
            number, vists, mp = row[n_col + 3 * k : n_col + 3 * k + 3]
            assert number == result.seats()[seat]
            assert mp == pytest.approx(float(parse_fraction(result.matchpoints[seat])))
            if result.adjusted:
                assert vists == result.adjusted[seat]
            else:
                assert vists == pytest.approx(float(parse_fraction(result.vists[seat])))
    # Score cards: four rows (one per seat) for every result.
    assert wb["Карточки"].max_row - 2 == 4 * len(stored)


def test_workbook_in_english_for_an_english_tournament(three):
    _name, body = build_file(three.pk, "workbook", "xlsx")
    wb = openpyxl.load_workbook(io.BytesIO(body))
    assert wb.sheetnames == ["Standings", "Session totals", "Protocols", "Score cards", "Frequencies"]
    head = [c.value for c in wb["Standings"][2]]
    assert head == [
        "Place",
        "No.",
        "Name",
        "Club",
        "MP",
        "Max",
        "%",
        "Session 1: MP",
        "Session 1: %",
        "Session 2: MP",
        "Session 2: %",
    ]
    assert "W No." not in [c.value for c in wb["Protocols"][2]]  # 3-player tables have no W
    totals = {}
    for row in wb["Session totals"].iter_rows(min_row=3, values_only=True):
        number, _name, _session, mp, _pen, _top, _pct = row
        totals[number] = totals.get(number, 0) + mp
    for st in _standings(three):
        assert totals[st.participant.number] == pytest.approx(float(parse_fraction(st.matchpoints)))


# -- CSV -------------------------------------------------------------------------------------------------
def test_csv_has_standings_then_protocols(three):
    _name, body = build_file(three.pk, "results", "csv")
    assert body.startswith("\ufeff".encode())
    lines = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    assert lines[0][:3] == ["Place", "No.", "Name"]  # the column titles first: no title line
    blank = lines.index([])
    standings = lines[1:blank]
    for row, st in zip(standings, _standings(three), strict=True):
        assert row[0] == st.rank and int(row[1]) == st.participant.number and row[6] == st.percent
        assert abs(Fraction(row[4]) - parse_fraction(st.matchpoints)) <= Fraction(1, 200)
    assert lines[blank + 1][:2] == ["Session", "Board"]  # the protocols' column titles
    assert len(lines) - blank - 2 == Result.objects.filter(session__tournament=three).count()


# -- PDF -------------------------------------------------------------------------------------------------
def test_standings_pdf(demo):
    _name, body = build_file(demo.pk, "standings", "pdf")
    reader, text = _pdf_text(body)
    assert len(reader.pages) == 1
    assert "ПРЕДВАРИТЕЛЬНЫЕ РЕЗУЛЬТАТЫ" in text and "Итоговая таблица" in text
    for st in _standings(demo):
        assert re.search(rf"{re.escape(st.participant.name)}.*{st.percent.replace('.', ',')}", text)


def test_protocols_pdf_has_every_rows_matchpoints(three):
    _name, body = build_file(three.pk, "protocols", "pdf")
    reader, text = _pdf_text(body)
    boards = Board.objects.filter(session__tournament=three).count()
    assert len(reader.pages) <= boards // 2  # several protocols to a page (issue 17), mostly three here
    assert "OFFICIAL RESULTS" in text and "PROTOCOL" in text
    page = reader.pages[0].extract_text().replace("−", "-").split("PROTOCOL")[1]  # board 1's protocol
    first = Result.objects.filter(session__tournament=three, session__number=1, board_number=1).order_by(
        "round_number"
    )
    lines = [ln for ln in page.splitlines() if re.match(r"^\d+ \d+ ", ln)]
    assert len(lines) == first.count()
    for line, result in zip(lines, first, strict=True):
        tokens = line.split()
        assert (int(tokens[0]), int(tokens[1])) == (result.round_number, result.table_number)
        for seat in "NES":
            assert result.matchpoints[seat] and _shown(result.matchpoints[seat]) in tokens
    assert "Layout" not in text or "Prikup" in text  # finished session: the layout is printed
    assert "Prikup" in text


def _shown(value: str) -> str:
    f = parse_fraction(value)
    if f.denominator == 1:
        return str(f.numerator)
    return format_cost(f, minus="-")


def test_cards_pdf_totals(three):
    _name, body = build_file(three.pk, "cards", "pdf")
    reader, text = _pdf_text(body)
    assert len(reader.pages) >= 15
    for st in _standings(three):
        assert f"Player {st.participant.number}" in text
        assert st.percent in text


def test_results_pdf_is_standings_then_protocols(demo):
    _name, body = build_file(demo.pk, "results", "pdf")
    _reader, text = _pdf_text(body)
    assert text.index("Итоговая таблица") < text.index("ПРОТОКОЛ")


def test_table_cards_and_row_of_sets(demo):
    _name, body = build_file(demo.pk, "table_cards", "pdf", {"base_url": "https://pref.example.org/"})
    reader, text = _pdf_text(body)
    tables = demo.sessions.get().tables.order_by("number")
    assert len(reader.pages) == tables.count() == 5
    first = reader.pages[0].extract_text()
    assert "Стол 1" in first and f"Код стола: {tables[0].code}" in first
    assert "https://pref.example.org/table/" in first
    # Basic movement: E goes to table +1, S to +2, W to −2 (rules §5), written «3S–2W».
    assert "1E–2E" in first and "1S–3S" in first and "1W–4W" in first and "1N остаётся" in first
    _name, body = build_file(demo.pk, "row_of_sets", "pdf", {"session": 1})
    _reader, text = _pdf_text(body)
    assert "Ряд комплектов судьи" in text


def test_cost_table_pdf_numbers_come_from_the_core(three):
    _name, body = build_file(three.pk, "cost_table", "pdf")
    reader, text = _pdf_text(body)
    assert len(reader.pages) >= 2  # the tournament's own, then the standard tables
    table = cost_table(make_rules("leningrad"), 3)
    first = reader.pages[0].extract_text().replace("−", "-")
    for line in table.lines[:5]:
        made = f"{format_cost(line.made.own, signed=True, minus='-')} / {format_cost(line.made.other, signed=True, minus='-')}"
        assert made in first


def test_appeal_form_blank_and_filled():
    blank = appeal_form_pdf(None, lang="ru")
    _r, text = _pdf_text(blank)
    for label in (
        "АПЕЛЛЯЦИЯ",
        "1. Игрок, подающий апелляцию",
        "2. Тур №",
        "3. Сдача №",
        "4. Расклад",
        "5. Участники сдачи",
        "6. Торговля",
        "7. Розыгрыш",
        "8. Суть претензии",
        "9. Комментарий судьи",
        "10. Решение Апелляционного комитета",
        "11. Состав Апелляционного комитета",
        "Подписи",
        "12. Дата",
    ):
        assert label in text
    layout = {
        "number": 5,
        "dealer": "N",
        "hands": {
            "E": "SA10 7 CAJ DK 7 HQ J 10 8",
            "S": "SA K 10 CK 10 8 7 D98 HK",
            "W": "SJ C9 DA K Q J 10 HA 9 7",
        },
        "prikup": ["CQ", "S7"],
    }
    data = AppealFormData(
        appellant="№ 12 Морозова Татьяна",
        round=2,
        board=5,
        layout=layout,
        participants={"W": "16", "N": "3", "E": "7", "S": "11"},
        bidding=[["", "пас", "6♠", "пас"]],
        play="Первый ход ♥K",
        claim="Разыгрывающий не объявил план",
        director_comment="Отклонено",
        committee_decision="Оставить в силе",
        committee_members=["Иванов И.И."],
        signed_by=["Иванов"],
        date=dt.date(2026, 5, 17),
        tournament="Кубок",
    )
    _r, text = _pdf_text(appeal_form_pdf(data, lang="ru"))
    for value in (
        "№ 12 Морозова Татьяна",
        "Разыгрывающий не объявил план",
        "Оставить в силе",
        "«17» мая 2026 г.",
        "Иванов И.И.",
        "Прикуп",
    ):
        assert value in text
    _r, text = _pdf_text(appeal_form_pdf(None, lang="en"))
    assert "APPEAL" in text and "8. Substance of the claim" in text


def test_pack_holds_every_pdf(demo):
    name, body = build_file(demo.pk, "pack", "zip")
    names = zipfile.ZipFile(io.BytesIO(body)).namelist()
    assert name == "demo-pack-ru.zip"
    assert names == [
        "demo-standings.pdf",
        "demo-protocols.pdf",
        "demo-cards.pdf",
        "demo-table-cards-s1.pdf",
        "demo-row-of-sets-s1.pdf",
        "demo-cost-table.pdf",
        "demo-appeal-form.pdf",
    ]
    for n in names:
        PdfReader(io.BytesIO(zipfile.ZipFile(io.BytesIO(body)).read(n)))


def test_unknown_kind_or_format(demo):
    with pytest.raises(ExportError):
        build_file(demo.pk, "nonsense", "pdf")
    with pytest.raises(ExportError):
        build_file(demo.pk, "standings", "docx")


def test_every_kind_of_file_is_one_exporter_class_that_renders_each_of_its_formats():
    from results.exporters import EXPORTERS, Exporter

    assert len(EXPORTERS) == len({cls for cls in EXPORTERS.values()}) >= 10
    for key, cls in EXPORTERS.items():
        assert issubclass(cls, Exporter) and cls.identifier == key
        assert cls.formats and all(callable(getattr(cls, f"render_{fmt}", None)) for fmt in cls.formats), key
