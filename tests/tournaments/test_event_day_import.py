"""Issue 17, «Participant import loses columns silently»: the import recognises common Russian and English headers,
reads a «Фамилия Имя» header as a header, shows how every column is read (and which are ignored), lets the
director assign a column by hand, and carries the federation number into every standings export."""

from __future__ import annotations

import csv
import io

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone
from openpyxl import Workbook
from pypdf import PdfReader

from events.bundles import import_bundle
from events.participants import participant_save, participants_import
from results.services import build_file
from tests.results.conftest import three_player_bundle
from tournaments.models import Participant
from tournaments.participant_columns import guess_mapping, header_role, looks_like_header
from tournaments.participant_file import preview_rows, read_participants_file, read_rows

pytestmark = pytest.mark.django_db
RU = {"Accept-Language": "ru"}

CYRILLIC_CSV = (
    "№;Фамилия Имя;Клуб;Номер ФСП;Разряд\n"
    "1;Иванов Иван;Сочи;ФСП-101;КМС\n"
    "2;Петрова Анна;Москва;ФСП-102;I\n"
    "3;Сидоров Пётр;;;II\n"
)


def xlsx(rows: list[list[object]]) -> bytes:
    wb = Workbook()
    for row in rows:
        wb.active.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("header", "role"),
    [
        ("№", "number"),
        ("No.", "number"),
        ("Стартовый номер", "number"),
        ("номер", "number"),
        ("Name", "name"),
        ("ФИО", "name"),
        ("Фамилия Имя", "name"),
        ("Фамилия, имя", "name"),
        ("Фамилия", "last_name"),
        ("Имя", "first_name"),
        ("Отчество", "middle_name"),
        ("Клуб", "club"),
        ("ГОРОД", "club"),
        ("Team", "club"),
        ("ФСП", "federation_id"),
        ("Номер ФСП", "federation_id"),
        ("номер-фсп:", "federation_id"),
        ("Номер в федерации", "federation_id"),
        ("Federation id", "federation_id"),
        ("FSP", "federation_id"),
        ("Рейтинг-лист ID", "federation_id"),
        ("Разряд", None),
        ("Год рождения", None),
        ("Иванов Иван", None),
    ],
)
def test_common_russian_and_english_headers_are_recognised(header, role):
    """Headers are compared case- and punctuation-insensitively, from one table of Russian and English names
    (the app's own «Номер в федерации» among them)."""
    assert header_role(header) == role


@pytest.mark.parametrize(
    ("row", "is_header"),
    [
        (["Фамилия Имя", "Клуб", "Номер ФСП"], True),
        (["№", "Фамилия Имя", "Клуб", "Номер ФСП", "Разряд"], True),  # one unknown column among four known
        (["1", "Иванов Иван", "Сочи", "ФСП-101"], False),
        (["Иванов Иван", "Сочи"], False),
        (["Разряд", "Год рождения", "Фамилия Имя"], False),  # mostly not header words
    ],
)
def test_a_row_of_mostly_header_words_is_the_header(row, is_header):
    assert looks_like_header(row) is is_header


def test_without_a_header_the_columns_are_number_name_club_federation_id():
    assert guess_mapping(["1", "Иванов", "Сочи", "F-1", "x"], 5) == (
        False,
        ("number", "name", "club", "federation_id", ""),
    )


def test_cyrillic_csv_preview_maps_the_columns_and_lists_the_unknown_one_as_ignored():
    preview = read_participants_file(filename="список.csv", content=CYRILLIC_CSV.encode("cp1251"))
    assert preview.header
    assert [(c.letter, c.title, c.role) for c in preview.columns] == [
        ("A", "№", "number"),
        ("B", "Фамилия Имя", "name"),
        ("C", "Клуб", "club"),
        ("D", "Номер ФСП", "federation_id"),
        ("E", "Разряд", ""),
    ]
    assert [c.title for c in preview.ignored] == ["Разряд"]
    assert [(line.line, line.number, line.name, line.club, line.federation_id) for line in preview.lines] == [
        (2, 1, "Иванов Иван", "Сочи", "ФСП-101"),
        (3, 2, "Петрова Анна", "Москва", "ФСП-102"),
        (4, 3, "Сидоров Пётр", "", ""),
    ]
    assert not preview.bad  # the «Фамилия Имя» header is not read as a participant


