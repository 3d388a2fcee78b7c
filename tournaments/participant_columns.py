"""The columns of a participants list: the headers we recognise (Russian and English), whether the first row is
a header, each column's guessed role (number, the name whole or in parts, club, federation id) and what is wrong
with a mapping the director chose."""

from __future__ import annotations

import re
from collections.abc import Sequence

from django.utils.translation import gettext as _

__all__ = [
    "DEFAULT_ORDER",
    "HEADERS",
    "NAME_PARTS",
    "ROLES",
    "check_mapping",
    "guess_mapping",
    "header_key",
    "header_role",
    "looks_like_header",
    "role_label",
]

# Column roles of an import file. The name may come in one column or in parts (surname, first name,
# patronymic), joined in that order; "" means the column is ignored.
ROLES = ("number", "name", "last_name", "first_name", "middle_name", "club", "federation_id")
NAME_PARTS = ("name", "last_name", "first_name", "middle_name")

# Column headers we recognise, written as :func:`header_key` leaves them (lower case, «ё» as «е», punctuation
# as single spaces). One place for every header the import, its preview and its tests know.
HEADERS: dict[str, tuple[str, ...]] = {
    "number": (
        "number",
        "no",
        "nr",
        "n",
        "num",
        "#",
        "№",
        "№ п п",
        "п п",
        "номер",
        "номер участника",
        "№ участника",
        "start number",
        "starting number",
        "player number",
        "стартовый номер",
        "ст номер",
        "ст №",
    ),
    "name": (
        "name",
        "full name",
        "player",
        "player name",
        "participant",
        "participant name",
        "фио",
        "ф и о",
        "участник",
        "игрок",
        "спортсмен",
        "фамилия имя",
        "фамилия и имя",
        "фамилия имя отчество",
        "фамилия и о",
        "имя фамилия",
        "имя и фамилия",
    ),
    "last_name": ("фамилия", "last name", "surname", "family name"),
    "first_name": ("имя", "first name", "given name", "forename"),
    "middle_name": ("отчество", "middle name", "patronymic"),
    "club": (
        "club",
        "клуб",
        "команда",
        "team",
        "город",
        "city",
        "клуб город",
        "город клуб",
        "регион",
        "region",
    ),
    "federation_id": (
        "federation id",
        "federation number",
        "federation no",
        "fed id",
        "fsp",
        "fsp id",
        "fsp number",
        "fsp no",
        "member id",
        "id",
        "код",
        "фсп",
        "номер фсп",
        "№ фсп",
        "id фсп",
        "фсп id",
        "код фсп",
        "номер в фсп",
        "номер в федерации",
        "номер федерации",
        "id федерации",
        "код федерации",
        "членский номер",
        "рейтинг id",
        "рейтинг лист id",
        "id рейтинг лист",
        "id в рейтинг листе",
        "номер в рейтинг листе",
        "рейтинговый номер",
        "rating id",
        "rating list id",
    ),
}
_HEADER_ROLE = {name: role for role, names in HEADERS.items() for name in names}
DEFAULT_ORDER = ("number", "name", "club", "federation_id")  # a file without a header row


def header_key(text: str) -> str:
    """A header cell as compared: lower case, «ё» as «е», every run of punctuation or spaces one space
    («Номер ФСП:», «номер-фсп» and «НОМЕР  ФСП» are the same header)."""
    text = text.lower().replace("ё", "е")
    text = re.sub(r"[^\w№#]+", " ", text).replace("_", " ")
    return " ".join(text.split())


def header_role(text: str) -> str | None:
    """What a header cell names (one of :data:`ROLES`), or None when it is no header we know."""
    return _HEADER_ROLE.get(header_key(text))


def looks_like_header(row: Sequence[str]) -> bool:
    """A row is the header when most of its filled cells are header words: at least one, and at least half
    («Фамилия Имя; Клуб; Номер ФСП» is a header, «1; Иванов Иван; Спартак» is data)."""
    filled = [c for c in row if c.strip()]
    known = sum(1 for c in filled if header_role(c) is not None)
    return known > 0 and 2 * known >= len(filled)


def guess_mapping(first_row: Sequence[str], width: int) -> tuple[bool, tuple[str, ...]]:
    """Whether the first row is a header, and each column's role ("" = ignored). Without a header the
    columns are read in the order number, name, club, federation id. A role goes to its first column only."""
    if not looks_like_header(first_row):
        return False, tuple(DEFAULT_ORDER[i] if i < len(DEFAULT_ORDER) else "" for i in range(width))
    roles: list[str] = []
    for i in range(width):
        role = header_role(first_row[i]) if i < len(first_row) else None
        roles.append(role if role and role not in roles else "")
    return True, tuple(roles)


def check_mapping(mapping: Sequence[str]) -> list[str]:
    """What is wrong with a column mapping, in the director's words (empty when it can be read)."""
    problems = []
    for role in ROLES:
        if sum(1 for r in mapping if r == role) > 1:
            problems.append(_("Two columns are read as “%(role)s”: choose one.") % {"role": role_label(role)})
    if not any(r in NAME_PARTS for r in mapping):
        problems.append(_("No column is read as the name: choose the column with the names."))
    return problems


def role_label(role: str) -> str:
    """A role as the import page names it ("" = the column is ignored)."""
    labels = {
        "number": _("Number"),
        "name": _("Full name"),
        "last_name": _("Surname"),
        "first_name": _("First name"),
        "middle_name": _("Patronymic"),
        "club": _("Club"),
        "federation_id": _("Federation id"),
        "": _("ignore (do not import)"),
    }
    return labels[role]
