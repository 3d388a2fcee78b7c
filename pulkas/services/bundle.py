"""A pulka event in the tournament bundle: the optional top-level part ``"pulka_event"`` (docs/pulka-bundle.md).

The bundle of formats.md §2 (``events.bundles``) carries the tournament and its participants; an
event played in pulkas adds its form, its settings, every round with its tables, deals and byes, and the
corrections. A duplicate event's bundle has no such part and is exactly what ``tournament_to_bundle`` writes.

Import checks the part field by field, then re-plays every table's deals through the pure core
(``preferans.pulka.PulkaGame``) and rebuilds the caches with :func:`~pulkas.services.sheet.refresh_cache`, all in
one transaction: any problem refuses the whole bundle (:class:`BundleInvalid`, one problem a line) and nothing
is saved. The commands (export_bundle, import_bundle, backup_tournaments, restore_tournaments) call this module.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from preferans.bundle.document import BundleInvalid
from preferans.bundle.shape import Loc, Problem
from preferans.pulka import PulkaGame, SetupError
from pulkas.models import (
    OlympicDecision,
    PulkaBye,
    PulkaCorrection,
    PulkaDeal,
    PulkaEvent,
    PulkaRound,
    PulkaTable,
)
from pulkas.services.event import EDITABLE, check_settings
from pulkas.services.rounds import play_over
from pulkas.services.sheet import load_sheet, refresh_cache
from tournaments.audit import log_action
from tournaments.errors import UserError
from tournaments.models import Participant, Tournament, TournamentStatus
from tournaments.table_codes import code_in_use, unused_table_code

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
_ROUND = (
    "number",
    "status",
    "seed",
    "drawn_by",
    "started_at",
    "ends_at",
    "ended_at",
    "tables",
    "byes",
    "pairing",
)
_TABLE = (
    "number",
    "code",
    "seats",
    "first_dealer",
    "stopped_at",
    "tie_decision",
    "deals",
    "ends_at",
    "overtime_deal",
)
_DEAL = ("number", "row", "status", "entered_by", "confirmed_by")
_CORRECTION = (
    "round",
    "table",
    "deal",
    "writer",
    "old_row",
    "new_row",
    "warning",
    "warned",
    "penalty",
    "reason",
    "at",
    "pending",
)


# -- export ---------------------------------------------------------------------------------------------


def _pairing_of(r: PulkaRound) -> dict[str, Any]:
    """A drawn round's seating figures (docs/pairing.md), optional in the bundle: only when the draw recorded them."""
    if r.repeats is None:
        return {}
    return {
        "pairing": {"repeats": r.repeats, "displacement": r.displacement, "optimal": bool(r.pairing_optimal)}
    }


def _pairing_fields(pairing: Mapping[str, Any] | None) -> dict[str, Any]:
    if not pairing:
        return {}
    return {
        "repeats": pairing["repeats"],
        "displacement": pairing["displacement"],
        "pairing_optimal": pairing["optimal"],
    }


def _time(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


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
                    # the time limit's state, only when there is one (issue 28; optional: older bundles lack it)
                    **({"ends_at": _time(t.ends_at)} if t.ends_at else {}),
                    **({"overtime_deal": t.overtime_deal} if t.overtime_deal is not None else {}),
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
                **_pairing_of(r),
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
            "warned": c.warned,
            "penalty": c.penalty,
            "reason": c.reason,
            "at": _time(c.at),
            # a waiting warning or penalty names its writer by participant number, as the bundle does
            **(
                {"pending": {**c.pending, "writer": numbers.get(c.pending.get("writer"))}}
                if c.pending
                else {}
            ),
        }
        for c in PulkaCorrection.objects.filter(table__round__tournament=tournament)
        .select_related("table__round")
        .order_by("at", "id")
    ]
    part: dict[str, Any] = {
        "form": tournament.form,
        "settings": {k: getattr(event, k) for k in SETTINGS},
        "rounds": rounds,
        "corrections": corrections,
    }
    decisions = [
        {"round": d.round_number, "tables": list(d.tables), "reason": d.reason, "at": _time(d.at)}
        for d in OlympicDecision.objects.filter(tournament=tournament).order_by("round_number")
    ]
    if decisions:  # Olympic: the director's decisions that sent the second-placed on
        part["olympic_decisions"] = decisions
    return part


# -- checking the part (no database) --------------------------------------------------------------------
def _where(path: str, **at: int) -> Loc:
    return Loc(table=at.get("table"), round=at.get("round"), where=f"{PART}.{path}")


def _deal_loc(deal: int, field: str, **at: int) -> Loc:
    """«table 2, round 1, pulka deal 7, declarer»: where a deal's problem is."""
    return Loc(
        table=at.get("table"),
        round=at.get("round"),
        where=f"pulka deal {deal}" + (f", {field}" if field else ""),
    )


# -- import ---------------------------------------------------------------------------------------------
def restore_part(tournament: Tournament, part: Mapping[str, Any], *, now: dt.datetime, user: Any) -> None:
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
    for d in part.get("olympic_decisions", []):  # before the tables: they decide who goes on from them
        OlympicDecision.objects.create(
            tournament=tournament,
            round_number=d["round"],
            tables=sorted(d["tables"]),
            reason=d["reason"],
            at=_parse(d["at"]) or now,
        )
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
            **_pairing_fields(r.get("pairing")),
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
            warned=k.get("warned", []),
            penalty=k.get("penalty", []),
            reason=k.get("reason", ""),
            at=_parse(k["at"]),
            pending={**k["pending"], "writer": people[k["pending"]["writer"]].pk}
            if k.get("pending") and k["pending"].get("writer") in people
            else k.get("pending"),
        )
    if play_over(tournament):
        tournament.status = TournamentStatus.FINISHED
        tournament.save(update_fields=["status"])
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
    """The table under its code, or under a new one when a table of either form (of another event) has it."""
    code = t["code"].upper()
    if code_in_use(code):
        code = unused_table_code()
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
        ends_at=_parse(t.get("ends_at")),
        overtime_deal=t.get("overtime_deal"),
        version=len(t["deals"]),
    )


def _replay(
    event: PulkaEvent, table: PulkaTable, t: Mapping[str, Any], people: Mapping[int, Participant]
) -> list[Problem]:
    """Every deal through the core, in order; stored and cached only if the core accepts them all."""
    at = {"round": table.round.number, "table": table.number}
    try:
        game = PulkaGame(event.setup(table.players, table.first_dealer, table.olympic_advance(event)))
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
        if not set(decision) <= set(advance["tied"]) or len(set(decision)) != table.olympic_advance(
            event
        ) - len(advance["seats"]):
            return [
                Problem(
                    f"tie_decision {decision} does not choose among the tied seats {advance['tied']}",
                    _where("tie_decision", **at),
                )
            ]
    return []
