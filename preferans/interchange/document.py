"""The federation file, version 1 (docs/federation-file.md): one duplicate event as a federation keeps it.

The event, the persons with their federation numbers (:mod:`.persons`), the participants (number → person),
every session as the tournament bundle has it (boards, rows per board and seat with their room, adjustments,
penalties; formats.md §2; :mod:`.sessions`), the final standings and the master points (:mod:`.standings`).
``read_document(text)`` decodes (bounded) and checks the file and returns its plain data in canonical form, or
raises :class:`~preferans.interchange.fields.DocumentInvalid` naming every problem by its JSON path;
``write_document(data)`` checks plain data the same way and writes the canonical text (keys sorted, numbers as
exact fraction strings), so ``write_document(read_document(write_document(d))) == write_document(d)`` byte for
byte. This module checks the file as a whole and the event's own fields; the parts are checked by the modules
named above.

Pure Python, no Django import.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from preferans.bundle.bounds import DEPTH_MAX, StrictJsonInvalid, depth_of, strict_json
from preferans.bundle.shape import describe
from preferans.interchange.fields import (
    DocumentInvalid,
    DocumentProblem,
    Found,
    check_fraction,
    check_keys,
    check_text,
)
from preferans.interchange.persons import check_persons, link_persons, participant_numbers
from preferans.interchange.sessions import BUNDLE_TOURNAMENT_KEYS, bundle_of, check_sessions
from preferans.interchange.standings import check_awards, check_standings

__all__ = [
    "DOCUMENT_MAX_CHARS",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "SESSION_TOTALS",
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
_SLUG = re.compile(r"^[-a-zA-Z0-9_]{1,80}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


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
    found = Found()
    if not isinstance(data, Mapping):
        raise DocumentInvalid(
            [DocumentProblem("$", f"a federation file is a JSON object, not {describe(data)}")]
        )
    if depth_of(data) > DEPTH_MAX:
        raise DocumentInvalid([DocumentProblem("$", f"JSON nested more than {DEPTH_MAX} levels deep")])
    check_keys(found, "$", data, _TOP_KEYS, _TOP_REQUIRED, "federation file")
    if "format" in data and data["format"] != FORMAT_NAME:
        found.add("$.format", f"must be {FORMAT_NAME!r}, not {data['format']!r}")
    if "version" in data and (data["version"] != FORMAT_VERSION or isinstance(data["version"], bool)):
        found.add(
            "$.version", f"{data['version']!r} is not supported — this reader knows version {FORMAT_VERSION}"
        )
    event = _event(data.get("event"), found)
    persons = check_persons(data.get("persons", []), found)
    raw_participants = data.get("participants", [])
    links = link_persons(raw_participants, persons, found)
    bundle = check_sessions(data, raw_participants, found)
    numbers = (
        {p["number"] for p in bundle["participants"]}
        if bundle is not None
        else participant_numbers(raw_participants)
    )
    standings = check_standings(data.get("standings", []), numbers, found)
    awards = check_awards(data.get("master_points", []), numbers, links, found)
    if found.items or event is None or bundle is None:
        raise DocumentInvalid(found.items or [DocumentProblem("$", "the file cannot be read")])
    participants = [{**p, "person": links.get(p["number"])} for p in bundle["participants"]]
    head = bundle["tournament"]
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "event": {**event, **{key: head[key] for key in BUNDLE_TOURNAMENT_KEYS}},
        "persons": persons,
        "participants": participants,
        "sessions": bundle["sessions"],
        "standings": standings,
        "master_points": awards,
    }


def bundle_part(document: Mapping[str, Any]) -> dict[str, Any]:
    """The tournament bundle (formats.md §2) a checked file holds: what the bundle import creates the event
    from."""
    return bundle_of(document["event"], document["participants"], document["sessions"])


def _event(raw: object, found: Found) -> dict[str, Any] | None:
    """The event's own fields (the bundle's tournament fields are checked by the bundle reader)."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        found.add("$.event", f"must be an object, not {describe(raw)}")
        return None
    before = len(found)
    check_keys(found, "$.event", raw, _EVENT_KEYS, _EVENT_REQUIRED, "event")
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
    venue = check_text(found, "$.event.venue", raw.get("venue", ""))
    form = raw.get("form", "duplicate")
    if form not in FORMS:
        found.add("$.event.form", f"{form!r} is not a form this file carries — it carries duplicate events")
    totals = raw.get("session_totals", "matchpoints")
    if totals not in SESSION_TOTALS:
        found.add("$.event.session_totals", f"must be 'matchpoints' or 'percent', not {totals!r}")
    carry = check_fraction(
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
