"""Reading an uploaded table (.xlsx or .csv) within bounds: one reader for every list a user uploads (an event's
participants, the register of persons). Each caller gives its limits and how a cell becomes text; the reader
refuses, in the user's words, a file too large, a workbook that unpacks too far, an unreadable file, and stops
reading past the row limit (a million-row sheet is never parsed)."""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.errors import UserError

__all__ = ["TableLimits", "read_table"]


@dataclass(frozen=True)
class TableLimits:
    file_max: int  # bytes of the upload
    rows_max: int  # filled rows (the header row comes on top)
    unpacked_max: int  # bytes of a workbook's parts, unzipped
    too_big: Callable[[int], str]  # the refusal of a workbook unpacking past ``unpacked_max`` MB
    columns_max: int = 50  # cells read from a row


def _decode(content: bytes) -> str:
    for encoding in ("utf-8-sig", "cp1251"):
        try:
            return content.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise UserError(_("The file is not text in UTF-8 or Windows-1251."))


def _rows_from_csv(content: bytes, limits: TableLimits, cell: Callable[[object], str]) -> list[list[str]]:
    text = _decode(content)
    first = text[:4096].splitlines()[0] if text.strip() else ""
    # The delimiter that splits the first line into the most fields (";" first: Russian Excel writes it).
    delimiter = max(";\t,", key=lambda d: len(next(csv.reader([first], delimiter=d), [])))
    rows: list[list[str]] = []
    try:
        for row in csv.reader(io.StringIO(text), delimiter=delimiter):
            rows.append([cell(c) for c in row[: limits.columns_max]])
            if len(rows) > 4 * limits.rows_max:
                break
    except csv.Error as exc:  # a field longer than csv's limit, a NUL byte, …
        raise UserError(_("The file cannot be read as a CSV table: %(problem)s") % {"problem": exc}) from exc
    return rows


def _rows_from_xlsx(content: bytes, limits: TableLimits, cell: Callable[[object], str]) -> list[list[str]]:
    from openpyxl import load_workbook

    try:  # a workbook that unpacks to far more than its rows need is refused before it is parsed
        unpacked = sum(entry.file_size for entry in zipfile.ZipFile(io.BytesIO(content)).infolist())
    except (zipfile.BadZipFile, ValueError) as exc:
        raise UserError(_("The file cannot be read as an Excel workbook (.xlsx).")) from exc
    if unpacked > limits.unpacked_max:
        raise UserError(limits.too_big(limits.unpacked_max // (1024 * 1024)))
    try:
        workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception as exc:  # noqa: BLE001 - any unreadable workbook is the same problem for the user
        raise UserError(_("The file cannot be read as an Excel workbook (.xlsx).")) from exc
    rows: list[list[str]] = []
    filled = 0
    for row in workbook.worksheets[0].iter_rows(values_only=True):  # stop past the limit
        cells = [cell(c) for c in row[: limits.columns_max]]
        rows.append(cells)
        filled += any(cells)
        if filled > limits.rows_max + 1 or len(rows) > 4 * limits.rows_max:
            break
    workbook.close()
    return rows


def read_table(
    *, filename: str, content: bytes, limits: TableLimits, cell: Callable[[object], str]
) -> list[tuple[int, list[str]]]:
    """The file's non-empty rows, each with its row number as in the file (the header row included). Refuses a
    file with no rows or with more than ``limits.rows_max`` besides the header, in the caller's limits."""
    if len(content) > limits.file_max:
        raise UserError(_("The file is larger than %(n)s MB.") % {"n": limits.file_max // (1024 * 1024)})
    lower = filename.lower()
    if lower.endswith(".xlsx"):
        rows = _rows_from_xlsx(content, limits, cell)
    elif lower.endswith((".csv", ".txt")):
        rows = _rows_from_csv(content, limits, cell)
    else:
        raise UserError(_("Upload an .xlsx or .csv file."))
    numbered = [(i, r) for i, r in enumerate(rows, start=1) if any(r)]
    if not numbered:
        raise UserError(_("The file has no lines."))
    if len(numbered) > limits.rows_max + 1:
        raise UserError(
            ngettext(
                "The file has more than %(n)s line.", "The file has more than %(n)s lines.", limits.rows_max
            )
            % {"n": limits.rows_max}
        )
    return numbered
