"""The federation file, version 1 (docs/federation-file.md): one duplicate event as a federation keeps it.

The event, the persons with their federation numbers, the participants (number → person), every session as the
tournament bundle has it (boards, rows per board and seat with their room, adjustments, penalties; formats.md §2),
the final standings and the master points. ``read_document(text)`` decodes (bounded) and checks the file and
returns its plain data in canonical form, or raises :class:`DocumentInvalid` naming every problem by its JSON
path; ``write_document(data)`` checks plain data the same way and writes the canonical text (keys sorted, numbers
as exact fraction strings), so ``write_document(read_document(write_document(d))) == write_document(d)`` byte
for byte. The sessions are checked by the bundle's own reader (:mod:`preferans.bundle.document`) and every row's
legality by the core (:func:`~preferans.duplicate.session_scoring.validate_and_score`), so a file says no more
and no less about a row than a bundle does.

Pure Python, no Django import.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from preferans.bundle import document as bundle_document
from preferans.bundle.bounds import (
    DEPTH_MAX,
    PARTICIPANTS_MAX,
    TEXT_MAX,
    StrictJsonInvalid,
    control_characters,
    depth_of,
    strict_json,
)
from preferans.bundle.shape import Loc, Problem, describe, positive_int
from preferans.duplicate.session_scoring import validate_and_score
from preferans.numbers import NumberFormatError, format_fraction, parse_fraction

__all__ = [
    "DOCUMENT_MAX_CHARS",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "SESSION_TOTALS",
    "DocumentInvalid",
    "DocumentProblem",
    "bundle_part",
    "check_document",
    "dumps",
    "read_document",
    "write_document",
]

FORMAT_NAME = "duplicate-preferans-federation-file"
FORMAT_VERSION = 1
DOCUMENT_MAX_CHARS = 64 * 1024 * 1024  # a big festival with every row is a few megabytes
SESSION_TOTALS = ("matchpoints", "percent")
FORMS = ("duplicate",)
FEDERATION_ID_MAX = bundle_document.FEDERATION_ID_MAX
SCHEME_MAX = 64
PLACE_MAX = 16

_TOP_KEYS = (
    "format",
    "version",
    "event",
    "persons",
    "participants",
    "sessions",
    "standings",
    "master_points",
)
_TOP_REQUIRED = ("format", "version", "event", "participants", "sessions")
_EVENT_KEYS = (
    "name",
    "slug",
    "starts_on",
    "venue",
    "variant",
    "form",
    "players_per_table",
    "deals_per_set",
    "rules",
    "scoring",
    "session_totals",
    "carry_over",
    "qualification",
)
_EVENT_REQUIRED = ("name", "variant", "players_per_table")
_BUNDLE_TOURNAMENT_KEYS = ("name", "variant", "rules", "players_per_table", "deals_per_set", "scoring")
_PERSON_KEYS = ("ref", "name", "club", "city", "federation_id")
_STANDING_KEYS = ("place", "participant", "matchpoints", "max", "percent")
_AWARD_KEYS = ("participant", "points", "place", "scheme")
_SLUG = re.compile(r"^[-a-zA-Z0-9_]{1,80}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_PLACE = re.compile(r"^(\d{1,6}(-\d{1,6})?)?$")
_PARTICIPANT_WHERE = re.compile(r"^participant (\d+)$")
_SESSION_WHERE = re.compile(r"^session (\d+)(?:, )?(.*)$")


@dataclass(frozen=True)
class DocumentProblem:
    """One problem of a file: where it is (a JSON path such as ``$.persons[2].federation_id``) and what."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {' '.join(self.message.split())}"


