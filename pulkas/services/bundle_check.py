"""Checking the pulka part of a tournament bundle (docs/pulka-bundle.md) field by field before anything is saved:
every problem is listed, one a line, with where it is."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from typing import Any

from preferans.bundle.shape import Loc, Problem
from preferans.pulka import TIEBREAKS
from pulkas.models import SEATS, PulkaDeal, PulkaRound, RatingChoice
from pulkas.services.bundle import (
    _CORRECTION,
    _DEAL,
    _INTS,
    _ROUND,
    _TABLE,
    MAX_CORRECTIONS,
    MAX_DEALS,
    MAX_ROUNDS,
    MAX_TABLES,
    PART,
    SETTINGS,
    _deal_loc,
    _where,
)
from pulkas.services.event import PULKA_FORMS
from pulkas.services.sheet import MAX_ROW_BYTES
from tournaments.numbers import whole_number


class _Check:
    """Collects the problems of the part, each with where it is."""

    def __init__(self, numbers: set[int]) -> None:
        self.numbers = numbers
        self.problems: list[Problem] = []

    def add(self, loc: Loc, message: str) -> None:
        self.problems.append(Problem(message, loc))

    def obj(self, value: object, loc: Loc, required: tuple[str, ...], known: tuple[str, ...]) -> bool:
        if not isinstance(value, Mapping):
            self.add(loc, "must be a JSON object")
            return False
        for key in value:
            if key not in known:
                self.add(loc, f"unknown field {str(key)[:50]!r}")
        for key in required:
            if key not in value:
                self.add(loc, f"{key} is required")
        return all(k in value for k in required)

    def whole(self, value: object, loc: Loc, lo: int, hi: int, *, null: bool = False) -> bool:
        if value is None and null:
            return True
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            self.add(loc, f"must be a whole number from {lo} to {hi}" + (" or null" if null else ""))
            return False
        return True

    def time(self, value: object, loc: Loc) -> None:
        if value is None:
            return
        try:
            parsed = dt.datetime.fromisoformat(value) if isinstance(value, str) and len(value) <= 40 else None
        except ValueError:
            parsed = None
        if parsed is None or parsed.tzinfo is None:
            self.add(loc, "must be null or a date and time with its offset, e.g. 2026-05-01T10:00:00+03:00")

    def list(self, value: object, loc: Loc, most: int) -> list[Any]:
        if not isinstance(value, list):
            self.add(loc, "must be a list")
            return []
        if len(value) > most:
            self.add(loc, f"at most {most} entries")
            return []
        return value

    def row(self, value: object, loc: Loc) -> bool:
        if not isinstance(value, Mapping) or len(json.dumps(value, ensure_ascii=False)) > MAX_ROW_BYTES:
            self.add(loc, f"a row is a JSON object of at most {MAX_ROW_BYTES} characters")
            return False
        return True

    def number(self, value: object, loc: Loc) -> bool:
        if isinstance(value, bool) or not isinstance(value, int) or value not in self.numbers:
            self.add(loc, f"participant {str(value)[:20]} is not registered")
            return False
        return True


def check_part(part: object, numbers: set[int]) -> list[Problem]:
    """Every problem of the part's shape and bounds (the deals themselves are checked by the core on import)."""
    c = _Check(numbers)
    if not c.obj(
        part,
        _where("").at(where=PART),
        ("form", "settings", "rounds"),
        ("form", "settings", "rounds", "corrections", "olympic_decisions"),
    ):
        return c.problems
    assert isinstance(part, Mapping)
    if part["form"] not in PULKA_FORMS:
        c.add(_where("form"), "must be olympic, compensation or swiss")
    _check_settings(c, part["settings"])
    rounds = c.list(part["rounds"], _where("rounds"), MAX_ROUNDS)
    tables: dict[tuple[int, int], int] = {}
    codes: set[str] = set()
    for i, r in enumerate(rounds):
        _check_round(c, r, i, len(rounds), tables, codes)
    for i, k in enumerate(c.list(part.get("corrections", []), _where("corrections"), MAX_CORRECTIONS)):
        _check_correction(c, k, i, tables)
    seen: set[int] = set()
    for i, d in enumerate(c.list(part.get("olympic_decisions", []), _where("olympic_decisions"), MAX_ROUNDS)):
        _check_decision(c, d, i, seen)
    return c.problems


