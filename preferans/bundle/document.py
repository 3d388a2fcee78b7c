"""The tournament bundle, format v1 (formats.md §2): frozen model, parser and serializer.

``parse_bundle(data)`` checks a decoded JSON document field for field and returns a :class:`Bundle`, or raises
:class:`BundleInvalid` carrying **every** problem found, each naming the session, board, table and round it
concerns and the rule broken. Unknown fields are errors, never ignored. ``bundle_to_dict(bundle)`` writes the
bundle back as JSON-able data; ``parse_bundle(bundle_to_dict(b)) == b``.

This module reads the bundle as a whole, its participants and its sessions; the parts have modules of their own:
the tournament (:mod:`.tournament`), a session's boards (:mod:`.boards`), protocol rows (:mod:`.rows`) and
penalties (:mod:`.penalties`), checks across a session's rows (:mod:`.checks`).

What is not checked here: whether a played deal is legal and what it is worth (the preferans core does that, see
:mod:`preferans.duplicate.session_scoring`), the cards of a board layout (the ``boards`` package) and whether a
movement is sound (the movement engine); here they are checked for shape only and kept.

Pure Python, no Django import.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from preferans.bundle.boards import BoardLayout, board_to_dict, parse_boards
from preferans.bundle.bounds import (
    DEPTH_MAX,
    PARTICIPANTS_MAX,
    StrictJsonInvalid,
    depth_of,
    strict_json,
)
from preferans.bundle.checks import check_fits_movement, check_results
from preferans.bundle.penalties import BundlePenalty, parse_penalties, penalty_to_dict
from preferans.bundle.rows import BundleResult, parse_result, result_to_dict
from preferans.bundle.shape import (
    Loc,
    Problem,
    Problems,
    check_bound,
    check_keys,
    check_text,
    describe,
    json_copy,
    movement_places,
    parse_movement,
    positive_int,
)
from preferans.bundle.tournament import BundleTournament, RulesCheck, parse_tournament, tournament_to_dict
from preferans.duplicate.matchpoints import DEFAULT_ARTIFICIAL

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "Bundle",
    "BundleInvalid",
    "BundleParticipant",
    "BundleSession",
    "Parsed",
    "bundle_to_dict",
    "load_json",
    "parse_bundle",
    "parse_bundle_collect",
]

FORMAT_NAME = "duplicate-preferans-bundle"
FORMAT_VERSION = 1


class BundleInvalid(ValueError):
    """The bundle breaks the format or the rules; ``problems`` lists every problem found."""

    def __init__(self, problems: list[Problem] | tuple[Problem, ...]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass(frozen=True)
class BundleParticipant:
    number: int
    name: str | None = None
    club: str | None = None
    federation_id: str | int | None = None
    rating: str | int | None = None
    """The federation's or club's rating the list gave (formats.md §2): 0 to 4000, at most two decimals."""


@dataclass(frozen=True)
class BundleSession:
    number: int
    movement: Mapping[str, Any] | None = None
    """The movement as written (shape checked, formats.md §2 and §4); ``None`` when absent."""
    boards: tuple[BoardLayout, ...] = ()
    results: tuple[BundleResult, ...] = ()
    penalties: tuple[BundlePenalty, ...] = ()


@dataclass(frozen=True)
class Bundle:
    tournament: BundleTournament
    participants: tuple[BundleParticipant, ...]
    sessions: tuple[BundleSession, ...]

    def names(self) -> dict[int, str]:
        return {p.number: p.name or "" for p in self.participants}


@dataclass(frozen=True)
class Parsed:
    """What :func:`parse_bundle_collect` found: the bundle (rows with problems of their own left out; ``None``
    when the tournament itself is unusable), the problems, and whether the tournament rules are valid."""

    bundle: Bundle | None
    problems: tuple[Problem, ...]
    rules_ok: bool


FEDERATION_ID_MAX = 64
RESULTS_MAX = (
    100_000  # rows a session: 9999 boards at up to 500 tables would be far more than any event plays
)
_TOP_KEYS = frozenset({"format", "version", "tournament", "participants", "sessions"})
_PARTICIPANT_KEYS = frozenset({"number", "name", "club", "federation_id", "rating"})
RATING_MAX = 4000
_RATING = re.compile(r"^[0-9]{1,4}(?:\.[0-9]{1,2})?\Z")
_SESSION_KEYS = frozenset({"number", "movement", "boards", "results", "penalties"})


def rating_ok(value: object) -> bool:
    """A participant's rating as a bundle writes it: an integer or a decimal string, 0 to 4000, two decimals at
    most («1650», "1650.5"); no float (a float is not exact)."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        return False
    text = str(value)
    return bool(_RATING.match(text)) and Fraction(text) <= RATING_MAX


