"""The ``preferans-pairing`` JSON (formats §9): the request in, the seating and the check out. Every problem is
one English line naming the field, for the command's stderr."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .check import Check
from .pair import Pairing

__all__ = [
    "MAX_HISTORY_ROUNDS",
    "MAX_PLAYERS",
    "PairingRequest",
    "check_document",
    "pairing_document",
    "read_request",
    "read_seating",
]

FORMAT = "preferans-pairing"
MAX_PLAYERS = 2000
MAX_HISTORY_ROUNDS = 1000  # the software's bound: far above any event's rounds
MAX_SEED = 2**32 - 1
_KEYS = {"format", "version", "form", "per_table", "players", "history", "seed"}
_REQUIRED = ("format", "version", "form", "per_table", "players")


@dataclass(frozen=True)
class PairingRequest:
    form: str
    per_table: int
    players: list[str]
    history: list[list[list[str]]]
    seed: int


def _whole(raw: object) -> bool:
    return isinstance(raw, int) and not isinstance(raw, bool)


def _is_id(raw: object) -> bool:
    return isinstance(raw, str) and 1 <= len(raw) <= 40


def _players(raw: object, problems: list[str]) -> list[str]:
    if not isinstance(raw, list):
        problems.append("players: a list of ids")
        return []
    if len(raw) > MAX_PLAYERS:
        problems.append(f"players: at most {MAX_PLAYERS} players, not {len(raw)}")
        return []
    out: list[str] = []
    for i, p in enumerate(raw):
        if not _is_id(p):
            problems.append(f"players[{i}]: an id is a string of 1-40 characters")
        elif p in out:
            problems.append(f"players[{i}]: {p} is listed twice")
        else:
            out.append(p)
    return out


def _history(raw: object, problems: list[str]) -> list[list[list[str]]]:
    if not isinstance(raw, list) or not all(isinstance(r, list) for r in raw):
        problems.append("history: a list of rounds, each a list of tables")
        return []
    if len(raw) > MAX_HISTORY_ROUNDS:
        problems.append(f"history: at most {MAX_HISTORY_ROUNDS} rounds, not {len(raw)}")
        return []
    if sum(len(r) for r in raw) > MAX_HISTORY_ROUNDS * MAX_PLAYERS:
        problems.append("history: too many tables")
        return []
    rounds: list[list[list[str]]] = []
    for i, round_ in enumerate(raw):
        tables: list[list[str]] = []
        for j, table in enumerate(round_):
            where = f"history[{i}][{j}]"
            if not isinstance(table, list) or not 2 <= len(table) <= 4:
                problems.append(f"{where}: a table is a list of 2-4 ids")
            elif not all(_is_id(p) for p in table):
                problems.append(f"{where}: an id is a string of 1-40 characters")
            elif len(set(table)) != len(table):
                problems.append(f"{where}: an id is listed twice at one table")
            else:
                tables.append(list(table))
        rounds.append(tables)
    return rounds


def read_request(raw: object) -> tuple[PairingRequest | None, list[str]]:
    """The request of formats §9.1, or the problems (one line each)."""
    if not isinstance(raw, Mapping):
        return None, ["the file must hold a JSON object"]
    problems = [f"{key}: unknown key" for key in sorted(set(raw) - _KEYS)]
    problems += [f"{key}: missing" for key in _REQUIRED if key not in raw]
    if "format" in raw and raw["format"] != FORMAT:
        problems.append(f'format: must be "{FORMAT}"')
    if "version" in raw and not (_whole(raw["version"]) and raw["version"] == 1):
        problems.append("version: must be 1")
    if "form" in raw and raw["form"] not in ("compensation", "swiss"):
        problems.append('form: "compensation" or "swiss"')
    if "per_table" in raw and not (_whole(raw["per_table"]) and raw["per_table"] in (3, 4)):
        problems.append("per_table: 3 or 4")
    seed = raw.get("seed", 0)
    if not (_whole(seed) and 0 <= seed <= MAX_SEED):
        problems.append(f"seed: a whole number 0-{MAX_SEED}")
    players = _players(raw.get("players", []), problems)
    history = _history(raw.get("history", []), problems)
    if problems:
        return None, problems
    return PairingRequest(str(raw["form"]), int(raw["per_table"]), players, history, int(seed)), []


def read_seating(raw: object) -> tuple[tuple[list[list[str]], list[str]] | None, list[str]]:
    """The ``tables`` and ``byes`` of a seating (formats §9.3), or the problems."""
    if not isinstance(raw, Mapping):
        return None, ["seating: the file must hold a JSON object"]
    tables, byes = raw.get("tables"), raw.get("byes", [])
    problems: list[str] = []
    if not isinstance(tables, list) or not all(
        isinstance(t, list) and all(_is_id(p) for p in t) for t in tables
    ):
        problems.append("seating tables: a list of tables, each a list of ids")
    elif sum(len(t) for t in tables) > MAX_PLAYERS:
        problems.append(f"seating tables: at most {MAX_PLAYERS} places")
    if not isinstance(byes, list) or len(byes) > MAX_PLAYERS or not all(_is_id(p) for p in byes):
        problems.append("seating byes: a list of ids")
    if problems or not isinstance(tables, list) or not isinstance(byes, list):
        return None, problems
    return ([list(t) for t in tables], list(byes)), []


def pairing_document(pairing: Pairing[str]) -> dict[str, object]:
    """Formats §9.2."""
    return {
        "tables": [list(t) for t in pairing.tables],
        "byes": list(pairing.byes),
        "repeats": pairing.repeats,
        "displacement": pairing.displacement,
        "optimal": pairing.optimal,
    }


def check_document(result: Check) -> dict[str, object]:
    """Formats §9.3."""
    return {
        "valid": result.valid,
        "problems": list(result.problems),
        "repeats": result.repeats,
        "displacement": result.displacement,
        "least": {"repeats": result.least[0], "displacement": result.least[1]},
        "correct": result.correct,
    }
