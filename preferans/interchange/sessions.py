"""The sessions of a federation file, read by the tournament bundle's own reader (formats.md §2).

The sessions, the participants and the event's scoring fields of a file make a bundle; it is checked by
:mod:`preferans.bundle.document` and every row's legality by the core
(:func:`~preferans.duplicate.session_scoring.validate_and_score`), so a file says no more and no less about a row
than a bundle does. The bundle's problems are named by the JSON path of the file. Pure Python, no Django import.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from preferans.bundle import document as bundle_document
from preferans.bundle.shape import Loc, Problem
from preferans.duplicate.session_scoring import validate_and_score
from preferans.interchange.fields import DocumentProblem, Found

__all__ = ["BUNDLE_TOURNAMENT_KEYS", "bundle_of", "check_sessions"]

BUNDLE_TOURNAMENT_KEYS = ("name", "variant", "rules", "players_per_table", "deals_per_set", "scoring")
"""The event's fields that are the bundle's tournament fields (checked by the bundle reader)."""

_PARTICIPANT_WHERE = re.compile(r"^participant (\d+)$")
_SESSION_WHERE = re.compile(r"^session (\d+)(?:, )?(.*)$")


def bundle_of(event: Mapping[str, Any] | None, participants: object, sessions: object) -> dict[str, Any]:
    """The bundle (formats.md §2) made of a file's event fields, participants (without their person) and
    sessions, as written."""
    head = {k: v for k, v in event.items() if k in BUNDLE_TOURNAMENT_KEYS} if event is not None else None
    if isinstance(participants, list):
        participants = [
            {k: v for k, v in p.items() if k != "person"} if isinstance(p, Mapping) else p
            for p in participants
        ]
    return {
        "format": bundle_document.FORMAT_NAME,
        "version": bundle_document.FORMAT_VERSION,
        "tournament": head,
        "participants": participants,
        "sessions": sessions,
    }


def check_sessions(data: Mapping[str, Any], raw_participants: object, found: Found) -> dict[str, Any] | None:
    """The sessions, participants and the event's scoring fields, checked by the bundle reader: the bundle in
    canonical form, or ``None`` with its problems in ``found``."""
    raw_event = data.get("event")
    event = raw_event if isinstance(raw_event, Mapping) else None
    sessions = data.get("sessions", [])
    bundle = bundle_of(event, raw_participants, sessions)
    try:
        parsed, _scored = validate_and_score(bundle)  # the format, then every row's legality by the core
    except bundle_document.BundleInvalid as exc:
        # Without an event the bundle "cannot be read"; the file's own problem already says why.
        found.items.extend(
            _translate(problem, sessions)
            for problem in exc.problems
            if event is not None or problem.loc != Loc()
        )
        return None
    if event is None:
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
