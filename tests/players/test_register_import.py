"""The register's file (issue 20: «import/export of the register (xlsx/csv)»): export → import round trips in
both formats, a bad row refuses the whole file naming its row and column, importing twice changes nothing,
persons are updated by federation number, and hostile cells neither run as formulas nor get in."""

from __future__ import annotations

import dataclasses
import io

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from openpyxl import Workbook, load_workbook

from players.models import Person
from players.services import register_file
from players.services.register_file import apply_import, plan_import, read_file
from tournaments.errors import UserError

pytestmark = pytest.mark.django_db

PEOPLE = [
    ("Иванов Иван", "Спартак", "Москва", "R-1"),
    ("Сёмин Пётр", "", "Сочи", "R-2"),
    ('=HYPERLINK("http://x","y")', "+club", "@city", "-3"),  # formula-like text stays text
    ("Без номера", "Клуб", "", ""),
]


def xlsx(rows):
    wb = Workbook()
    for row in rows:
        wb.active.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def load(filename, content, user=None):
    plan = plan_import(read_file(filename=filename, content=content))
    return apply_import([p.to_list() for p in plan], user=user)


def register():
    return sorted(
        Person.objects.filter(merged_into__isnull=True).values_list("name", "club", "city", "federation_id")
    )


@pytest.fixture
def staff(client):
    user = get_user_model().objects.create_user("staff", password="x", is_staff=True)
    client.force_login(user)
    return user


@pytest.mark.parametrize(("fmt", "lang"), [("xlsx", "ru"), ("csv", "ru"), ("xlsx", "en"), ("csv", "en")])
def test_export_import_round_trip(client, staff, fmt, lang):
    for name, club, city, fed in PEOPLE:
        Person.objects.create(name=name, club=club, city=city, federation_id=fed)
    Person.objects.create(name="Merged", merged_into=Person.objects.get(federation_id="R-1"))
    before = register()
    client.cookies["django_language"] = lang
    exported = client.get(reverse("players:register_export", args=[fmt]), HTTP_ACCEPT_LANGUAGE=lang).content
    if fmt == "xlsx":  # text cells, never formulas; the formula-like one with its apostrophe
        cells = [c.value for row in load_workbook(io.BytesIO(exported)).active.iter_rows() for c in row]
        assert '\'=HYPERLINK("http://x","y")' in cells and "Merged" not in cells
    else:
        assert "'=HYPERLINK" in exported.decode("utf-8-sig")
    assert load(f"register.{fmt}", exported, staff) == {"new": 0, "update": 0, "same": 4}  # nothing changes
    Person.objects.filter(merged_into__isnull=False).delete()
    Person.objects.all().delete()
    assert load(f"register.{fmt}", exported, staff) == {"new": 4, "update": 0, "same": 0}
    assert register() == sorted(p for p in before if p[0] != "Merged")
    assert load(f"register.{fmt}", exported, staff) == {"new": 0, "update": 0, "same": 4}  # idempotent


def test_import_updates_persons_by_federation_number():
    Person.objects.create(name="Иванов И.", club="", city="", federation_id="R-1")
    content = "ФИО;Клуб;Город;Номер ФСП\nИванов Иван;Спартак;Москва;R-1\nНовый;;;R-9\n".encode()
    assert load("a.csv", content) == {"new": 1, "update": 1, "same": 0}
    assert Person.objects.get(federation_id="R-1").name == "Иванов Иван"
    assert Person.objects.count() == 2
    assert load("a.csv", content) == {"new": 0, "update": 0, "same": 2}


def test_without_a_header_the_columns_are_name_club_city_number():
    assert load("a.xlsx", xlsx([["Иванов", "Спартак", "Москва", 123]])) == {"new": 1, "update": 0, "same": 0}
    assert register() == [("Иванов", "Спартак", "Москва", "123")]


@pytest.mark.parametrize(
    ("rows", "where"),
    [
        ([["Name", "Club", "City", "Federation number"], ["A", "", "", "1"], ["", "x", "", "2"]], "Row 3"),
        ([["A", "", "", "1"], ["B", "x" * 201, "", "2"]], "Row 2"),
        ([["A", "", "", "1"], ["B", "", "", "1"]], "also on row 1"),
        ([["A", "", "", "1"], ["B", "", "", "9" * 65]], "Row 2"),
    ],
)
def test_one_bad_row_refuses_the_whole_file(rows, where):
    Person.objects.create(name="Before", federation_id="1")
    with pytest.raises(UserError) as caught:
        load("a.xlsx", xlsx(rows))
    assert where in caught.value.message and "column" in caught.value.message
    assert register() == [("Before", "", "", "1")]  # nothing saved, not even the good rows


def test_the_column_is_named():
    with pytest.raises(UserError) as caught:
        load("a.csv", b"name,club,city,federation number\nA,,,1\nB,," + b"x" * 201 + b",2\n")
    assert caught.value.message.startswith("Row 3, column «city»: ")


def test_hostile_cells_and_files(monkeypatch):
    # Control characters and direction overrides are taken out; spaces made single.
    load("a.csv", "name,club,city,federation number\nИва\u202eнов\x07  Иван,,,R-1\n".encode())
    assert register() == [("Иванов Иван", "", "", "R-1")]
    for filename, content in [("a.txt.exe", b"x"), ("a.xlsx", b"not a zip"), ("a.csv", b"")]:
        with pytest.raises(UserError):
            read_file(filename=filename, content=content)
    limits = register_file._LIMITS  # the register's bounds for the one table reader (tournaments.tabular)

    def bounded(**changes):
        monkeypatch.setattr(register_file, "_LIMITS", dataclasses.replace(limits, **changes))

    bounded(file_max=10)
    with pytest.raises(UserError, match="larger"):
        read_file(filename="a.csv", content=b"x" * 11)
    bounded(file_max=1000, rows_max=3)
    with pytest.raises(UserError, match="more than 3 lines"):
        read_file(filename="a.csv", content=b"".join(b"n%d,,,\n" % i for i in range(10)))
    bounded(file_max=10**6, unpacked_max=100)
    with pytest.raises(UserError, match="unpacks"):
        read_file(filename="a.xlsx", content=xlsx([["A"]]))


def test_import_page_previews_then_imports(client, staff):
    url = reverse("players:register_import")
    upload = io.BytesIO(b"name,club,city,federation number\nA,,,1\nB,,,2\n")
    upload.name = "r.csv"
    page = client.post(url, {"file": upload})
    assert page.status_code == 200 and "import-preview" in page.content.decode()
    assert Person.objects.count() == 0  # the preview saves nothing
    client.post(url, {"confirm": "1"})
    assert register() == [("A", "", "", "1"), ("B", "", "", "2")]
    bad = io.BytesIO(b"name,club,city,federation number\nA,,,1\n,,,3\n")
    bad.name = "r.csv"
    page = client.post(url, {"file": bad}).content.decode()
    assert "Row 3" in page or "Строка 3" in page
