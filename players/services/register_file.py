"""The register's file: import (all or nothing, bounded, idempotent) and the rows of its export.

Columns: name, club, city, federation number (a header row in either language, or this order without one).
Read as the participants import reads its lists (events.participants, a layer above this one,
whose bounds are repeated here): at most a few MB, a bounded number of rows and columns, control characters out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from players.models import Person
from players.services.register import check_texts, clean, name_key, site_log
from tournaments.errors import Detail, UserError
from tournaments.tabular import TableLimits, read_table

ROWS_MAX = 20000  # a federation's register: ten times an event's list
FILE_MAX = 4 * 1024 * 1024
COLUMNS_MAX = 50
XLSX_UNPACKED_MAX = 16 * 1024 * 1024
COLUMNS = ("name", "club", "city", "federation_id")  # the file's columns, in this order without a header
_HEADERS = {
    "name": ("name", "full name", "player", "фио", "ф и о", "имя", "игрок", "участник", "фамилия имя"),
    "club": ("club", "клуб", "team", "команда"),
    "city": ("city", "город", "town", "регион", "region"),
    "federation_id": (
        "federation number",
        "federation id",
        "federation no",
        "fed id",
        "id",
        "номер фсп",
        "фсп",
        "номер в фсп",
        "номер федерации",
        "номер в федерации",
        "федеральный номер",
        "код фсп",
    ),
}
_HEADER_ROLE = {h: role for role, names in _HEADERS.items() for h in names}
_FORMULA_START = ("=", "+", "-", "@")


def export_rows() -> Iterable[tuple[str, str, str, str]]:
    """The register as its file holds it: name, club, city, federation number (merged persons left out)."""
    for p in Person.objects.filter(merged_into__isnull=True).order_by("name", "pk").iterator():
        yield p.name, p.club, p.city, p.federation_id


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = clean(str(value))
    if text.startswith("'") and text[1:].lstrip(" ").startswith(_FORMULA_START):
        text = text[1:]  # the apostrophe a safe export puts before formula-like text
    return text


_LIMITS = TableLimits(
    file_max=FILE_MAX,
    rows_max=ROWS_MAX,
    columns_max=COLUMNS_MAX,
    unpacked_max=XLSX_UNPACKED_MAX,
    too_big=lambda mb: _("The workbook unpacks to more than %(n)s MB.") % {"n": mb},
)


def read_file(*, filename: str, content: bytes) -> list[tuple[int, list[str]]]:
    """The file's non-empty rows (.xlsx or .csv), each with its row number as in the file."""
    return read_table(filename=filename, content=content, limits=_LIMITS, cell=_cell)


def column_label(role: str) -> str:
    return {"name": _("name"), "club": _("club"), "city": _("city"), "federation_id": _("federation number")}[
        role
    ]


def _header_key(text: str) -> str:
    text = text.casefold().replace("ё", "е")
    return " ".join(re.sub(r"[^\w№#]+", " ", text).replace("_", " ").split())


@dataclass(frozen=True)
class PlanRow:
    """One row of the file and what importing it does: ``new``, ``update`` (with the person) or ``same``."""

    row: int
    name: str
    club: str
    city: str
    federation_id: str
    action: str
    person: int | None = None

    def to_list(self) -> list[Any]:
        return [self.row, self.name, self.club, self.city, self.federation_id, self.action, self.person]


def _mapping(first: Sequence[str]) -> tuple[bool, dict[str, int]]:
    roles = [_HEADER_ROLE.get(_header_key(c)) for c in first]
    filled = [c for c in first if c]
    known = [r for r in roles if r]
    if known and 2 * len(known) >= len(filled):
        where: dict[str, int] = {}
        for i, role in enumerate(roles):
            if role and role not in where:
                where[role] = i
        if "name" not in where:
            raise UserError(_("Row 1: no column is the name (columns: name, club, city, federation number)."))
        return True, where
    return False, {role: i for i, role in enumerate(COLUMNS)}


def plan_import(numbered: Sequence[tuple[int, Sequence[str]]]) -> list[PlanRow]:
    """What importing these rows does, row by row. Nothing is saved. The first problem refuses the whole file,
    naming its row and column (:class:`UserError`)."""
    header, where = _mapping(numbered[0][1])
    data = numbered[1:] if header else numbered
    if not data:
        raise UserError(_("The file has no rows."))
    existing = {
        p.federation_id: p for p in Person.objects.filter(merged_into__isnull=True).exclude(federation_id="")
    }
    without = {
        (name_key(p.name), name_key(p.club), name_key(p.city))
        for p in Person.objects.filter(merged_into__isnull=True, federation_id="")
    }
    seen: dict[str, int] = {}
    plan: list[PlanRow] = []
    for row, cells in data:
        values = {r: (cells[i] if i < len(cells) else "") for r, i in where.items()}
        name, club, city = values.get("name", ""), values.get("club", ""), values.get("city", "")
        number = values.get("federation_id", "")
        problems = check_texts(name, club, city, number)
        if problems:
            role = next(iter(problems))
            raise UserError(
                _("Row %(row)s, column «%(column)s»: %(problem)s")
                % {"row": row, "column": column_label(role), "problem": problems[role]},
                code="register_row",
                details=[Detail(role, "invalid", problems[role])],
            )
        if number:
            if number in seen:
                raise UserError(
                    _("Row %(row)s, column «%(column)s»: number %(n)s is also on row %(other)s.")
                    % {
                        "row": row,
                        "column": column_label("federation_id"),
                        "n": number,
                        "other": seen[number],
                    },
                    code="register_row",
                    details=[Detail("federation_id", "duplicate", str(seen[number]))],
                )
            seen[number] = row
            person = existing.get(number)
            if person is None:
                plan.append(PlanRow(row, name, club, city, number, "new"))
            elif (person.name, person.club, person.city) == (name, club, city):
                plan.append(PlanRow(row, name, club, city, number, "same", person.pk))
            else:
                plan.append(PlanRow(row, name, club, city, number, "update", person.pk))
        else:
            key = (name_key(name), name_key(club), name_key(city))
            plan.append(PlanRow(row, name, club, city, "", "same" if key in without else "new"))
            without.add(key)  # the same person twice in a file is made once
    return plan


@transaction.atomic
def apply_import(rows: Sequence[Sequence[Any]], *, user: Any) -> dict[str, int]:
    """Save an import planned by :func:`plan_import` (its rows as lists, e.g. from the preview): planned again
    against the register as it is now, so a file imported twice changes nothing. Returns the counts."""
    plan = plan_import([(0, list(COLUMNS)), *((int(r[0]), [str(v) for v in r[1:5]]) for r in rows)])
    counts = {"new": 0, "update": 0, "same": 0}
    for p in plan:
        counts[p.action] += 1
        if p.action == "new":
            Person.objects.create(name=p.name, club=p.club, city=p.city, federation_id=p.federation_id)
        elif p.action == "update":
            Person.objects.filter(pk=p.person).update(name=p.name, club=p.club, city=p.city)
    if user is not None and (counts["new"] or counts["update"]):
        site_log(user, None, "register.import", counts)
    return counts