def load_json(text: str) -> object:
    """Decode a bundle's JSON text; bad JSON, duplicate keys and NaN/Infinity raise :class:`BundleInvalid`."""
    try:
        return strict_json(text)
    except StrictJsonInvalid as exc:
        suffix = " (formats.md §2)" if exc.refused else ""
        raise BundleInvalid([Problem(message + suffix) for message in exc.messages]) from exc


def parse_bundle(data: object, *, rules_check: RulesCheck | None = None) -> Bundle:
    """Check a decoded bundle and build the model; raise :class:`BundleInvalid` with every problem.

    ``rules_check`` validates ``tournament.variant`` and ``tournament.rules``; by default the preferans core's
    ``make_rules`` does it.
    """
    parsed = parse_bundle_collect(data, rules_check=rules_check)
    if parsed.problems or parsed.bundle is None:
        raise BundleInvalid(parsed.problems or (Problem("the bundle cannot be read"),))
    return parsed.bundle


def parse_bundle_collect(data: object, *, rules_check: RulesCheck | None = None) -> Parsed:
    """Like :func:`parse_bundle` but returns what could be built together with all the problems."""
    problems = Problems()
    top = Loc()
    if not isinstance(data, dict):
        problems.add(top, f"a bundle is a JSON object, not {describe(data)}")
        return Parsed(None, problems.items_tuple(), False)
    if depth_of(data) > DEPTH_MAX:  # decoded elsewhere (a page's upload, a test): the same bound as load_json
        problems.add(top, f"JSON nested more than {DEPTH_MAX} levels deep")
        return Parsed(None, problems.items_tuple(), False)
    check_keys(problems, top, data, allowed=_TOP_KEYS, required=_TOP_KEYS, what="bundle")
    if "format" in data and data["format"] != FORMAT_NAME:
        problems.add(top, f"format must be {FORMAT_NAME!r}, not {data['format']!r}")
    if "version" in data and (data["version"] != FORMAT_VERSION or isinstance(data["version"], bool)):
        problems.add(top, f"version {data['version']!r} is not supported — this reader knows version 1")

    tournament, rules_ok = parse_tournament(data.get("tournament"), problems, rules_check)
    participants = _parse_participants(data.get("participants", []), problems)
    known = frozenset(p.number for p in participants)
    sessions = _parse_sessions(data.get("sessions", []), problems, tournament, known)
    bundle = None if tournament is None else Bundle(tournament, participants, sessions)
    return Parsed(bundle, problems.items_tuple(), rules_ok and tournament is not None)


def _parse_participants(raw: object, problems: Problems) -> tuple[BundleParticipant, ...]:
    if not isinstance(raw, list):
        problems.add(Loc(where="participants"), f"must be a list, not {describe(raw)}")
        return ()
    out: list[BundleParticipant] = []
    seen: set[int] = set()
    if len(raw) > PARTICIPANTS_MAX:
        problems.add(Loc(where="participants"), f"at most {PARTICIPANTS_MAX} participants, not {len(raw)}")
        return ()
    for index, item in enumerate(raw, start=1):
        loc = Loc(where=f"participant {index}")
        if not isinstance(item, dict):
            problems.add(loc, f"must be an object, not {describe(item)}")
            continue
        before = len(problems)
        check_keys(problems, loc, item, allowed=_PARTICIPANT_KEYS, required=("number",), what="participant")
        number = positive_int(item.get("number"))
        if "number" in item and number is None:
            problems.add(loc, f"number must be a positive integer, not {item['number']!r}")
        elif number is not None and number in seen:
            problems.add(loc, f"participant number {number} is used twice — numbers must be unique")
        elif number is not None and not check_bound(problems, loc, "number", number):
            number = None
        for key in ("name", "club"):
            if key in item and not isinstance(item[key], str):
                problems.add(loc, f"{key} must be a string, not {describe(item[key])}")
            elif key in item:
                check_text(problems, loc, key, item[key])
        fid = item.get("federation_id")
        if fid is not None and (not isinstance(fid, str | int) or isinstance(fid, bool)):
            problems.add(loc, f"federation_id must be a string or an integer, not {describe(fid)}")
        elif fid is not None:
            check_text(problems, loc, "federation_id", str(fid), FEDERATION_ID_MAX)
        rating = item.get("rating")
        if rating is not None and not rating_ok(rating):
            problems.add(
                loc,
                f"rating must be a number from 0 to {RATING_MAX} with at most two decimals, "
                f"written as a string or an integer, not {describe(rating)}",
            )
        if number is not None:
            seen.add(number)
        if len(problems) == before and number is not None:
            out.append(BundleParticipant(number, item.get("name"), item.get("club"), fid, rating))
    return tuple(out)