class DocumentInvalid(ValueError):
    """The file breaks the format; ``problems`` lists every problem found."""

    def __init__(self, problems: list[DocumentProblem] | tuple[DocumentProblem, ...]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class _Found:
    def __init__(self) -> None:
        self.items: list[DocumentProblem] = []

    def add(self, path: str, message: str) -> None:
        self.items.append(DocumentProblem(path, message))

    def __len__(self) -> int:
        return len(self.items)


# -- reading and writing ----------------------------------------------------------------------------------
def dumps(data: Mapping[str, Any]) -> str:
    """The canonical text: UTF-8 JSON, keys sorted, one-space indent, a final newline."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True, indent=1) + "\n"


def write_document(data: Mapping[str, Any]) -> str:
    """Check plain data (as :func:`read_document` returns it, or as an exporter builds it) and write it in
    canonical form; raises :class:`DocumentInvalid`."""
    return dumps(check_document(data))


def read_document(text: str | bytes, *, max_chars: int = DOCUMENT_MAX_CHARS) -> dict[str, Any]:
    """Decode a file (size, depth and number length bounded first; a key twice in one object, NaN and
    Infinity refused) and check it; the canonical plain data, or :class:`DocumentInvalid`."""
    try:
        data = strict_json(text, max_chars=max_chars)
    except StrictJsonInvalid as exc:
        raise DocumentInvalid([DocumentProblem("$", message) for message in exc.messages]) from exc
    return check_document(data)


# -- checking ---------------------------------------------------------------------------------------------
def check_document(data: object) -> dict[str, Any]:
    """Check decoded data field for field; the canonical plain data, or :class:`DocumentInvalid` with every
    problem. Unknown fields are errors, never ignored."""
    found = _Found()
    if not isinstance(data, Mapping):
        raise DocumentInvalid(
            [DocumentProblem("$", f"a federation file is a JSON object, not {describe(data)}")]
        )
    if depth_of(data) > DEPTH_MAX:
        raise DocumentInvalid([DocumentProblem("$", f"JSON nested more than {DEPTH_MAX} levels deep")])
    _keys(found, "$", data, _TOP_KEYS, _TOP_REQUIRED, "federation file")
    if "format" in data and data["format"] != FORMAT_NAME:
        found.add("$.format", f"must be {FORMAT_NAME!r}, not {data['format']!r}")
    if "version" in data and (data["version"] != FORMAT_VERSION or isinstance(data["version"], bool)):
        found.add(
            "$.version", f"{data['version']!r} is not supported — this reader knows version {FORMAT_VERSION}"
        )
    event = _event(data.get("event"), found)
    persons = _persons(data.get("persons", []), found)
    raw_participants = data.get("participants", [])
    links = _person_links(raw_participants, persons, found)
    bundle = _bundle(data, event, raw_participants, found)
    numbers = (
        {p["number"] for p in bundle["participants"]} if bundle is not None else _numbers(raw_participants)
    )
    standings = _standings(data.get("standings", []), numbers, found)
    awards = _awards(data.get("master_points", []), numbers, links, found)
    if found.items or event is None or bundle is None:
        raise DocumentInvalid(found.items or [DocumentProblem("$", "the file cannot be read")])
    participants = [{**p, "person": links.get(p["number"])} for p in bundle["participants"]]
    head = bundle["tournament"]
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "event": {**event, **{key: head[key] for key in _BUNDLE_TOURNAMENT_KEYS}},
        "persons": persons,
        "participants": participants,
        "sessions": bundle["sessions"],
        "standings": standings,
        "master_points": awards,
    }


def bundle_part(document: Mapping[str, Any]) -> dict[str, Any]:
    """The tournament bundle (formats.md §2) a checked file holds: what the bundle import creates the event
    from."""
    event = document["event"]
    return {
        "format": bundle_document.FORMAT_NAME,
        "version": bundle_document.FORMAT_VERSION,
        "tournament": {key: event[key] for key in _BUNDLE_TOURNAMENT_KEYS if key in event},
        "participants": [{k: v for k, v in p.items() if k != "person"} for p in document["participants"]],
        "sessions": document["sessions"],
    }


def _keys(
    found: _Found,
    path: str,
    obj: Mapping[str, Any],
    allowed: tuple[str, ...],
    required: tuple[str, ...],
    what: str,
) -> None:
    for key in obj:
        if key not in allowed:
            found.add(f"{path}.{key}" if isinstance(key, str) else path, f"unknown field {key!r} in a {what}")
    for key in required:
        if key not in obj:
            found.add(path, f"missing field {key!r} — a {what} needs it")


def _text(found: _Found, path: str, value: object, *, bound: int = TEXT_MAX, required: bool = False) -> str:
    if not isinstance(value, str):
        found.add(path, f"must be a string, not {describe(value)}")
        return ""
    if len(value) > bound:
        found.add(path, f"longer than {bound} characters ({len(value)})")
    if control_characters(value):
        found.add(path, "holds a control character (a line break, tab or similar) — write it on one line")
    if required and not value.strip():
        found.add(path, "must not be empty")
    return value


def _fraction(
    found: _Found, path: str, value: object, *, low: Fraction | None = None, high: Fraction | None = None
) -> str:
    try:
        number = parse_fraction(value)
    except NumberFormatError as exc:
        found.add(path, f'{exc} — write an exact number such as "12" or "7/2"')
        return ""
    if low is not None and number < low:
        found.add(path, f"{format_fraction(number)} is below {format_fraction(low)}")
    if high is not None and number > high:
        found.add(path, f"{format_fraction(number)} is above {format_fraction(high)}")
    return format_fraction(number)


def _event(raw: object, found: _Found) -> dict[str, Any] | None:
    """The event's own fields (the bundle's tournament fields are checked by the bundle reader)."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        found.add("$.event", f"must be an object, not {describe(raw)}")
        return None
    before = len(found)
    _keys(found, "$.event", raw, _EVENT_KEYS, _EVENT_REQUIRED, "event")
    slug = raw.get("slug")
    if slug is not None and (not isinstance(slug, str) or not _SLUG.match(slug)):
        found.add("$.event.slug", f"{slug!r} is not a short name (1–80 Latin letters, digits, - and _)")
    starts_on = raw.get("starts_on")
    if starts_on is not None:
        if not isinstance(starts_on, str) or not _DATE.match(starts_on):
            found.add("$.event.starts_on", f"{starts_on!r} is not a date written YYYY-MM-DD")
        else:
            try:
                dt.date.fromisoformat(starts_on)
            except ValueError:
                found.add("$.event.starts_on", f"{starts_on!r} is not a date of the calendar")
    qualification = raw.get("qualification")
    if qualification is not None and (not isinstance(qualification, str) or not _SLUG.match(qualification)):
        found.add("$.event.qualification", f"{qualification!r} is not the short name of an event")
    venue = _text(found, "$.event.venue", raw.get("venue", ""))
    form = raw.get("form", "duplicate")
    if form not in FORMS:
        found.add("$.event.form", f"{form!r} is not a form this file carries — it carries duplicate events")
    totals = raw.get("session_totals", "matchpoints")
    if totals not in SESSION_TOTALS:
        found.add("$.event.session_totals", f"must be 'matchpoints' or 'percent', not {totals!r}")
    carry = _fraction(
        found, "$.event.carry_over", raw.get("carry_over", "0"), low=Fraction(0), high=Fraction(1)
    )
    if len(found) > before:
        return None
    return {
        "slug": slug,
        "starts_on": starts_on,
        "venue": venue,
        "form": form,
        "session_totals": totals,
        "carry_over": carry,
        "qualification": qualification,
    }