def test_surname_and_first_name_in_two_columns_are_joined():
    content = xlsx(
        [["Фамилия", "Имя", "Город", "ФСП"], ["Иванов", "Иван", "Сочи", 101], ["Петрова", "Анна", "", None]]
    )
    preview = read_participants_file(filename="list.xlsx", content=content)
    assert [(line.name, line.club, line.federation_id) for line in preview.lines] == [
        ("Иванов Иван", "Сочи", "101"),
        ("Петрова Анна", "", ""),
    ]


def test_the_director_assigns_an_ignored_column_by_hand():
    rows = read_rows(filename="list.csv", content="Игрок;Членский билет ФСП\nИванов;77\n".encode())
    guessed = preview_rows(rows)
    assert guessed.mapping == ("name", "") and [c.title for c in guessed.ignored] == ["Членский билет ФСП"]
    mapped = preview_rows(rows, mapping=["name", "federation_id"], header=True)
    assert not mapped.ignored and mapped.lines[0].federation_id == "77"


@pytest.mark.parametrize(
    ("mapping", "problem"),
    [
        (["number", "", "club"], "No column is read as the name"),
        (["name", "club", "club"], "Two columns are read as “Club”"),
    ],
)
def test_a_mapping_that_cannot_be_read_is_refused_in_words_and_lists_no_line(mapping, problem):
    rows = read_rows(filename="a.csv", content="1;Иванов;Сочи\n".encode())
    preview = preview_rows(rows, mapping=mapping, header=False)
    assert not preview.lines and any(problem in p for p in preview.problems)


def test_a_failed_import_saves_nothing(event, director):
    """Numbers registered meanwhile refuse the whole import: not one line of it is saved."""
    preview = read_participants_file(filename="a.csv", content="№;ФИО\n30;Новый\n31;Другой\n".encode())
    Participant.objects.create(tournament=event, number=31, name="Успел раньше", pin="1111")
    before = event.participants.count()
    with pytest.raises(Exception, match="31"):
        participants_import(tournament=event, lines=preview.lines, user=director, now=timezone.now())
    assert event.participants.count() == before and not event.participants.filter(number=30).exists()


def test_director_page_previews_the_mapping_changes_it_and_imports_the_federation_ids(event, dclient):
    upload = reverse("director:participants_import", kwargs={"slug": event.slug})
    event.participants.all().delete()
    content = (
        "№;Фамилия Имя;Клуб;Номер ФСП;Билет\n1;Иванов Иван;Сочи;ФСП-101;B-1\n2;Петрова Анна;;ФСП-102;B-2\n"
    )
    response = dclient.post(
        upload, {"file": SimpleUploadedFile("список.csv", content.encode("cp1251"))}, headers=RU
    )
    page = response.content.decode()
    assert response.context["preview"].mapping == ("number", "name", "club", "federation_id", "")
    assert "«Билет»" in page and 'name="col-4"' in page
    assert not event.participants.exists()  # nothing saved by the preview
    # The director reads «Билет» as the federation number and «Номер ФСП» not at all; confirming a changed
    # mapping without looking at it only shows the new preview.
    changed = {
        "col-0": "number",
        "col-1": "name",
        "col-2": "club",
        "col-3": "",
        "col-4": "federation_id",
        "header": "1",
    }
    response = dclient.post(upload, {**changed, "confirm": "1"}, headers=RU)
    assert response.status_code == 200 and not event.participants.exists()
    assert [line.federation_id for line in response.context["preview"].lines] == ["B-1", "B-2"]
    response = dclient.post(upload, {**changed, "confirm": "1"}, headers=RU)
    assert response.status_code == 302
    assert list(
        event.participants.order_by("number").values_list("number", "name", "club", "federation_id")
    ) == [
        (1, "Иванов Иван", "Сочи", "B-1"),
        (2, "Петрова Анна", "", "B-2"),
    ]


