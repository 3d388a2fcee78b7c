"""A pulka event in the tournament bundle: the optional top-level part ``"pulka_event"`` (docs/pulka-bundle.md).

The bundle of formats.md §2 (``tournaments.services.bundles``) carries the tournament and its participants; an
event played in pulkas adds its form, its settings, every round with its tables, deals and byes, and the
corrections. A duplicate event's bundle has no such part and is exactly what ``tournament_to_bundle`` writes.

Import checks the part field by field, then re-plays every table's deals through the pure core
(``preferans.pulka.PulkaGame``) and rebuilds the caches with :func:`~pulkas.services.sheet.refresh_cache`, all in
one transaction: any problem refuses the whole bundle (:class:`BundleInvalid`, one problem a line) and nothing
is saved. The commands (export_bundle, import_bundle, backup_tournaments, restore_tournaments) call this module.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction

from preferans.bundle.document import BundleInvalid
from preferans.bundle.shape import Loc, Problem
from preferans.pulka import TIEBREAKS, PulkaGame, SetupError
from pulkas.models import (
    SEATS,
    PulkaBye,
    PulkaCorrection,
    PulkaDeal,
    PulkaEvent,
    PulkaRound,
    PulkaTable,
    RatingChoice,
)
from pulkas.services.event import EDITABLE, PULKA_FORMS, check_settings
from pulkas.services.sheet import MAX_ROW_BYTES, load_sheet, refresh_cache
from tournaments.audit import log_action
from tournaments.errors import UserError
from tournaments.models import Participant, Tournament, TournamentStatus
from tournaments.services import bundles
from tournaments.services.seating import new_table_code

PART = "pulka_event"
SETTINGS = (*EDITABLE, "seed")
MAX_ROUNDS, MAX_TABLES, MAX_DEALS, MAX_CORRECTIONS, MAX_TEXT = 50, 2500, 1000, 10000, 1000
# name: (smallest, largest, may be null) — the model's bounds, so the database never refuses what passed here
_INTS: dict[str, tuple[int, int, bool]] = {
    "pool": (1, 1000, False),
    "max_deals": (1, 500, True),
    "round_minutes": (1, 32767, False),
    "advance": (1, 2, False),
    "compensation_x": (-1000, 1000, True),
    "compensation_y": (-1000, 1000, True),
    "compression_threshold": (1, 10**9, True),
    "compression_divisor": (1, 32767, True),
    "rounds": (1, 50, False),
    "cut_after": (1, 50, True),
    "cut_to": (1, 32767, True),
    "seed": (0, 2**63 - 1, False),
}
_ROUND = ("number", "status", "seed", "drawn_by", "started_at", "ends_at", "ended_at", "tables", "byes")
_TABLE = ("number", "code", "seats", "first_dealer", "stopped_at", "tie_decision", "deals")
_DEAL = ("number", "row", "status", "entered_by", "confirmed_by")
_CORRECTION = ("round", "table", "deal", "writer", "old_row", "new_row", "warning", "penalty", "reason", "at")


# -- export ---------------------------------------------------------------------------------------------
def _time(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def export_bundle(tournament: Tournament) -> dict[str, Any]:
    """The tournament's bundle; with its pulka part when it is played in pulkas (else exactly formats.md §2)."""
    data = bundles.tournament_to_bundle(tournament)
    event = PulkaEvent.objects.filter(tournament=tournament).first()
    if event is not None:
        data[PART] = pulka_part(event)
    return data