def _persons(raw: object, found: _Found) -> list[dict[str, Any]]:
    if not isinstance(raw, list):
        found.add("$.persons", f"must be a list, not {describe(raw)}")
        return []
    if len(raw) > PARTICIPANTS_MAX:
        found.add("$.persons", f"at most {PARTICIPANTS_MAX} persons, not {len(raw)}")
        return []
    out: list[dict[str, Any]] = []
    refs: set[int] = set()
    numbers: dict[str, int] = {}
    for index, item in enumerate(raw):
        path = f"$.persons[{index}]"
        if not isinstance(item, Mapping):
            found.add(path, f"must be an object, not {describe(item)}")
            continue
        _keys(found, path, item, _PERSON_KEYS, ("ref", "name"), "person")
        ref = positive_int(item.get("ref"))
        if "ref" in item and (ref is None or ref > PARTICIPANTS_MAX):
            found.add(f"{path}.ref", f"must be an integer from 1 to {PARTICIPANTS_MAX}, not {item['ref']!r}")
            ref = None
        elif ref is not None and ref in refs:
            found.add(f"{path}.ref", f"{ref} is used by two persons — refs are unique in a file")
        name = _text(found, f"{path}.name", item.get("name", ""), required=True)
        club = _text(found, f"{path}.club", item.get("club", ""))
        city = _text(found, f"{path}.city", item.get("city", ""))
        fid = _text(found, f"{path}.federation_id", item.get("federation_id", ""), bound=FEDERATION_ID_MAX)
        if fid and fid != fid.strip():
            found.add(f"{path}.federation_id", "has spaces at an end")
        elif fid and fid in numbers:
            found.add(
                f"{path}.federation_id",
                f"{fid!r} is also the number of $.persons[{numbers[fid]}] — one person per federation number",
            )
        elif fid:
            numbers[fid] = index
        if ref is not None:
            refs.add(ref)
            out.append({"ref": ref, "name": name, "club": club, "city": city, "federation_id": fid})
    return out