def test_xlsx_import_through_the_page_keeps_the_federation_numbers(event, dclient):
    upload = reverse("director:participants_import", kwargs={"slug": event.slug})
    event.participants.all().delete()
    content = xlsx(
        [["Фамилия Имя", "Клуб", "Номер ФСП"], ["Иванов Иван", "Сочи", "ФСП-101"], ["Петрова Анна", "", 102]]
    )
    response = dclient.post(upload, {"file": SimpleUploadedFile("список.xlsx", content)}, headers=RU)
    assert not response.context["preview"].ignored
    assert dclient.post(upload, {"confirm": "1"}).status_code == 302
    assert list(event.participants.order_by("number").values_list("number", "federation_id")) == [
        (1, "ФСП-101"),
        (2, "102"),
    ]


# -- the federation number in the standings exports ------------------------------------------------------
@pytest.fixture
def finished(db, director, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    t = import_bundle(data=three_player_bundle(), user=director, slug="three", now=timezone.now())
    t.language = "en"
    t.save(update_fields=["language"])
    return t


def _give_federation_ids(t, director) -> dict[int, str]:
    ids = {1: "FSP-1", 7: "FSP-7"}
    for number, fed in ids.items():
        p = t.participants.get(number=number)
        participant_save(
            tournament=t,
            user=director,
            now=timezone.now(),
            participant=p,
            number=number,
            name=p.name,
            club=p.club,
            federation_id=fed,
        )
    return ids


def _pdf_words(body: bytes) -> str:
    """The PDF's text with every run of white space one space (a column title may wrap)."""
    return " ".join("\n".join(p.extract_text() for p in PdfReader(io.BytesIO(body)).pages).split())


def _csv_rows(body: bytes) -> list[list[str]]:
    text = body.decode("utf-8-sig")
    dialect = csv.Sniffer().sniff(text[:2000], delimiters=";,")
    return list(csv.reader(io.StringIO(text), dialect))


def test_the_federation_number_is_carried_into_every_standings_export(finished, director):
    ids = _give_federation_ids(finished, director)
    rows = _csv_rows(build_file(finished.pk, "standings", "csv")[1])
    header = next(r for r in rows if "Federation id" in r)
    fed, no = header.index("Federation id"), header.index("No.")
    found = {int(r[no]): r[fed] for r in rows[rows.index(header) + 1 :] if len(r) > fed and r[no].isdigit()}
    assert {n: f for n, f in found.items() if f} == ids and len(found) == 15

    book = openpyxl.load_workbook(io.BytesIO(build_file(finished.pk, "standings", "xlsx")[1]))
    values = [[c for c in row] for row in book.worksheets[0].iter_rows(values_only=True)]
    header = next(r for r in values if "Federation id" in r)
    fed, no = header.index("Federation id"), header.index("No.")
    found = {r[no]: r[fed] for r in values[values.index(header) + 1 :] if isinstance(r[no], int)}
    assert {n: f for n, f in found.items() if f} == ids

    text = _pdf_words(build_file(finished.pk, "standings", "pdf")[1])
    assert "Federation id" in text and all(f in text for f in ids.values())


def test_no_federation_column_when_nobody_has_a_federation_number(finished):
    rows = _csv_rows(build_file(finished.pk, "standings", "csv")[1])
    assert not any("Federation id" in r for r in rows)
    assert "Federation id" not in _pdf_words(build_file(finished.pk, "standings", "pdf")[1])


def test_the_director_may_say_the_first_line_is_data_and_an_unknown_column_kind_is_refused(event, dclient):
    upload = reverse("director:participants_import", kwargs={"slug": event.slug})
    event.participants.all().delete()
    content = "Игрок;Клуб\nИванов;Сочи\n".encode()
    dclient.post(upload, {"file": SimpleUploadedFile("a.csv", content)}, headers=RU)
    response = dclient.post(
        upload, {"col-0": "name", "col-1": "club", "apply": "1"}, headers=RU
    )  # no "header"
    assert [line.name for line in response.context["preview"].lines] == ["Игрок", "Иванов"]
    response = dclient.post(
        upload, {"col-0": "name", "col-1": "handicap", "apply": "1"}, headers=RU, follow=True
    )
    assert (
        "Неизвестный вид столбца: handicap." in response.content.decode() and not event.participants.exists()
    )