def _check_decision(c: _Check, d: object, i: int, seen: set[int]) -> None:
    """An Olympic decision of the director: its round (once), the tables whose second-placed go on, why."""
    loc = _where(f"olympic_decisions.{i}")
    if not c.obj(d, loc, ("round", "tables", "reason", "at"), ("round", "tables", "reason", "at")):
        return
    assert isinstance(d, Mapping)
    if c.whole(d["round"], _where(f"olympic_decisions.{i}.round"), 1, MAX_ROUNDS):
        if d["round"] in seen:
            c.add(loc, "one decision a round")
        seen.add(d["round"])
    tables = d["tables"]
    if not (
        isinstance(tables, list)
        and 1 <= len(tables) <= MAX_TABLES
        and all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= MAX_TABLES for n in tables)
        and len(set(tables)) == len(tables)
    ):
        c.add(_where(f"olympic_decisions.{i}.tables"), "must be a list of distinct table numbers")
    if not isinstance(d["reason"], str) or not d["reason"].strip() or len(d["reason"]) > 500:
        c.add(_where(f"olympic_decisions.{i}.reason"), "must be a reason of 1 to 500 characters")
    c.time(d["at"], _where(f"olympic_decisions.{i}.at"))


def _check_settings(c: _Check, settings: object) -> None:
    if not c.obj(settings, _where("settings"), (), SETTINGS):
        return
    assert isinstance(settings, Mapping)
    for key, value in settings.items():
        loc = _where(f"settings.{key}")
        if key in _INTS:
            lo, hi, null = _INTS[key]
            c.whole(value, loc, lo, hi, null=null)
        elif key == "raspasy_exit" and not (
            isinstance(value, list)
            and len(value) <= 5
            and all(isinstance(v, int) and not isinstance(v, bool) and 6 <= v <= 10 for v in value)
        ):
            c.add(loc, "must be a list of contract levels 6 to 10")
        elif key == "tiebreaks" and not (isinstance(value, list) and all(v in TIEBREAKS for v in value)):
            c.add(loc, f"must be a list of {', '.join(TIEBREAKS)}")
        elif key == "olympic_refill" and not isinstance(value, bool):
            c.add(loc, "must be true or false")
        elif key == "advance_by_round" and not (
            isinstance(value, Mapping)
            and len(value) <= MAX_ROUNDS
            and all(
                whole_number(str(k)) is not None and v in (1, 2) and not isinstance(v, bool)
                for k, v in value.items()
            )
        ):
            c.add(loc, 'must map round numbers to 1 or 2, like {"2": 2}')
        elif key == "rating_base" and value not in RatingChoice.values:
            c.add(loc, f"must be one of {', '.join(RatingChoice.values)}")