def pulka_part(event: PulkaEvent) -> dict[str, Any]:
    tournament = event.tournament
    numbers = dict(Participant.objects.filter(tournament=tournament).values_list("pk", "number"))
    rounds = []
    for r in (
        PulkaRound.objects.filter(tournament=tournament)
        .prefetch_related("tables__deals", "byes")
        .order_by("number")
    ):
        tables = []
        for t in sorted(r.tables.all(), key=lambda x: x.number):
            tables.append(
                {
                    "number": t.number,
                    "code": t.code,
                    "seats": {s: numbers[pk] for s, pk in t.seat_ids().items()},
                    "first_dealer": t.first_dealer,
                    "stopped_at": _time(t.stopped_at),
                    "tie_decision": t.tie_decision,
                    "deals": [
                        {
                            "number": d.number,
                            "row": d.row,
                            "status": d.status,
                            "entered_by": numbers.get(d.entered_by_id) if d.entered_by_id else None,
                            "confirmed_by": list(d.confirmed_by or []),
                        }
                        for d in sorted(t.deals.all(), key=lambda x: x.number)
                    ],
                }
            )
        rounds.append(
            {
                "number": r.number,
                "status": r.status,
                "seed": r.seed,
                "drawn_by": r.drawn_by,
                "started_at": _time(r.started_at),
                "ends_at": _time(r.ends_at),
                "ended_at": _time(r.ended_at),
                "tables": tables,
                "byes": sorted(numbers[b.participant_id] for b in r.byes.all()),
            }
        )
    corrections = [
        {
            "round": c.table.round.number,
            "table": c.table.number,
            "deal": c.deal_number,
            "writer": numbers.get(c.writer_id) if c.writer_id else None,
            "old_row": c.old_row,
            "new_row": c.new_row,
            "warning": c.warning,
            "penalty": c.penalty,
            "reason": c.reason,
            "at": _time(c.at),
        }
        for c in PulkaCorrection.objects.filter(table__round__tournament=tournament)
        .select_related("table__round")
        .order_by("at", "id")
    ]
    return {
        "form": tournament.form,
        "settings": {k: getattr(event, k) for k in SETTINGS},
        "rounds": rounds,
        "corrections": corrections,
    }


# -- checking the part (no database) --------------------------------------------------------------------
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


def _where(path: str, **at: int) -> Loc:
    return Loc(table=at.get("table"), round=at.get("round"), where=f"{PART}.{path}")


def _deal_loc(deal: int, field: str, **at: int) -> Loc:
    """«table 2, round 1, pulka deal 7, declarer»: where a deal's problem is."""
    return Loc(
        table=at.get("table"),
        round=at.get("round"),
        where=f"pulka deal {deal}" + (f", {field}" if field else ""),
    )