def _numbers(raw: object) -> set[int]:
    if not isinstance(raw, list):
        return set()
    return {
        n for item in raw if isinstance(item, Mapping) and (n := positive_int(item.get("number"))) is not None
    }


def _person_links(raw: object, persons: list[dict[str, Any]], found: _Found) -> dict[int, int]:
    """participant number → person ref; every person plays once, and every person of the file plays."""
    links: dict[int, int] = {}
    if not isinstance(raw, list):
        return links
    refs = {p["ref"] for p in persons}
    used: dict[int, int] = {}
    for index, item in enumerate(raw):
        if not isinstance(item, Mapping) or item.get("person") is None:
            continue
        path = f"$.participants[{index}].person"
        ref = item["person"]
        number = positive_int(item.get("number"))
        if positive_int(ref) is None or ref not in refs:
            found.add(path, f"{ref!r} is not the ref of a person in $.persons")
        elif ref in used:
            found.add(path, f"person {ref} is also participant {used[ref]} — a person plays once in an event")
        elif number is not None:
            used[ref] = number
            links[number] = ref
    for index, person in enumerate(persons):
        if person["ref"] not in used and not found.items:
            found.add(f"$.persons[{index}]", f"person {person['ref']} is no participant of the event")
    return links


def _bundle(
    data: Mapping[str, Any], event: dict[str, Any] | None, raw_participants: object, found: _Found
) -> dict[str, Any] | None:
    """The sessions, participants and the event's scoring fields, checked by the bundle reader."""
    raw_event = data.get("event")
    head = (
        {k: v for k, v in raw_event.items() if k in _BUNDLE_TOURNAMENT_KEYS}
        if isinstance(raw_event, Mapping)
        else None
    )
    participants = raw_participants
    if isinstance(raw_participants, list):
        participants = [
            {k: v for k, v in p.items() if k != "person"} if isinstance(p, Mapping) else p
            for p in raw_participants
        ]
    sessions = data.get("sessions", [])
    bundle = {
        "format": bundle_document.FORMAT_NAME,
        "version": bundle_document.FORMAT_VERSION,
        "tournament": head,
        "participants": participants,
        "sessions": sessions,
    }
    try:
        parsed, _scored = validate_and_score(bundle)  # the format, then every row's legality by the core
    except bundle_document.BundleInvalid as exc:
        # Without an event the bundle "cannot be read"; the file's own problem already says why.
        found.items.extend(
            _translate(problem, sessions)
            for problem in exc.problems
            if head is not None or problem.loc != Loc()
        )
        return None
    if head is None:
        return None
    return bundle_document.bundle_to_dict(parsed)