def _parse_sessions(
    raw: object, problems: Problems, tournament: BundleTournament | None, known: frozenset[int]
) -> tuple[BundleSession, ...]:
    if not isinstance(raw, list):
        problems.add(Loc(where="sessions"), f"must be a list, not {describe(raw)}")
        return ()
    out: list[BundleSession] = []
    seen: set[int] = set()
    for index, item in enumerate(raw, start=1):
        if not isinstance(item, dict):
            problems.add(Loc(where=f"session entry {index}"), f"must be an object, not {describe(item)}")
            continue
        number = positive_int(item.get("number"))
        loc = Loc(session=number) if number is not None else Loc(where=f"session entry {index}")
        check_keys(problems, loc, item, allowed=_SESSION_KEYS, required=("number",), what="session")
        if "number" in item and number is None:
            problems.add(loc, f"number must be a positive integer, not {item['number']!r}")
        if number is not None and number in seen:
            problems.add(loc, "session number used twice — numbers must be unique")
        elif number is not None:
            check_bound(problems, loc, "session", number)
        if number is not None:
            seen.add(number)
        movement = parse_movement(item.get("movement"), problems, loc) if "movement" in item else None
        players = tournament.players_per_table if tournament else None
        deals = tournament.deals_per_set if tournament else None
        boards, board_dealers = parse_boards(item.get("boards", []), problems, loc, players, deals)
        artificial = tournament.scoring.artificial if tournament else DEFAULT_ARTIFICIAL
        results: list[BundleResult] = []
        raw_results = item.get("results", [])
        if not isinstance(raw_results, list):
            problems.add(loc, f"results must be a list, not {describe(raw_results)}")
            raw_results = []
        if len(raw_results) > RESULTS_MAX:
            problems.add(loc, f"at most {RESULTS_MAX} results a session, not {len(raw_results)}")
            raw_results = []
        for position, row in enumerate(raw_results, start=1):
            result = parse_result(
                row,
                problems,
                loc,
                position,
                players=players,
                known=known,
                artificial=artificial,
                board_dealers=board_dealers,
            )
            if result is not None:
                results.append(result)
        check_results(results, problems, loc, board_dealers)
        places = movement_places(movement, players, deals)
        if places is not None:
            check_fits_movement(results, places, problems, loc)
        penalties = parse_penalties(item.get("penalties", []), problems, loc, known)
        out.append(BundleSession(number or 0, movement, boards, tuple(results), penalties))
    return tuple(out)


def bundle_to_dict(bundle: Bundle) -> dict[str, Any]:
    """The bundle as JSON-able data (format v1); numbers as the formats write them (§1)."""
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "tournament": tournament_to_dict(bundle.tournament),
        "participants": [_participant_to_dict(p) for p in bundle.participants],
        "sessions": [_session_to_dict(s) for s in bundle.sessions],
    }


def _participant_to_dict(p: BundleParticipant) -> dict[str, Any]:
    out: dict[str, Any] = {"number": p.number}
    for key in ("name", "club", "federation_id", "rating"):
        value = getattr(p, key)
        if value is not None:
            out[key] = value
    return out


def _session_to_dict(s: BundleSession) -> dict[str, Any]:
    out: dict[str, Any] = {"number": s.number}
    if s.movement is not None:
        out["movement"] = json_copy(s.movement)
    out["boards"] = [board_to_dict(b) for b in s.boards]
    out["results"] = [result_to_dict(r) for r in s.results]
    out["penalties"] = [penalty_to_dict(p) for p in s.penalties]
    return out