def _check_round(
    c: _Check, r: object, i: int, count: int, tables: dict[tuple[int, int], int], codes: set[str]
) -> None:
    loc = _where(f"rounds.{i}")
    if not c.obj(r, loc, ("number", "status", "seed", "tables"), _ROUND):
        return
    assert isinstance(r, Mapping)
    if r["number"] != i + 1:
        c.add(loc, f"rounds are numbered 1, 2, … in order: this one must be {i + 1}")
        return
    n = i + 1
    if r["status"] not in PulkaRound.Status.values:
        c.add(_where("status", round=n), "must be pending, running or ended")
    elif r["status"] != PulkaRound.Status.ENDED and n < count:
        c.add(_where("status", round=n), "only the last round may be unfinished")
    elif r["status"] != PulkaRound.Status.PENDING and r.get("started_at") is None:
        c.add(_where("started_at", round=n), "a round that has started has its start time")
    c.whole(r["seed"], _where("seed", round=n), 0, 2**63 - 1)
    if r.get("drawn_by", "lot") not in ("lot", "rating", "swiss"):
        c.add(_where("drawn_by", round=n), "must be lot, rating or swiss")
    for key in ("started_at", "ends_at", "ended_at"):
        c.time(r.get(key), _where(key, round=n))
    pairing = r.get("pairing")
    if pairing is not None and not (
        isinstance(pairing, Mapping)
        and set(pairing) == {"repeats", "displacement", "optimal"}
        and all(
            isinstance(pairing[k], int) and not isinstance(pairing[k], bool) and 0 <= pairing[k] <= 10**6
            for k in ("repeats", "displacement")
        )
        and isinstance(pairing["optimal"], bool)
    ):
        c.add(
            _where("pairing", round=n),
            "is {repeats, displacement, optimal}: whole numbers from 0 to 1,000,000 and true or false",
        )
    seated: set[object] = set()
    for j, table in enumerate(c.list(r["tables"], _where("tables", round=n), MAX_TABLES)):
        _check_table(c, table, j, n, r["status"] == PulkaRound.Status.PENDING, tables, codes, seated)
    for j, number in enumerate(c.list(r.get("byes", []), _where("byes", round=n), MAX_TABLES * 4)):
        if c.number(number, _where(f"byes.{j}", round=n)):
            if number in seated:
                c.add(_where(f"byes.{j}", round=n), f"participant {number} is twice in this round")
            seated.add(number)


def _check_table(
    c: _Check,
    table: object,
    j: int,
    n: int,
    pending: bool,
    tables: dict[tuple[int, int], int],
    codes: set[str],
    seated: set[object],
) -> None:
    loc = _where(f"tables.{j}", round=n)
    if not c.obj(table, loc, ("number", "code", "seats", "first_dealer", "deals"), _TABLE):
        return
    assert isinstance(table, Mapping)
    if not c.whole(table["number"], loc.at(where=f"{PART}.tables.{j}.number"), 1, MAX_TABLES):
        return
    t = table["number"]
    at = {"round": n, "table": t}
    if (n, t) in tables:
        c.add(_where("number", **at), "two tables of the round have this number")
    code = table["code"]
    if not isinstance(code, str) or not 1 <= len(code) <= 12 or not code.isascii() or not code.isalnum():
        c.add(_where("code", **at), "a table code is 1 to 12 Latin letters and digits")
    elif code in codes:
        c.add(_where("code", **at), "two tables have this code")
    codes.add(str(code))
    seats = table["seats"]
    if not isinstance(seats, Mapping) or set(seats) not in ({"N", "E", "S"}, set(SEATS)):
        c.add(_where("seats", **at), "seats are N, E, S (and W) with participant numbers")
        return
    for seat in SEATS:
        if seat in seats and c.number(seats[seat], _where(f"seats.{seat}", **at)):
            if seats[seat] in seated:
                c.add(_where(f"seats.{seat}", **at), f"participant {seats[seat]} is twice in this round")
            seated.add(seats[seat])
    if not isinstance(table["first_dealer"], str) or table["first_dealer"] not in seats:
        c.add(_where("first_dealer", **at), "the first dealer is one of the table's seats")
    c.time(table.get("stopped_at"), _where("stopped_at", **at))
    c.time(table.get("ends_at"), _where("ends_at", **at))
    c.whole(table.get("overtime_deal"), _where("overtime_deal", **at), 1, MAX_DEALS, null=True)
    decision = table.get("tie_decision")
    if decision is not None and not (
        isinstance(decision, list) and all(s in SEATS[: len(seats)] for s in decision)
    ):
        c.add(_where("tie_decision", **at), "null or a list of the table's seats")
    deals = c.list(table["deals"], _where("deals", **at), MAX_DEALS)
    if deals and pending:
        c.add(_where("deals", **at), "a round that has not started has no deals")
    tables[(n, t)] = len(deals)
    for k, deal in enumerate(deals, start=1):
        _check_deal(c, deal, k, seats, _deal_loc(k, "", **at))


