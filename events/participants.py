"""Registering participants: one by one, or from an .xlsx/.csv file with a preview and per-line errors;
PINs for confirming rows at the table."""

from __future__ import annotations

import datetime as dt
import random
import re
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from players.services.register import link_event
from preferans.bundle.bounds import PARTICIPANT_NUMBER_MAX, PARTICIPANTS_MAX, TEXT_MAX, strip_controls
from scoring.models import Penalty, Result
from tournaments.audit import log_action
from tournaments.errors import UserError
from tournaments.models import Participant, Seating, Tournament
from tournaments.tabular import TableLimits, read_table

PIN_LENGTH = 4
MAX_ROWS = 2000
NAME_MAX = TEXT_MAX  # Participant.name and .club
FEDERATION_ID_MAX = 64  # Participant.federation_id
FILE_MAX = 2 * 1024 * 1024  # an import file: 2,000 lines of a list fit in far less
COLUMNS_MAX = 50  # columns read from a line
XLSX_UNPACKED_MAX = 4 * 1024 * 1024  # a workbook's parts, unzipped: 2,000 lines take well under 1 MB

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


@dataclass(frozen=True)
class ImportLine:
    """One line of an import file as read: the values, and what is wrong with it (empty when fine)."""

    line: int
    number: int | None
    name: str
    club: str = ""
    federation_id: str = ""
    errors: tuple[str, ...] = ()

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


def number_problem(number: int) -> str | None:
    """What is wrong with a participant number (formats.md §2: 1 to 9999), in the director's words."""
    if not 1 <= number <= PARTICIPANT_NUMBER_MAX:
        return _("Participant numbers are whole numbers from 1 to %(max)s.") % {"max": PARTICIPANT_NUMBER_MAX}
    return None


def text_problems(*, name: str, club: str = "", federation_id: str = "") -> list[str]:
    """Texts longer than the list keeps (control characters are already stripped by :func:`clean_texts`)."""
    problems = []
    for label, value, bound in (
        (_("the name"), name, NAME_MAX),
        (_("the club"), club, NAME_MAX),
        (_("the federation id"), federation_id, FEDERATION_ID_MAX),
    ):
        if len(value) > bound:
            problems.append(_("%(what)s is longer than %(n)s characters") % {"what": label, "n": bound})
    return problems


def clean_text(value: str) -> str:
    """A name, club or id as typed: control characters out (``strip_controls``), spaces trimmed and single."""
    return " ".join(strip_controls(value).split())


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
        raise UserError(_("The file has more than %(n)s lines.") % {"n": MAX_ROWS})

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
    parsed: list[tuple[int, int | None, str, str, str, list[str]]] = []
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
        parsed.append((index, number, name, club, fed, errors))
    # Lines without a number get the next free ones, in file order.
    used = taken | set(in_file)
    next_free = 1
    lines: list[ImportLine] = []
    for index, number, name, club, fed, errors in parsed:
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
        lines.append(ImportLine(index, number, name, club, fed, tuple(errors)))
    return ImportPreview(tuple(lines), (), columns, header)


def _in_use(tournament: Tournament) -> set[int]:
    """Numbers of participants who are seated or have results or penalties (they cannot be removed)."""
    seated: set[int] = set()
    for fields in Seating.objects.filter(session__tournament=tournament).values_list(
        "seat_n__number", "seat_e__number", "seat_s__number", "seat_w__number"
    ):
        seated.update(n for n in fields if n is not None)
    for fields in Result.objects.filter(session__tournament=tournament).values_list(
        "seat_n__number", "seat_e__number", "seat_s__number", "seat_w__number"
    ):
        seated.update(n for n in fields if n is not None)
    seated.update(
        Penalty.objects.filter(session__tournament=tournament).values_list("participant__number", flat=True)
    )
    return seated


@transaction.atomic
def participants_import(
    *, now: dt.datetime, tournament: Tournament, lines: Iterable[ImportLine], user: Any, replace: bool = False
) -> int:
    """Register the lines without errors; ``replace`` first removes everyone not yet seated or scored."""
    tournament.ensure_not_locked()
    good = [line for line in lines if line.ok and line.number is not None]
    if replace:
        busy = _in_use(tournament)
        if busy:
            raise UserError(
                _("Participants are already seated or have results: add to the list instead of replacing it.")
            )
        tournament.participants.all().delete()
    existing = set(tournament.participants.values_list("number", flat=True))
    for line in good:  # the lines come from a preview; their bounds are the service's, checked here once more
        problems = [
            number_problem(line.number or 0),
            *text_problems(name=line.name, club=line.club, federation_id=line.federation_id),
        ]
        if any(problems):
            raise UserError(
                _("Line %(line)s: %(problem)s.")
                % {"line": line.line, "problem": next(p for p in problems if p)}
            )
    if len(existing | {line.number for line in good}) > PARTICIPANTS_MAX:
        raise UserError(_("A tournament has at most %(n)s participants.") % {"n": PARTICIPANTS_MAX})
    clash = sorted(line.number for line in good if line.number in existing)  # type: ignore[misc]
    if clash:
        raise UserError(
            _("These numbers were registered meanwhile: %(numbers)s. Upload the file again.")
            % {"numbers": ", ".join(map(str, clash))}
        )
    rng = secrets.SystemRandom()
    pins = _pins(rng, len(good))
    Participant.objects.bulk_create(
        Participant(
            tournament=tournament,
            number=line.number,
            name=line.name,
            club=line.club,  # type: ignore[misc]
            federation_id=line.federation_id,
            pin=pin,
        )
        for line, pin in zip(good, pins, strict=True)
    )
    log_action(
        tournament=tournament,
        action="participants.import",
        user=user,
        obj=tournament,
        data={"added": len(good), "replace": replace, "numbers": [line.number for line in good]},
        at=now,
    )
    link_event(tournament, now=now, user=user)  # the register: link by federation number
    return len(good)


