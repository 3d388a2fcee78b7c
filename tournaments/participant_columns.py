"""The columns of a list of players: the headers we recognise (Russian and English), whether the first row is
a header, each column's guessed role (number, the name whole or in parts, club, federation id, rating) and what is
wrong with a mapping the director chose. One rule for the participants list of an event and for the player
register's file (``players.services.register_file``): each passes the roles it reads (its ``roles``), a header of
a role it does not read falls back to its alias («Город» is the participant's club, the register's city)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from django.utils.translation import gettext as _

__all__ = [
    "ALIASES",
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
# "rating" is the player's federation or club rating (a number), not the product's computed rating.
ROLES = ("number", "name", "last_name", "first_name", "middle_name", "club", "federation_id", "rating")
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
        "клуб город",
        "город клуб",
    ),
    "city": ("город", "city", "town", "регион", "region"),
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
        "федеральный номер",
    ),
    "rating": (
        "рейтинг",
        "rating",
        "рейтинг федерации",
        "рейтинг клуба",
        "рейтинг федерации или клуба",
        "клубный рейтинг",
        "рейтинг фсп",
        "рейтинг игрока",
        "эло",
        "elo",
        "federation rating",
        "club rating",
        "federation or club rating",
        "fsp rating",
        "player rating",
    ),
    "rating_source": ("источник рейтинга", "rating source", "source of the rating"),
}
_HEADER_ROLE = {name: role for role, names in HEADERS.items() for name in names}
# A header's role read as another by a list that does not hold the first: a participant has one «club» field,
# often a city.
ALIASES = {"city": "club"}
DEFAULT_ORDER = ("number", "name", "club", "federation_id")  # a participants file without a header row


def header_key(text: str) -> str:
    """A header cell as compared: lower case, «ё» as «е», every run of punctuation or spaces one space
    («Номер ФСП:», «номер-фсп» and «НОМЕР  ФСП» are the same header)."""
    text = text.lower().replace("ё", "е")
    text = re.sub(r"[^\w№#]+", " ", text).replace("_", " ")
    return " ".join(text.split())


def header_role(text: str, roles: Sequence[str] = ROLES) -> str | None:
    """What a header cell names among ``roles`` (or its alias there), or None when it is no header we know or
    names nothing the list reads."""
    role = _HEADER_ROLE.get(header_key(text))
    if role is not None and role not in roles:
        role = ALIASES.get(role)
    return role if role in roles else None


def looks_like_header(row: Sequence[str]) -> bool:
    """A row is the header when most of its filled cells are header words (of any list): at least one, and at
    least half («Фамилия Имя; Клуб; Номер ФСП» is a header, «1; Иванов Иван; Спартак» is data)."""
    filled = [c for c in row if c.strip()]
    known = sum(1 for c in filled if header_key(c) in _HEADER_ROLE)
    return known > 0 and 2 * known >= len(filled)


def guess_mapping(
    first_row: Sequence[str],
    width: int,
    *,
    roles: Sequence[str] = ROLES,
    default_order: Sequence[str] = DEFAULT_ORDER,
) -> tuple[bool, tuple[str, ...]]:
    """Whether the first row is a header, and each column's role ("" = ignored). Without a header the
    columns are read in ``default_order`` (a participants list: number, name, club, federation id). A role goes
    to its first column only, and to a column named by an alias only when no column names the role itself."""
    if not looks_like_header(first_row):
        return False, tuple(default_order[i] if i < len(default_order) else "" for i in range(width))
    cells = [first_row[i] if i < len(first_row) else "" for i in range(width)]
    exact = [_HEADER_ROLE.get(header_key(c)) for c in cells]
    found: list[str] = []
    for cell, named in zip(cells, exact, strict=True):
        role = header_role(cell, roles)
        # A header of the role itself wins over an alias («Город; Клуб»: the club is «Клуб», the city ignored).
        taken = role in found or (role != named and role in exact)
        found.append(role if role and not taken else "")
    return True, tuple(found)


def check_mapping(mapping: Sequence[str], roles: Sequence[str] = ROLES) -> list[str]:
    """What is wrong with a column mapping, in the director's words (empty when it can be read)."""
    problems = []
    for role in roles:
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
        "city": _("City"),
        "federation_id": _("Federation id"),
        "rating": _("Federation or club rating"),
        "rating_source": _("Source of the rating"),
        "": _("ignore (do not import)"),
    }
    return labels[role]
