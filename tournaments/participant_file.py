"""Reading a participants list (.xlsx or .csv) into a preview: the columns guessed from the header row (or
number, name, club, federation id without one; a federation or club rating only by its header or the director's
choice), every line checked and its problems listed, numbers given to
lines without one. Nothing is saved here; the import (``events.participants``) registers the good lines."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from preferans.bundle.bounds import PARTICIPANT_NUMBER_MAX
from tournaments.errors import UserError
from tournaments.participant_columns import NAME_PARTS, ROLES, check_mapping, guess_mapping, role_label
from tournaments.participant_fields import (
    clean_text,
    number_problem,
    parse_rating,
    rating_text,
    text_problems,
)
from tournaments.tabular import TableLimits, read_table

__all__ = [
    "FILE_MAX",
    "MAX_ROWS",
    "ImportColumn",
    "ImportLine",
    "ImportPreview",
    "preview_rows",
    "read_participants_file",
    "read_rows",
]

MAX_ROWS = 2000
FILE_MAX = 2 * 1024 * 1024  # an import file: 2,000 lines of a list fit in far less
COLUMNS_MAX = 50  # columns read from a line
XLSX_UNPACKED_MAX = 4 * 1024 * 1024  # a workbook's parts, unzipped: 2,000 lines take well under 1 MB


@dataclass(frozen=True)
class ImportLine:
    """One line of an import file as read: the values, and what is wrong with it (empty when fine)."""

    line: int
    number: int | None
    name: str
    club: str = ""
    federation_id: str = ""
    errors: tuple[str, ...] = ()
    rating: str = ""  # the federation's or club's rating as read ("1650", "1650.5"; "" = none given)

    @property
    def ok(self) -> bool:
        return not self.errors

    def to_dict(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "number": self.number,
            "name": self.name,
            "club": self.club,
            "federation_id": self.federation_id,
            "errors": list(self.errors),
            "rating": self.rating,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ImportLine:
        return cls(
            d["line"],
            d["number"],
            d["name"],
            d.get("club", ""),
            d.get("federation_id", ""),
            tuple(d.get("errors", ())),
            str(d.get("rating", "")),
        )


@dataclass(frozen=True)
class ImportColumn:
    """One column of the file: its header (or its first value when there is no header), an example value, and
    what it is read as ("" = ignored)."""

    index: int
    title: str
    sample: str
    role: str

    @property
    def letter(self) -> str:
        """The column's name as in a spreadsheet: A, B, …, Z, AA, …"""
        n, out = self.index + 1, ""
        while n:
            n, rest = divmod(n - 1, 26)
            out = chr(ord("A") + rest) + out
        return out

    @property
    def role_label(self) -> str:
        return role_label(self.role)


@dataclass(frozen=True)
class ImportPreview:
    lines: tuple[ImportLine, ...]
    problems: tuple[str, ...] = field(default=())  # problems of the file as a whole
    columns: tuple[ImportColumn, ...] = field(default=())
    header: bool = False  # the file's first line is a header row, not a participant

    @property
    def ignored(self) -> tuple[ImportColumn, ...]:
        return tuple(c for c in self.columns if not c.role)

    @property
    def mapping(self) -> tuple[str, ...]:
        return tuple(c.role for c in self.columns)

    @property
    def good(self) -> tuple[ImportLine, ...]:
        return tuple(line for line in self.lines if line.ok)

    @property
    def bad(self) -> tuple[ImportLine, ...]:
        return tuple(line for line in self.lines if not line.ok)


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return clean_text(str(value))


_LIMITS = TableLimits(
    file_max=FILE_MAX,
    rows_max=MAX_ROWS,
    columns_max=COLUMNS_MAX,
    unpacked_max=XLSX_UNPACKED_MAX,
    too_big=lambda mb: (
        _("The workbook unpacks to more than %(n)s MB: save the list of participants alone and upload it.")
        % {"n": mb}
    ),
)


def read_rows(*, filename: str, content: bytes) -> list[tuple[int, list[str]]]:
    """The file's non-empty lines (.xlsx or .csv), each with its line number as in the file."""
    return read_table(filename=filename, content=content, limits=_LIMITS, cell=_cell)


