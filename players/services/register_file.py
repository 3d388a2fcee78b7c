"""The register's file: import (all or nothing, bounded, idempotent) and the rows of its export.

Columns: name (whole or in parts), club, city, federation number, the federation's or club's rating and its source,
recognised by their headers in either language as the participants list's are (one rule:
``tournaments.participant_columns``), or in this order without a header row; columns it does not know are ignored
(a «№» column is not a federation number).
Read as the participants import reads its lists (events.participants, a layer above this one,
whose bounds are repeated here): at most a few MB, a bounded number of rows and columns, control characters out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from players.models import Person
from players.services.register import check_texts, clean, name_key, site_log
from preferans.bundle.bounds import TEXT_MAX
from tournaments.errors import Detail, UserError
from tournaments.participant_columns import NAME_PARTS, check_mapping, guess_mapping
from tournaments.participant_fields import parse_rating, rating_text
from tournaments.tabular import TableLimits, read_table

ROWS_MAX = 20000  # a federation's register: ten times an event's list
FILE_MAX = 4 * 1024 * 1024
COLUMNS_MAX = 50
XLSX_UNPACKED_MAX = 16 * 1024 * 1024
# The roles the register reads (one header rule with the participants list: tournaments.participant_columns) and
# its columns in this order without a header row (the export's order).
COLUMNS = ("name", "club", "city", "federation_id", "rating", "rating_source")
ROLES = ("name", "last_name", "first_name", "middle_name", *COLUMNS[1:])
_FORMULA_START = ("=", "+", "-", "@")


def export_rows() -> Iterable[tuple[str, str, str, str, str, str]]:
    """The register as its file holds it: name, club, city, federation number, declared rating and its source
    (merged persons left out)."""
    for p in Person.objects.filter(merged_into__isnull=True).order_by("name", "pk").iterator():
        rating = rating_text(p.declared_rating)
        yield p.name, p.club, p.city, p.federation_id, rating, p.declared_rating_source if rating else ""


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
    return {
        "name": _("name"),
        "club": _("club"),
        "city": _("city"),
        "federation_id": _("federation number"),
        "rating": _("federation or club rating"),
        "rating_source": _("source of the rating"),
    }[role]


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
    rating: str = ""  # the declared rating as read ("" = the row gives none: the person's stays)
    rating_source: str = ""

    def to_list(self) -> list[Any]:
        return [
            self.row,
            self.name,
            self.club,
            self.city,
            self.federation_id,
            self.rating,
            self.rating_source,
            self.action,
            self.person,
        ]


def mapping(first: Sequence[str], width: int) -> tuple[bool, tuple[str, ...]]:
    """Whether the first row is a header, and each column's role ("" = ignored): the participants list's rule
    with the register's roles (tournaments.participant_columns.guess_mapping). Refuses a header without a name."""
    header, roles = guess_mapping(first, width, roles=ROLES, default_order=COLUMNS)
    problems = check_mapping(roles, ROLES)
    if header and problems:
        raise UserError(
            _("Row 1: %(problem)s (columns: name, club, city, federation number, rating, its source).")
            % {"problem": " ".join(problems)}
        )
    return header, roles


def plan_import(
    numbered: Sequence[tuple[int, Sequence[str]]], *, roles: Sequence[str] | None = None
) -> list[PlanRow]:
    """What importing these rows does, row by row (``roles``: each column's role, guessed from the header row
    when None). Nothing is saved. The first problem refuses the whole file, naming its row and column
    (:class:`UserError`)."""
    width = max(len(cells) for _row, cells in numbered)
    if roles is None:
        header, roles = mapping(numbered[0][1], width)
    else:
        header = False
    where: dict[str, list[int]] = {}
    for i, role in enumerate(roles):
        if role:
            where.setdefault(role, []).append(i)
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
        values = {r: (cells[i[0]] if i[0] < len(cells) else "") for r, i in where.items()}
        name = " ".join(" ".join(values.get(part, "") for part in NAME_PARTS).split())
        club, city = values.get("club", ""), values.get("city", "")
        number = values.get("federation_id", "")
        problems = check_texts(name, club, city, number)
        rating_value, rating_problem = parse_rating(values.get("rating", ""))
        rating = rating_text(rating_value)
        source = values.get("rating_source", "") if rating else ""
        if rating_problem:
            problems.setdefault("rating", rating_problem)
        if len(source) > TEXT_MAX:
            problems.setdefault(
                "rating_source",
                ngettext("Longer than %(n)s character.", "Longer than %(n)s characters.", TEXT_MAX)
                % {"n": TEXT_MAX},
            )
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
                action = "new"
            else:
                same = (person.name, person.club, person.city) == (name, club, city) and (
                    not rating
                    or (rating_text(person.declared_rating), person.declared_rating_source)
                    == (rating, source)
                )
                action = "same" if same else "update"
            plan.append(PlanRow(row, name, club, city, number, action, person and person.pk, rating, source))
        else:
            key = (name_key(name), name_key(club), name_key(city))
            action = "same" if key in without else "new"
            plan.append(PlanRow(row, name, club, city, "", action, None, rating, source))
            without.add(key)  # the same person twice in a file is made once
    return plan


@transaction.atomic
def apply_import(rows: Sequence[Sequence[Any]], *, user: Any) -> dict[str, int]:
    """Save an import planned by :func:`plan_import` (its rows as lists, e.g. from the preview): planned again
    against the register as it is now, so a file imported twice changes nothing. Returns the counts."""
    width = len(COLUMNS)
    plan = plan_import([(int(r[0]), [str(v) for v in r[1 : 1 + width]]) for r in rows], roles=COLUMNS)
    counts = {"new": 0, "update": 0, "same": 0}
    for p in plan:
        counts[p.action] += 1
        # A row without a rating leaves the person's as it is (a file never erases a rating: the software's choice).
        rated = (
            {"declared_rating": Decimal(p.rating), "declared_rating_source": p.rating_source}
            if p.rating
            else {}
        )
        if p.action == "new":
            Person.objects.create(
                name=p.name, club=p.club, city=p.city, federation_id=p.federation_id, **rated
            )
        elif p.action == "update":
            Person.objects.filter(pk=p.person).update(name=p.name, club=p.club, city=p.city, **rated)
    if user is not None and (counts["new"] or counts["update"]):
        site_log(user, None, "register.import", counts)
    return counts
