"""The standings of a pulka event for the director: the rating table by round (compensation, Swiss), or the
players by the round they reached and the bracket (Olympic). Read from ``pulkas.services.standings``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from pulkas.models import PulkaBye, PulkaRound
from pulkas.services.standings import PlayerLine, event_table
from tournaments.models import Tournament
from ui.director_pages import directs

from .views_pulka_rounds import TableCard, table_cards
from .views_pulka_settings import pulka_event, pulka_nav


@dataclass
class Cell:
    """One round of a player's line: his rating there, or a bye, or nothing (cut, out, not yet)."""

    rating: Any = None
    bye: bool = False
    table: int | None = None
    round: int = 0  # the round's number (names the cell on a phone, where the header is hidden)


@dataclass
class Column:
    round: PulkaRound
    cards: list[TableCard]
    byes: list[PulkaBye]


def _cells(line: PlayerLine, rounds: list[PulkaRound]) -> list[Cell]:
    out = []
    for i, r in enumerate(rounds):
        rating = line.ratings[i] if i < len(line.ratings) else None
        table = line.tables[i] if i < len(line.tables) else None
        out.append(Cell(None if r.number in line.byes else rating, r.number in line.byes, table, r.number))
    return out


@directs
def standings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    event = pulka_event(tournament)
    table = event_table(tournament)
    olympic = tournament.form == "olympic"
    last = table.rounds[-1].number if table.rounds else None
    lines = [{"line": line, "cells": _cells(line, table.rounds)} for line in table.lines]
    columns = []
    if olympic:
        for r in table.rounds:
            byes = list(r.byes.select_related("participant").order_by("participant__number"))
            columns.append(Column(r, table_cards(event, r), byes))
    context = pulka_nav(tournament, "standings") | {
        "event": event,
        "olympic": olympic,
        "rounds": table.rounds,
        "lines": lines,
        "columns": columns,
        "last_round": last,
        "finished": bool(table.rounds) and all(r.status == PulkaRound.Status.ENDED for r in table.rounds),
        "final_played": olympic
        and bool(columns)
        and columns[-1].round.status == PulkaRound.Status.ENDED
        and len(columns[-1].cards) <= 1
        and not columns[-1].byes,
    }
    return render(request, "director/pulka/standings.html", context)
