from __future__ import annotations

import io
import random

import pytest
from django.utils import timezone
from openpyxl import Workbook

from events.participants import (
    new_pin,
    participant_delete,
    participant_save,
    participants_import,
    pins_assign,
)
from tournaments.errors import UserError
from tournaments.participant_file import read_participants_file

pytestmark = pytest.mark.django_db


def xlsx(rows):
    wb = Workbook()
    for row in rows:
        wb.active.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def test_csv_with_header_semicolons_and_cp1251():
    content = "№;ФИО;Клуб\n1;Иванов Иван;Спартак\n2;Петров Пётр;\n".encode("cp1251")
    preview = read_participants_file(filename="list.csv", content=content)
    assert [(line.number, line.name, line.club) for line in preview.lines] == [
        (1, "Иванов Иван", "Спартак"),
        (2, "Петров Пётр", ""),
    ]
    assert not preview.bad


def test_xlsx_without_header_and_per_line_errors():
    content = xlsx(
        [
            [1, "Иванов", "Спартак", "F-1"],
            ["x", "Петров"],
            [1, "Сидоров"],
            [None, ""],
            [4, ""],
            [None, "Без номера"],
        ]
    )
    preview = read_participants_file(filename="list.xlsx", content=content, registered=[])
    by_line = {line.line: line for line in preview.lines}
    assert by_line[1].ok and by_line[1].federation_id == "F-1"
    assert "not a whole number" in by_line[2].errors[0]
    assert "also on line 1" in by_line[3].errors[0]
    assert by_line[5].errors == ("no name",)
    assert by_line[6].ok and by_line[6].number == 2  # the next free number


def test_import_registers_the_good_lines_with_pins(event, director):
    content = "number,name\n21,Новый\n1,Занят\n".encode()
    preview = read_participants_file(
        filename="a.csv", content=content, registered=event.participants.values_list("number", flat=True)
    )
    assert [line.ok for line in preview.lines] == [True, False]
    assert "already registered" in preview.lines[1].errors[0]
    assert participants_import(tournament=event, lines=preview.lines, user=director, now=timezone.now()) == 1
    new = event.participants.get(number=21)
    assert len(new.pin) == 4 and new.pin.isdigit()


def test_replace_is_refused_once_seated(seated, director):
    preview = read_participants_file(filename="a.csv", content=b"1,A\n", replace=True)
    with pytest.raises(UserError):
        participants_import(
            tournament=seated, lines=preview.lines, user=director, replace=True, now=timezone.now()
        )


def test_unknown_file_type():
    with pytest.raises(UserError):
        read_participants_file(filename="a.pdf", content=b"%PDF")


def test_participant_save_update_delete(event, director, seated):
    p = participant_save(tournament=event, user=director, number=30, name="Запасной", now=timezone.now())
    with pytest.raises(UserError):
        participant_save(tournament=event, user=director, number=1, name="Двойник", now=timezone.now())
    participant_save(
        tournament=event, user=director, participant=p, number=31, name="Запасной Игрок", now=timezone.now()
    )
    p.refresh_from_db()
    assert (p.number, p.name) == (31, "Запасной Игрок")
    seated_one = event.participants.get(number=1)
    with pytest.raises(UserError):
        participant_delete(participant=seated_one, user=director, now=timezone.now())
    with pytest.raises(UserError):
        participant_save(
            tournament=event, user=director, participant=seated_one, number=40, name="x", now=timezone.now()
        )
    participant_delete(participant=p, user=director, now=timezone.now())


def test_pins(event, director):
    assert new_pin(random.Random(1)) == new_pin(random.Random(1))
    event.participants.filter(number__lte=3).update(pin="")
    assert pins_assign(tournament=event, user=director, now=timezone.now()) == 3
    assert not event.participants.filter(pin="").exists()
