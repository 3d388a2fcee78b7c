"""Names typed by anyone never become spreadsheet formulas in any tabular export (OWASP CSV injection)."""

from __future__ import annotations

import io

from openpyxl import load_workbook

from results.render_tabular import render_csv, render_xlsx, safe_text
from results.sheets import Column, Sheet

HOSTILE = ['=HYPERLINK("http://evil","x")', "@SUM(A1)", "+cmd|' /C calc'!A0", "-2+3", "\t=1"]


def test_safe_text() -> None:
    for text in HOSTILE:
        assert safe_text(text).startswith("'")
    for text in ("-", "-5", "+7", "-43/2", "Иванов", "6S", "", "10,5"):
        assert safe_text(text) == text


def _sheet() -> Sheet:
    return Sheet(
        key="t",
        title="t",
        heading="=1+1 heading",
        columns=[Column("name", "text", 20), Column("n", "num", 8)],
        rows=[[name, 1] for name in HOSTILE],
        size=len(HOSTILE),
    )


def test_no_formula_in_xlsx_or_csv() -> None:
    wb = load_workbook(io.BytesIO(render_xlsx([_sheet()])))
    cells = [c for row in wb.active.iter_rows() for c in row if c.value is not None]
    assert not [c.value for c in cells if c.data_type == "f"]
    assert any(c.value == '\'=HYPERLINK("http://evil","x")' for c in cells)
    text = render_csv([_sheet()], lang="en").decode("utf-8-sig")
    assert "\n'@SUM(A1)," in text.replace("\r\n", "\n")
