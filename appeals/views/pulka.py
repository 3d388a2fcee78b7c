"""What the appeals pages show and read about a pulka deal (events played in pulkas: Olympic, compensation, Swiss).

``pulka_table`` finds the table a form names (or says why not, as the services do); ``player_tables`` lists the
tables a player sat at; ``round_deadlines`` the filing deadline of each round (§1: the minutes after its end);
``deal_context`` the deal as it stands on its sheet — in words, each player's result of the deal and of the
pulka so far — with a row form filled with the deal's row, which the committee, a ruling or a correction changes
(the row is checked by the sheet's write path, ``pulkas.services.sheet``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Q
from django.http import QueryDict
from django.urls import reverse
from django.utils.translation import gettext as _

from appeals import services as svc
from appeals.models import Appeal, Correction, Irregularity
from preferans.duplicate.deadlines import filing_deadline
from preferans.pulka.setup import row_dealer_label
from pulkas.models import PulkaRound, PulkaTable, PulkaTableResult
from pulkas.services.sheet import load_sheet
from tournaments.models import Participant, Tournament
from ui.display import describe_row
from ui.row_form import PulkaRowForm

Matter = Appeal | Irregularity | Correction


def pulka_table(
    t: Tournament, *, round: int, table: int | None, participant: Participant | None = None
) -> PulkaTable:
    """The table a form names; raises the services' ``AppealsError`` with the reason when there is none."""
    return svc.pulka_table_of(t, round=round, table=table, participant=participant)


def player_tables(p: Participant) -> list[tuple[str, str]]:
    """The tables a player sat at in rounds that have started, newest first, as choices ``"round-table"``."""
    tables = (
        PulkaTable.objects.filter(
            Q(seat_n=p) | Q(seat_e=p) | Q(seat_s=p) | Q(seat_w=p), round__tournament=p.tournament
        )
        .exclude(round__status=PulkaRound.Status.PENDING)
        .select_related("round")
        .order_by("-round__number")
    )
    return [
        (
            f"{tb.round.number}-{tb.number}",
            _("Round %(r)s, table %(t)s") % {"r": tb.round.number, "t": tb.number},
        )
        for tb in tables
    ]


def round_deadlines(t: Tournament, minutes: int, now: dt.datetime) -> list[dict[str, Any]]:
    """Each started round: when appeals about its deals close (None while it is played) and whether they are
    still open."""
    out = []
    for r in (
        PulkaRound.objects.filter(tournament=t).exclude(status=PulkaRound.Status.PENDING).order_by("number")
    ):
        deadline = filing_deadline(r.ended_at, minutes)
        out.append({"round": r, "deadline": deadline, "open": deadline is None or now <= deadline})
    return out


def deal_context(matter: Matter, data: QueryDict | None = None, *, with_form: bool = True) -> dict[str, Any]:
    """The pulka deal a matter names, as it stands: ``pulka_deal`` (its words, each seat's result of the deal
    and of the pulka so far) and ``row_form`` (the deal's row, to correct). Empty for a duplicate matter."""
    table, number = matter.pulka_table, matter.deal_number
    if table is None:
        return {}
    out: dict[str, Any] = {"pulka_deal": None, "row_form": None, "sheet_url": _sheet_url(matter, table)}
    if number is None:
        return out
    sheet = load_sheet(table)
    if number > len(sheet.deals):
        return out
    score = sheet.score()
    deal, scored = sheet.deals[number - 1], score.deals[number - 1]
    players = sheet.setup.players
    totals = dict(PulkaTableResult.objects.filter(table=table).values_list("seat", "vists"))
    names = {seat: p for seat, p in table.seats().items()}
    out["pulka_deal"] = {
        "number": number,
        "dealer": scored.dealer,
        "text": describe_row(deal.row, players, scored.dealer),
        "status": deal.get_status_display(),
        "cells": [
            (seat, names[seat], scored.result[seat], totals.get(seat, "")) for seat in sheet.setup.seats
        ],
    }
    if with_form:
        row = {k: v for k, v in deal.row.items() if k != "raspasy_step"}
        out["row_form"] = PulkaRowForm(
            data,
            players=players,
            rules=sheet.setup.rules,
            dealer=row_dealer_label(players, scored.dealer, scored.first_hand),
            initial={"version": table.version} | PulkaRowForm.initial_of_row(row),
            prefix="row",
        )
    return out


def _sheet_url(matter: Matter, table: PulkaTable) -> str:
    return reverse(
        "director:pulka_table",
        kwargs={"slug": matter.tournament.slug, "number": table.round.number, "table": table.number},
    )


def row_of(form: PulkaRowForm | None) -> tuple[dict[str, Any] | None, int | None, list[str]]:
    """The row a bound row form gives, the sheet's version it was made from, or the reasons it gives none."""
    if form is None:
        return None, None, []
    if not form.is_valid():
        return None, None, form.named_errors()
    return form.row(), form.cleaned_data.get("version"), []
