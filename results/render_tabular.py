"""Renderers for tabular exports: sheets of rows → an Excel workbook (openpyxl) or CSV.

Excel: one worksheet per sheet, a heading line, the column titles frozen under it with an auto-filter,
widths set per column; exact numbers are written as numbers (the nearest double) with a 2-decimal number
format, percentages as fractions with a ``0.00%`` format, so Excel sorts and sums them. Written in openpyxl's
write-only mode: a 9,000-row event (about 55,000 rows over all sheets) takes a few seconds.

Excel print setup: A4, fit to one page wide (as many pages tall as needed), the column titles repeated on every
printed page, landscape when the columns are too wide for a portrait page. The place column is a number where
the place is one (``3``) and text where it is shared (``3–4``) or none (``дискв.``).

CSV: UTF-8 with a byte-order mark (Excel opens it in the right encoding); the column titles are the first line
(no title line above them). The dialect follows the file's language, as Excel reads CSV in that locale: Russian
is separated by ``;`` with decimal commas (``104,5``; ``56,25``), English by ``,`` with decimal points. Numbers
are rounded half-up to 2 places (the core's rounding) by :func:`ui.templatetags.scores.display_number`,
the one formatter the pages and PDFs use too; a ``fixed`` column (a pulka event's vists and ratings) keeps both
places (``28,67``, ``12,00``), and a whole number given to it as an ``int`` stays whole (``-15``; in Excel with
the ``0`` format). A fraction is never written as ``31/3``, which Excel would read as a date. Several sheets
in one CSV file follow one another, each with its column titles, separated by an empty line.

Every text cell of both formats goes through :func:`ui.cells.safe_text`: characters no file can hold are
dropped, and text that would run as a formula gets an apostrophe in front (Excel cells are also written with
the string type, never as a formula).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from results.sheets import Sheet
from ui.cells import csv_delimiter, printable, safe_text
from ui.templatetags.scores import display_number

__all__ = ["csv_text", "render_csv", "render_xlsx", "safe_text"]

NUMBER_FORMATS = {"int": "0", "num": "0.00", "fixed": "0.00", "pct": "0.00%"}
_PORTRAIT_WIDTH = 95.0  # column width units that fit a portrait A4 page at the default margins
_HEAD_FONT = Font(bold=True)
_TITLE_FONT = Font(bold=True, size=13)
_HEAD_FILL = PatternFill("solid", fgColor="E6EBF0")
_WRAP = Alignment(wrap_text=True, vertical="center", horizontal="center")


def _text_cell(ws: Any, value: str) -> Any:
    cell = WriteOnlyCell(ws, safe_text(value))
    cell.data_type = "s"  # never a formula, whatever openpyxl would guess from a leading "="
    return cell


def _sheet_name(title: str, used: set[str]) -> str:
    name = "".join("_" if ch in "[]:*?/\\" else ch for ch in printable(title))[:31] or "Sheet"
    base, n = name, 1
    while name in used:
        n += 1
        name = f"{base[:28]} {n}"
    used.add(name)
    return name


def render_xlsx(sheets: Iterable[Sheet], progress: Callable[[int, int], None] | None = None) -> bytes:
    """The sheets as one workbook (bytes of an .xlsx file)."""
    sheets = list(sheets)
    total = sum(s.size for s in sheets) or 1
    done = 0
    wb = Workbook(write_only=True)
    used: set[str] = set()
    for sheet in sheets:
        ws = wb.create_sheet(_sheet_name(sheet.title, used))
        ncols = len(sheet.columns)
        for i, col in enumerate(sheet.columns, start=1):
            ws.column_dimensions[get_column_letter(i)].width = col.width
        ws.freeze_panes = "A3"
        _print_setup(
            ws, sum(c.width for c in sheet.columns)
        )  # before the first row: the sheet's top is written then
        title = _text_cell(ws, sheet.heading)
        title.font = _TITLE_FONT
        ws.append([title])
        head = []
        for col in sheet.columns:
            cell = _text_cell(ws, col.title)
            cell.font = _HEAD_FONT
            cell.fill = _HEAD_FILL
            cell.alignment = _WRAP
            head.append(cell)
        ws.row_dimensions[2].height = 30
        ws.append(head)
        kinds = [c.kind for c in sheet.columns]
        templates: list[Callable[[Any], Any]] = [_converter(ws, kind) for kind in kinds]
        written = 0
        for row in sheet.rows:
            ws.append([conv(value) for conv, value in zip(templates, row, strict=True)])
            written += 1
            if progress is not None and (done + written) % 2000 == 0:
                progress(done + written, total)
        done += written
        # the filter covers the rows as written (known only now: the rows are yielded)
        ws.auto_filter.ref = f"A2:{get_column_letter(ncols)}{written + 2}"
    buffer = io.BytesIO()
    wb.save(buffer)
    if progress is not None:
        progress(total, total)
    return buffer.getvalue()


def _print_setup(ws: Any, width: float) -> None:
    """A4, one page wide, the heading and column titles on every page; landscape when the sheet is wide."""
    ws.page_setup.paperSize = "9"  # A4 (ECMA-376 paper size code)
    ws.page_setup.orientation = "landscape" if width > _PORTRAIT_WIDTH else "portrait"
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0  # as many pages tall as the rows need
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.print_title_rows = "1:2"
    ws.print_options.gridLines = True


def _place(ws: Any, value: Any) -> Any:
    """A place is a number where it is one (``"3"`` → 3); a shared place (``"3–4"``) or a mark stays text."""
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return value if value is None else _text_cell(ws, str(value))


def _converter(ws: Any, kind: str) -> Callable[[Any], Any]:
    """How a value of a column kind becomes a cell: numbers get their number format, text stays text."""
    if kind == "place":
        return lambda value: _place(ws, value)
    fmt = NUMBER_FORMATS.get(kind)
    if fmt is None:
        return lambda value: _text_cell(ws, value) if isinstance(value, str) else value

    def convert(value: Any) -> Any:
        if value is None:
            return value
        if isinstance(value, str):
            return _text_cell(ws, value)
        if kind == "pct":
            number: float | int = float(Fraction(value) / 100)
        elif isinstance(value, Fraction):
            number = value.numerator if value.denominator == 1 else float(value)
        else:
            number = value
        if kind == "int":
            return number
        cell = WriteOnlyCell(ws, number)
        cell.number_format = "0" if kind == "fixed" and isinstance(value, int) else fmt
        return cell

    return convert


def csv_text(value: Any, kind: str, lang: str) -> str:
    """One CSV field: numbers in the language's decimal sign (percentages with both places), text made safe."""
    if value is None:
        return ""
    if isinstance(value, Fraction):
        return display_number(value, lang, trim=kind not in ("pct", "fixed"))
    return safe_text(str(value)) if isinstance(value, str) else str(value)


def render_csv(sheets: Iterable[Sheet], *, lang: str) -> bytes:
    """The sheets one after the other in one CSV file (UTF-8 with BOM) in the dialect of ``lang``: the column
    titles first, no title line; a further sheet after an empty line, again with its column titles."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=csv_delimiter(lang), lineterminator="\r\n")
    first = True
    for sheet in sheets:
        if not first:
            writer.writerow([])
        first = False
        writer.writerow([safe_text(c.title) for c in sheet.columns])
        kinds = [c.kind for c in sheet.columns]
        for row in sheet.rows:
            writer.writerow([csv_text(v, k, lang) for v, k in zip(row, kinds, strict=True)])
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")