def new_pin(rng: random.Random | None = None) -> str:
    """Four digits from the operating system's secure randomness (or ``rng`` in tests)."""
    rng = rng or secrets.SystemRandom()
    return "".join(rng.choice("0123456789") for _ in range(PIN_LENGTH))


def _pins(rng: random.Random, n: int) -> list[str]:
    return [new_pin(rng) for _ in range(n)]


@transaction.atomic
def participant_save(
    *,
    now: dt.datetime,
    tournament: Tournament,
    user: Any,
    number: int,
    name: str,
    club: str = "",
    federation_id: str = "",
    participant: Participant | None = None,
    rng: random.Random | None = None,
) -> Participant:
    """Register a participant, or change one (``participant``). A seated participant keeps his number."""
    tournament.ensure_not_locked()
    name, club, federation_id = clean_text(name), clean_text(club), clean_text(federation_id)
    if not name:
        raise UserError(_("Give the participant's name."))
    problem = number_problem(number)
    if problem:
        raise UserError(problem, code="number")
    problems = text_problems(name=name, club=club, federation_id=federation_id)
    if problems:
        raise UserError(_("Too long: %(problems)s.") % {"problems": "; ".join(problems)}, code="too_long")
    if participant is None and tournament.participants.count() >= PARTICIPANTS_MAX:
        raise UserError(_("A tournament has at most %(n)s participants.") % {"n": PARTICIPANTS_MAX})
    clash = tournament.participants.filter(number=number)
    if participant is not None:
        clash = clash.exclude(pk=participant.pk)
    if clash.exists():
        raise UserError(_("Number %(n)s is already registered.") % {"n": number})
    if participant is None:
        participant = Participant.objects.create(
            tournament=tournament,
            number=number,
            name=name,
            club=club.strip(),
            federation_id=federation_id.strip(),
            pin=new_pin(rng),
        )
        action, before = "participant.create", None
    else:
        if participant.number != number and participant.number in _in_use(tournament):
            raise UserError(_("This participant is already seated: his number cannot change."))
        before = {
            "number": participant.number,
            "name": participant.name,
            "club": participant.club,
            "federation_id": participant.federation_id,
        }
        participant.number, participant.name = number, name
        participant.club, participant.federation_id = club.strip(), federation_id.strip()
        participant.save()
        action = "participant.update"
    log_action(
        tournament=tournament,
        action=action,
        user=user,
        obj=participant,
        data={
            "before": before,
            "after": {
                "number": number,
                "name": name,
                "club": participant.club,
                "federation_id": participant.federation_id,
            },
        },
        at=now,
    )
    return participant


@transaction.atomic
def participant_delete(*, now: dt.datetime, participant: Participant, user: Any) -> None:
    tournament = participant.tournament
    tournament.ensure_not_locked()
    if participant.number in _in_use(tournament):
        raise UserError(_("This participant is seated or has results: he cannot be removed."))
    log_action(
        tournament=tournament,
        action="participant.delete",
        user=user,
        obj=participant,
        data={"number": participant.number, "name": participant.name},
        at=now,
    )
    participant.delete()


@transaction.atomic
def pins_assign(
    *,
    now: dt.datetime,
    tournament: Tournament,
    user: Any,
    everyone: bool = False,
    rng: random.Random | None = None,
) -> int:
    """Give a PIN to every participant without one (``everyone``: new PINs for all)."""
    tournament.ensure_not_locked()
    rng = rng or secrets.SystemRandom()
    people = (
        tournament.participants.all()
        if everyone
        else tournament.participants.filter(Q(pin="") | Q(pin__isnull=True))
    )
    people = list(people)
    for p in people:
        p.pin = new_pin(rng)
    Participant.objects.bulk_update(people, ["pin"])
    log_action(
        tournament=tournament,
        action="participants.pins",
        user=user,
        obj=tournament,
        data={"count": len(people), "everyone": everyone},
        at=now,
    )
    return len(people)