def _check_deal(c: _Check, deal: object, k: int, seats: Mapping[str, Any], loc: Loc) -> None:
    if not c.obj(deal, loc, ("number", "row", "status"), _DEAL):
        return
    assert isinstance(deal, Mapping)
    if deal["number"] != k:
        c.add(loc, f"deals are numbered 1, 2, … in order: this one must be {k}")
    c.row(deal["row"], loc)
    if deal["status"] not in PulkaDeal.Status.values:
        c.add(loc, "status must be entered, confirmed or director")
    by = deal.get("entered_by")
    if by is not None and by not in seats.values():
        c.add(loc, f"entered_by: participant {str(by)[:20]} does not sit at this table")
    confirmed = deal.get("confirmed_by", [])
    if (
        not isinstance(confirmed, list)
        or not all(isinstance(s, str) and s in seats for s in confirmed)
        or len(set(confirmed)) != len(confirmed)
    ):
        c.add(loc, "confirmed_by lists seats of the table, each once")


def _check_correction(c: _Check, k: object, i: int, tables: dict[tuple[int, int], int]) -> None:
    loc = _where(f"corrections.{i}")
    if not c.obj(k, loc, ("round", "table", "deal", "old_row", "new_row", "at"), _CORRECTION):
        return
    assert isinstance(k, Mapping)
    place = (k["round"], k["table"])
    deals = tables.get(place) if all(isinstance(x, int) for x in place) else None  # type: ignore[arg-type]
    if deals is None:
        c.add(loc, "names a round and table that the bundle does not have")
    elif isinstance(k["deal"], bool) or not isinstance(k["deal"], int) or not 1 <= k["deal"] <= deals:
        c.add(loc, "names a deal that the table does not have")
    if k.get("writer") is not None:
        c.number(k["writer"], loc.at(where=f"{PART}.corrections.{i}.writer"))
    c.row(k["old_row"], loc.at(where=f"{PART}.corrections.{i}.old_row"))
    c.row(k["new_row"], loc.at(where=f"{PART}.corrections.{i}.new_row"))
    if not isinstance(k.get("warning", False), bool):
        c.add(loc, "warning must be true or false")
    warned = k.get("warned", [])
    if not isinstance(warned, list) or len(warned) > 4 or not all(s in ("N", "E", "S", "W") for s in warned):
        c.add(loc, "warned lists the seats warned (N, E, S, W)")
    penalty = k.get("penalty", [])
    if not isinstance(penalty, list) or not all(isinstance(e, Mapping) for e in penalty) or len(penalty) > 20:
        c.add(loc, "penalty is a list of at most 20 extra entries")
    pending = k.get("pending")
    if pending is not None and not (
        isinstance(pending, Mapping)
        and set(pending) <= {"warning", "warned", "penalty", "writer"}
        and isinstance(pending.get("warning", False), bool)
        and isinstance(pending.get("warned", []), list)
        and len(pending.get("warned", [])) <= 4
        and all(s in ("N", "E", "S", "W") for s in pending.get("warned", []))
        and isinstance(pending.get("penalty", []), list)
        and len(pending.get("penalty", [])) <= 20
    ):
        c.add(
            loc,
            "pending is null or {warning, warned, penalty, writer}: what waits for the others' confirmation",
        )
    reason = k.get("reason", "")
    if (
        not isinstance(reason, str)
        or len(reason) > 500
        or not all(ch.isprintable() or ch in "\r\n\t" for ch in reason)
    ):
        c.add(loc, "reason is text of at most 500 characters without control characters (but line breaks)")
    if k["at"] is None:
        c.add(loc.at(where=f"{PART}.corrections.{i}.at"), "a correction has its date and time")
    c.time(k["at"], loc.at(where=f"{PART}.corrections.{i}.at"))
