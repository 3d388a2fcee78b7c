"""What the pulka API answers, built from the stored facts and the core's score (no rules decided here).

Who sees what is :mod:`visibility`'s, the rule of every channel: seats and progress are public; a table's
results and deals to its players at once, to everybody once the results are published and its round has ended
(``can_see_sheet``), always to directors; the event table (standings) once published while no round is being
played (``can_see_standings``), always to directors.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.db.models import Prefetch, QuerySet
from rest_framework import serializers

from preferans.numbers import format_fraction
from preferans.pulka import PulkaScore
from preferans.pulka.document import PulkaDocument, result_document
from pulkas.models import PulkaDeal, PulkaEvent, PulkaRound, PulkaTable
from pulkas.services.event import EDITABLE, RATING, SCORING
from pulkas.services.sheet import TableSheet
from pulkas.services.standings import EventTable
from tournaments.models import Participant, Tournament
from visibility import Viewer, can_see_sheet

_when = serializers.DateTimeField().to_representation


def when(value: Any) -> str | None:
    return _when(value) if value is not None else None


def person(p: Participant) -> dict[str, Any]:
    return {"number": p.number, "name": p.name}


def _players(table: PulkaTable) -> dict[str, Participant]:
    return {seat: p for seat, p in table.seats().items() if isinstance(p, Participant)}


def seated(table: PulkaTable) -> list[dict[str, Any]]:
    return [{"seat": seat, **person(p)} for seat, p in _players(table).items()]


def table_state(table: PulkaTable) -> str:
    if table.stopped_at is not None:
        return "stopped"
    if table.ended:
        return "ended"
    if table.round.status == PulkaRound.Status.PENDING:
        return "pending"
    return "playing"


# -- the event ------------------------------------------------------------------------------------------
def event_data(event: PulkaEvent, rounds_drawn: int) -> dict[str, Any]:
    t = event.tournament
    return {
        "tournament": t.slug,
        "name": t.name,
        "form": t.form,
        "variant": t.variant,
        "players_per_table": t.players_per_table,
        "publication": t.publication,
        "settings": {k: getattr(event, k) for k in EDITABLE},
        "fixed": list(SCORING + RATING) if rounds_drawn else [],
        "rounds_drawn": rounds_drawn,
    }


def table_data(table: PulkaTable, *, director: bool, show: bool) -> dict[str, Any]:
    """A table; ``show``: its results (``visibility.can_see_sheet``), ``director``: its code."""
    results = None
    if show:
        by_seat = {r.seat: r for r in table.results.all()}
        results = [
            {
                "seat": seat,
                **person(p),
                "vists": r.vists,
                "integer_vists": r.integer_vists,
                "rating": r.rating,
                "rank": r.rank,
            }
            for seat, p in _players(table).items()
            if (r := by_seat.get(seat)) is not None
        ]
    return {
        "number": table.number,
        "code": table.code if director else None,
        "players": table.players,
        "first_dealer": table.first_dealer,
        "seats": seated(table),
        "state": table_state(table),
        "reason": table.reason,
        "deals_count": table.deals_count,
        "stopped_at": when(table.stopped_at),
        "version": table.version,
        "advance": table.advance if show else None,
        "tie_decision": table.tie_decision if show else None,
        "results": results,
    }


def round_data(pulka_round: PulkaRound, *, viewer: Viewer) -> dict[str, Any]:
    """A round with its tables, each table's results as ``viewer`` may see them."""
    director = viewer.directs(pulka_round.tournament)
    return {
        "number": pulka_round.number,
        "status": pulka_round.status,
        "seed": str(pulka_round.seed),
        "drawn_by": pulka_round.drawn_by,
        "started_at": when(pulka_round.started_at),
        "ends_at": when(pulka_round.ends_at),
        "ended_at": when(pulka_round.ended_at),
        "tables": [
            table_data(t, director=director, show=can_see_sheet(viewer, t)) for t in pulka_round.tables.all()
        ],
        "byes": [person(b.participant) for b in pulka_round.byes.all()],
    }


def rounds_with_tables(tournament: Tournament) -> QuerySet[PulkaRound]:
    """The rounds with everything :func:`round_data` reads, in a fixed number of queries."""
    tables = PulkaTable.objects.select_related("seat_n", "seat_e", "seat_s", "seat_w").prefetch_related(
        "results"
    )
    return (
        PulkaRound.objects.filter(tournament=tournament)
        .select_related("tournament")
        .prefetch_related(Prefetch("tables", queryset=tables.order_by("number")), "byes__participant")
        .order_by("number")
    )