def read_participants_file(
    *, filename: str, content: bytes, registered: Iterable[int] = (), replace: bool = False
) -> ImportPreview:
    """Read a participants list (.xlsx or .csv) with the columns guessed from its header row (or number, name,
    club, federation id without one). Nothing is saved; every line is checked and its problems listed."""
    return preview_rows(read_rows(filename=filename, content=content), registered=registered, replace=replace)


def preview_rows(
    numbered: Sequence[tuple[int, Sequence[str]]],
    *,
    mapping: Sequence[str] | None = None,
    header: bool | None = None,
    registered: Iterable[int] = (),
    replace: bool = False,
) -> ImportPreview:
    """The lines of a file read with a column mapping (each column's role, "" = ignored; guessed when None)
    and with or without a header row (guessed when None). Nothing is saved."""
    width = max(len(r) for _, r in numbered)
    guessed_header, guessed = guess_mapping(numbered[0][1], width)
    header = guessed_header if header is None else header
    roles = tuple(guessed if mapping is None else (list(mapping) + [""] * width)[:width])
    unknown = [r for r in roles if r and r not in ROLES]
    if unknown:
        raise UserError(_("Unknown column kind: %(kind)s.") % {"kind": unknown[0]})
    first = numbered[0][1]
    data = list(numbered[1:] if header else numbered)
    if len(data) > MAX_ROWS:
        raise UserError(
            ngettext("The file has more than %(n)s line.", "The file has more than %(n)s lines.", MAX_ROWS)
            % {"n": MAX_ROWS}
        )

    def cell(row: Sequence[str], i: int) -> str:
        return row[i] if i < len(row) else ""

    columns = tuple(
        ImportColumn(
            i,
            cell(first, i) if header else "",
            next((cell(r, i) for _, r in data if cell(r, i)), ""),
            roles[i],
        )
        for i in range(width)
    )
    problems = tuple(check_mapping(roles))
    if problems:
        return ImportPreview((), problems, columns, header)
    where = {role: i for i, role in enumerate(roles) if role}
    taken = set() if replace else set(registered)
    in_file: dict[int, int] = {}
    parsed: list[tuple[int, int | None, str, str, str, list[str], str]] = []
    for index, row in data:

        def value(column: str, row: Sequence[str] = row) -> str:
            i = where.get(column)
            return cell(row, i).strip() if i is not None else ""

        errors: list[str] = []
        raw_number = value("number")
        name = " ".join(" ".join(value(part) for part in NAME_PARTS).split())
        number: int | None = None
        if raw_number:
            digits = raw_number.rstrip(".")
            number = int(digits) if digits.isascii() and digits.isdigit() and len(digits) <= 6 else None
            if number is None or number_problem(number):
                errors.append(
                    _("the number “%(value)s” is not a whole number from 1 to %(max)s")
                    % {"value": raw_number[:12], "max": PARTICIPANT_NUMBER_MAX}
                )
                number = None
        if number is not None:
            if number in in_file:
                errors.append(
                    _("number %(n)s is also on line %(line)s") % {"n": number, "line": in_file[number]}
                )
            elif number in taken:
                errors.append(_("number %(n)s is already registered") % {"n": number})
            in_file.setdefault(number, index)
        club, fed = value("club"), value("federation_id")
        if not name:
            errors.append(_("no name"))
        errors += text_problems(name=name, club=club, federation_id=fed)
        rating, rating_problem = parse_rating(value("rating"))
        if rating_problem:
            errors.append(rating_problem)
        parsed.append((index, number, name, club, fed, errors, rating_text(rating)))
    # Lines without a number get the next free ones, in file order.
    used = taken | set(in_file)
    next_free = 1
    lines: list[ImportLine] = []
    for index, number, name, club, fed, errors, rating_read in parsed:
        if number is None and not errors:
            while next_free in used:
                next_free += 1
            if next_free > PARTICIPANT_NUMBER_MAX:
                errors.append(
                    _("no free number is left (numbers go up to %(max)s)") % {"max": PARTICIPANT_NUMBER_MAX}
                )
            else:
                number = next_free
                used.add(number)
        lines.append(ImportLine(index, number, name, club, fed, tuple(errors), rating_read))
    return ImportPreview(tuple(lines), (), columns, header)
