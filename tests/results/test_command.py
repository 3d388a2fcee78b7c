"""``manage.py export_results`` (formats.md §6) as a subprocess-like call: files, exit status, streams."""

from __future__ import annotations

import io
from io import StringIO

import openpyxl
import pytest
from django.core.management import call_command
from pypdf import PdfReader

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("fmt", ["xlsx", "csv", "pdf"])
def test_writes_each_format(demo, tmp_path, fmt):
    out = tmp_path / f"results.{fmt}"
    call_command("export_results", "demo", "--format", fmt, "--output", str(out), stdout=StringIO())
    body = out.read_bytes()
    if fmt == "xlsx":
        assert openpyxl.load_workbook(io.BytesIO(body)).sheetnames == ["Итоги", "Протоколы"]
    elif fmt == "pdf":
        text = PdfReader(io.BytesIO(body)).pages[0].extract_text()
        assert "Итоговая таблица" in text
    else:
        lines = body.decode("utf-8-sig").splitlines()  # Russian Excel's dialect, the column titles first
        assert lines[0].startswith("Место;№;") and any(line.startswith("Сдача;Тур;") for line in lines)


def test_other_kinds_by_command(demo, tmp_path):
    for kind, fmt in (
        ("table_cards", "pdf"),
        ("row_of_sets", "pdf"),
        ("cost_table", "pdf"),
        ("appeal_form", "pdf"),
        ("cards", "pdf"),
        ("workbook", "xlsx"),
    ):
        out = tmp_path / f"{kind}.{fmt}"
        call_command(
            "export_results",
            "demo",
            "--kind",
            kind,
            "--format",
            fmt,
            "--output",
            str(out),
            "--lang",
            "en",
            stdout=StringIO(),
        )
        assert out.stat().st_size > 1000


@pytest.mark.parametrize(
    "args",
    [
        ["nope", "--format", "xlsx"],
        ["demo", "--format", "docx"],
        ["demo", "--format", "pdf", "--kind", "nonsense"],
        ["demo", "--format", "pdf", "--lang", "de"],
    ],
)
def test_bad_input_exits_2_with_a_message_and_nothing_on_stdout(demo, tmp_path, args):
    out, err = StringIO(), StringIO()
    with pytest.raises(SystemExit) as exc:
        call_command("export_results", *args, "--output", str(tmp_path / "x"), stdout=out, stderr=err)
    assert exc.value.code == 2
    assert out.getvalue() == "" and err.getvalue().strip()
    assert not (tmp_path / "x").exists()