def standings_data(tournament: Tournament, table: EventTable) -> dict[str, Any]:
    return {
        "form": tournament.form,
        "rounds": [r.number for r in table.rounds],
        "lines": [
            {
                "place": line.place,
                **person(line.participant),
                "ratings": [format_fraction(x) if x is not None else None for x in line.ratings],
                "byes": list(line.byes),
                "total": format_fraction(line.total),
                "vists": format_fraction(line.vists),
                "cut": line.cut,
                "out_in_round": line.out_in_round,
                "tables": list(line.tables),
            }
            for line in table.lines
        ],
    }


# -- a table's sheet ------------------------------------------------------------------------------------
def _awaiting(deal: PulkaDeal, seats: Iterable[str], writer: str | None) -> list[str]:
    if deal.status != PulkaDeal.Status.ENTERED:
        return []
    return [s for s in seats if s != writer and s not in (deal.confirmed_by or [])]


def deal_entries(sheet: TableSheet, score: PulkaScore) -> list[dict[str, Any]]:
    """Every deal: the §7.2 entry (dealer, result, the sheet after it) with the row as written and its state."""
    numbers = {p.pk: p.number for p in _players(sheet.table).values()}
    seat_of = {pid: s for s, pid in sheet.table.seat_ids().items()}
    document = result_document(_document(sheet), score)
    out = []
    for entry, deal in zip(document["deals"], sheet.deals, strict=True):  # type: ignore[call-overload]
        writer = deal.entered_by_id
        out.append(
            {
                "number": deal.number,
                "dealer": entry["dealer"],
                **({"raspasy_step": entry["raspasy_step"]} if "raspasy_step" in entry else {}),
                "row": deal.row,
                "result": entry["result"],
                "sheet": entry["sheet"],
                "status": deal.status,
                "entered_by": numbers.get(writer) if writer is not None else None,
                "confirmed_by": list(deal.confirmed_by or []),
                "awaiting": _awaiting(deal, sheet.setup.seats, seat_of.get(writer) if writer else None),
            }
        )
    return out


def _document(sheet: TableSheet) -> PulkaDocument:
    names = {s: p.name for s, p in _players(sheet.table).items()}
    return PulkaDocument(
        sheet.setup, names, tuple(d.row for d in sheet.deals), sheet.table.stopped_at is not None
    )


def sheet_result(sheet: TableSheet, score: PulkaScore) -> dict[str, Any]:
    document = result_document(_document(sheet), score)
    numbers = {s: p.number for s, p in _players(sheet.table).items()}
    players = [{**p, "number": numbers[p["seat"]]} for p in document["players"]]  # type: ignore[attr-defined]
    out = {k: document[k] for k in ("ended", "reason", "closing", "rounding")}
    out["players"] = players
    if "advance" in document:
        out["advance"] = document["advance"]
    return out


def next_deal(score: PulkaScore, table: PulkaTable) -> dict[str, Any] | None:
    nxt = score.next_deal
    if nxt is None or table.finished:
        return None
    return {
        "number": nxt.number,
        "dealer": nxt.dealer,
        "first_hand": nxt.first_hand,
        "raspasy_step": nxt.raspasy_step,
        "chain": nxt.chain,
        "exit_minimum": nxt.exit_minimum,
    }


def sheet_data(sheet: TableSheet, *, show_rows: bool) -> dict[str, Any]:
    table = sheet.table
    pulka_round = table.round
    score = sheet.score()
    return {
        "tournament": sheet.tournament.slug,
        "round": pulka_round.number,
        "round_status": pulka_round.status,
        "ends_at": when(pulka_round.ends_at),
        "table": table.number,
        "players": table.players,
        "first_dealer": table.first_dealer,
        "seats": seated(table),
        "state": table_state(table),
        "reason": table.reason,
        "stopped_at": when(table.stopped_at),
        "version": table.version,
        "deals": deal_entries(sheet, score) if show_rows else None,
        "result": sheet_result(sheet, score) if show_rows else None,
        "next_deal": next_deal(score, table) if show_rows else None,
    }


def deal_answer(
    sheet: TableSheet, number: int, extra: Callable[[], dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The answer to a write: the deal as it stands now, the sheet's version, state and next deal."""
    score = sheet.score()
    entry = next(e for e in deal_entries(sheet, score) if e["number"] == number)
    return {
        "deal": entry,
        "version": sheet.table.version,
        "state": table_state(sheet.table),
        "next_deal": next_deal(score, sheet.table),
        **(extra() if extra else {}),
    }