def _translate(problem: Problem, sessions: object) -> DocumentProblem:
    """A bundle problem named by the JSON path of the file: its session, participant or event field."""
    loc = problem.loc
    message = " ".join(problem.message.split())
    where = loc.where or ""
    if loc.session is not None:
        index = _session_index(sessions, loc.session)
        rest = str(Loc(board=loc.board, table=loc.table, round=loc.round, where=loc.where, room=loc.room))
        prefix = "" if rest == "bundle" else f"{rest}: "
        path = f"$.sessions[{index}]" if index is not None else "$.sessions"
        return DocumentProblem(path, prefix + message)
    if where.startswith("tournament"):
        return DocumentProblem("$.event" + where[len("tournament") :], message)
    match = _PARTICIPANT_WHERE.match(where)
    if match:
        return DocumentProblem(f"$.participants[{int(match.group(1)) - 1}]", message)
    match = _SESSION_WHERE.match(where)
    if match:
        return DocumentProblem(
            f"$.sessions[{int(match.group(1)) - 1}]",
            (match.group(2) + ": " if match.group(2) else "") + message,
        )
    if where in ("participants", "sessions"):
        return DocumentProblem(f"$.{where}", message)
    return DocumentProblem("$", str(problem))


def _session_index(sessions: object, number: int) -> int | None:
    if isinstance(sessions, list):
        for index, item in enumerate(sessions):
            if isinstance(item, Mapping) and item.get("number") == number:
                return index
    return None


def _list(raw: object, found: _Found, path: str, what: str) -> list[Any]:
    if not isinstance(raw, list):
        found.add(path, f"must be a list, not {describe(raw)}")
        return []
    if len(raw) > PARTICIPANTS_MAX:
        found.add(path, f"at most {PARTICIPANTS_MAX} {what}, not {len(raw)}")
        return []
    return raw


def _participant(found: _Found, path: str, value: object, numbers: set[int], seen: set[int]) -> int | None:
    number = positive_int(value)
    if number is None or number not in numbers:
        found.add(path, f"{value!r} is not the number of a participant in $.participants")
        return None
    if number in seen:
        found.add(path, f"participant {number} is listed twice")
        return None
    seen.add(number)
    return number


def _place(found: _Found, path: str, value: object) -> str:
    if not isinstance(value, str) or len(value) > PLACE_MAX or not _PLACE.match(value):
        found.add(path, f'{value!r} is not a place such as "1" or "3-4" (or "" for no place)')
        return ""
    return value


def _standings(raw: object, numbers: set[int], found: _Found) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    for index, item in enumerate(_list(raw, found, "$.standings", "standings lines")):
        path = f"$.standings[{index}]"
        if not isinstance(item, Mapping):
            found.add(path, f"must be an object, not {describe(item)}")
            continue
        _keys(found, path, item, _STANDING_KEYS, _STANDING_KEYS, "standings line")
        number = _participant(found, f"{path}.participant", item.get("participant"), numbers, seen)
        line = {
            "place": _place(found, f"{path}.place", item.get("place", "")),
            "participant": number,
            "matchpoints": _fraction(found, f"{path}.matchpoints", item.get("matchpoints", "0")),
            "max": _fraction(found, f"{path}.max", item.get("max", "0"), low=Fraction(0)),
            "percent": _fraction(found, f"{path}.percent", item.get("percent", "0")),
        }
        out.append(line)
    return out


def _awards(raw: object, numbers: set[int], links: Mapping[int, int], found: _Found) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    for index, item in enumerate(_list(raw, found, "$.master_points", "awards")):
        path = f"$.master_points[{index}]"
        if not isinstance(item, Mapping):
            found.add(path, f"must be an object, not {describe(item)}")
            continue
        _keys(found, path, item, _AWARD_KEYS, ("participant", "points", "scheme"), "master-point award")
        number = _participant(found, f"{path}.participant", item.get("participant"), numbers, seen)
        if number is not None and number not in links:
            found.add(
                f"{path}.participant", f"participant {number} is linked to no person — awards go to persons"
            )
        out.append(
            {
                "participant": number,
                "points": _fraction(found, f"{path}.points", item.get("points", "0"), low=Fraction(0)),
                "place": _place(found, f"{path}.place", item.get("place", "")),
                "scheme": _text(
                    found, f"{path}.scheme", item.get("scheme", ""), bound=SCHEME_MAX, required=True
                ),
            }
        )
    return out