def check_part(part: object, numbers: set[int]) -> list[Problem]:
    """Every problem of the part's shape and bounds (the deals themselves are checked by the core on import)."""
    c = _Check(numbers)
    if not c.obj(
        part,
        _where("").at(where=PART),
        ("form", "settings", "rounds"),
        ("form", "settings", "rounds", "corrections"),
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
    return c.problems


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
    if r.get("drawn_by", "lot") not in ("lot", "rating"):
        c.add(_where("drawn_by", round=n), "must be lot or rating")
    for key in ("started_at", "ends_at", "ended_at"):
        c.time(r.get(key), _where(key, round=n))
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
    penalty = k.get("penalty", [])
    if not isinstance(penalty, list) or not all(isinstance(e, Mapping) for e in penalty) or len(penalty) > 20:
        c.add(loc, "penalty is a list of at most 20 extra entries")
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


# -- import ---------------------------------------------------------------------------------------------
def import_bundle(
    *,
    now: dt.datetime,
    data: object,
    user: Any = None,
    slug: str | None = None,
    starts_on: dt.date | None = None,
) -> Tournament:
    """Create a tournament from a bundle, with its pulka event when the bundle has the part. Raises
    :class:`BundleInvalid` listing every problem found; then nothing is saved."""
    if not isinstance(data, Mapping) or PART not in data:
        return bundles.import_bundle(now=now, data=data, user=user, slug=slug, starts_on=starts_on)
    part = data[PART]
    rest = {k: v for k, v in data.items() if k != PART}
    participants = rest.get("participants")
    numbers = (
        {p.get("number") for p in participants if isinstance(p, Mapping)}
        if isinstance(participants, list)
        else set()
    )
    problems = check_part(part, {n for n in numbers if isinstance(n, int) and not isinstance(n, bool)})
    if rest.get("sessions"):
        problems.append(Problem("an event played in pulkas has no duplicate sessions", Loc(where="sessions")))
    try:
        with transaction.atomic():
            try:
                tournament = bundles.import_bundle(
                    now=now, data=rest, user=user, slug=slug, starts_on=starts_on
                )
            except BundleInvalid as exc:
                raise BundleInvalid([*exc.problems, *problems]) from exc
            if problems:
                raise BundleInvalid(problems)
            assert isinstance(part, Mapping)
            _restore(tournament, part, now=now, user=user)
    except IntegrityError as exc:  # pragma: no cover - every bound the database has is checked above
        raise BundleInvalid(
            [Problem(f"the database refused the pulka event: {exc}", Loc(where=PART))]
        ) from exc
    return tournament


def _restore(tournament: Tournament, part: Mapping[str, Any], *, now: dt.datetime, user: Any) -> None:
    """The event, its rounds, tables, deals (each re-played by the core), byes and corrections; the caches."""
    settings = dict(part["settings"])
    rounds = list(part["rounds"])
    tournament.form = part["form"]
    if rounds:
        tournament.status = TournamentStatus.RUNNING  # as the first draw does
    tournament.save(update_fields=["form", "status"])
    event = PulkaEvent(tournament=tournament, **settings)
    try:
        check_settings(tournament, event)
    except UserError as exc:
        raise BundleInvalid([Problem(exc.message, Loc(where=f"{PART}.settings"))]) from exc
    event.save()
    people = {p.number: p for p in Participant.objects.filter(tournament=tournament)}
    problems: list[Problem] = []
    tables: dict[tuple[int, int], PulkaTable] = {}
    for r in rounds:
        pulka_round = PulkaRound.objects.create(
            tournament=tournament,
            number=r["number"],
            status=r["status"],
            seed=r["seed"],
            drawn_by=r.get("drawn_by", "lot"),
            started_at=_parse(r.get("started_at")),
            ends_at=_parse(r.get("ends_at")),
            ended_at=_parse(r.get("ended_at")),
        )
        for t in r["tables"]:
            table = _table(pulka_round, t, people)
            tables[(pulka_round.number, table.number)] = table
            problems += _replay(event, table, t, people)
        PulkaBye.objects.bulk_create(
            PulkaBye(round=pulka_round, participant=people[n]) for n in r.get("byes", [])
        )
    if problems:
        raise BundleInvalid(problems)
    for k in part.get("corrections", []):
        PulkaCorrection.objects.create(
            table=tables[(k["round"], k["table"])],
            deal_number=k["deal"],
            writer=people[k["writer"]] if k.get("writer") is not None else None,
            old_row=k["old_row"],
            new_row=k["new_row"],
            warning=k.get("warning", False),
            penalty=k.get("penalty", []),
            reason=k.get("reason", ""),
            at=_parse(k["at"]),
        )
    log_action(
        tournament=tournament,
        action="pulka_event_imported",
        user=user,
        actor="" if user else "import_bundle",
        obj=event,
        at=now,
        data={
            "form": tournament.form,
            "rounds": len(rounds),
            "tables": len(tables),
            "deals": sum(t.deals_count for t in tables.values()),
        },
    )


def _parse(value: str | None) -> dt.datetime | None:
    return dt.datetime.fromisoformat(value) if value is not None else None


def _table(pulka_round: PulkaRound, t: Mapping[str, Any], people: Mapping[int, Participant]) -> PulkaTable:
    """The table under its code, or under a new one when the code is taken (by a table of another event)."""
    code = t["code"].upper()
    while PulkaTable.objects.filter(code=code).exists():
        code = new_table_code()
    seats = t["seats"]
    return PulkaTable.objects.create(
        round=pulka_round,
        number=t["number"],
        code=code,
        first_dealer=t["first_dealer"],
        seat_n=people[seats["N"]],
        seat_e=people[seats["E"]],
        seat_s=people[seats["S"]],
        seat_w=people[seats["W"]] if "W" in seats else None,
        stopped_at=_parse(t.get("stopped_at")),
        tie_decision=t.get("tie_decision"),
        version=len(t["deals"]),
    )


def _replay(
    event: PulkaEvent, table: PulkaTable, t: Mapping[str, Any], people: Mapping[int, Participant]
) -> list[Problem]:
    """Every deal through the core, in order; stored and cached only if the core accepts them all."""
    at = {"round": table.round.number, "table": table.number}
    try:
        game = PulkaGame(event.setup(table.players, table.first_dealer))
    except SetupError as exc:
        return [Problem(str(exc), _where("settings", **at))]
    deals = list(t["deals"])
    for k, deal in enumerate(deals, start=1):
        found = game.add(deal["row"])
        if found:
            return [Problem(p.message, _deal_loc(k, p.field, **at)) for p in found]
    PulkaDeal.objects.bulk_create(
        PulkaDeal(
            table=table,
            number=d["number"],
            row=d["row"],
            status=d["status"],
            entered_by=people[d["entered_by"]] if d.get("entered_by") is not None else None,
            confirmed_by=list(d.get("confirmed_by", [])),
        )
        for d in deals
    )
    refresh_cache(load_sheet(table, event=event))
    decision = table.tie_decision
    if decision is not None:
        advance = table.advance or {"seats": [], "tied": []}
        if not set(decision) <= set(advance["tied"]) or len(set(decision)) != event.advance - len(
            advance["seats"]
        ):
            return [
                Problem(
                    f"tie_decision {decision} does not choose among the tied seats {advance['tied']}",
                    _where("tie_decision", **at),
                )
            ]
    return []
