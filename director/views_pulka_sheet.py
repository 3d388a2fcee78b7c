"""A table's sheet for the director: every deal in words, each player's result and running total, the drawn
sheet; entering a deal as the director, correcting one (with a reason), stopping and reopening the table.

Every write goes through ``pulkas.services.sheet`` with the sheet's ``version`` the form was made from, so a
form opened before somebody else wrote on the sheet is refused instead of overwriting; entering a deal carries a
key, so a retried request does not write it twice.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from director.forms_pulka import JsonRowForm, PassedDealForm, TableExtendForm, TableStopForm
from preferans.pulka import DealScore, PulkaScore
from preferans.pulka.setup import row_dealer_label
from pulkas.models import PulkaCorrection, PulkaDeal, PulkaRound, PulkaTable
from pulkas.services.sheet import TableSheet, correct_deal, enter_deal, load_sheet
from pulkas.services.sheet_authority import time_words
from pulkas.services.table_control import extend_time, reopen_table, stop_table
from tournaments.errors import Conflict, UserError
from tournaments.models import Tournament
from tournaments.numbers import whole_number
from ui.director_pages import directs
from ui.display import describe_row
from ui.labels import sheet_labels  # the same words as the players' sheet
from ui.pulka_drawing import sheet_svg
from ui.row_form import PulkaRowForm, show_refusals

from .views_pulka_settings import player_label, pulka_event, pulka_nav, table_state

ACTIONS = ("enter", "enter_json", "pass", "correct", "correct_json", "stop", "reopen", "extend")
ENTRY_KINDS = {
    "pool": gettext_lazy("pool"),
    "mountain": gettext_lazy("mountain"),
    "whist": gettext_lazy("whists"),
}


@dataclass
class DealLine:
    deal: PulkaDeal
    scored: DealScore
    text: str
    extras: str
    cells: list[tuple[str, Fraction, Fraction]]  # seat, the deal's result, the running total
    confirmed: str


def _extras(row: dict[str, Any]) -> str:
    """The extra entries of a ruling or a penalty, in short: «N mountain 2; E→S whists 5»."""
    parts = []
    for entry in row.get("extra_entries") or []:
        if not isinstance(entry, dict):
            continue
        kind = str(ENTRY_KINDS.get(str(entry.get("type")), entry.get("type")))
        who = (
            f"{entry.get('from')}→{entry.get('to')}"
            if entry.get("type") == "whist"
            else str(entry.get("seat"))
        )
        parts.append(f"{who} {kind} {entry.get('amount')}")
    return "; ".join(parts)


def _deal_lines(sheet: TableSheet, score: PulkaScore) -> list[DealLine]:
    seats = sheet.setup.seats
    running = dict.fromkeys(seats, Fraction(0))
    lines = []
    for deal, scored in zip(sheet.deals, score.deals, strict=True):
        for seat in seats:
            running[seat] += scored.result[seat]
        lines.append(
            DealLine(
                deal,
                scored,
                describe_row(deal.row, sheet.setup.players, scored.dealer),
                _extras(deal.row),
                [(s, scored.result[s], running[s]) for s in seats],
                ", ".join(deal.confirmed_by),
            )
        )
    return lines


def _finals(sheet: TableSheet, score: PulkaScore) -> list[dict[str, Any]]:
    rule = sheet.event.rating_rule
    advance = score.ranking.advance
    decided = sheet.table.tie_decision or []
    out = []
    for seat, participant in sheet.table.seats().items():
        out.append(
            {
                "seat": seat,
                "player": player_label(participant),  # type: ignore[arg-type]
                "pool": score.sheet.pool[seat],
                "mountain": score.final_mountain(seat),
                "closing": score.closing[seat],
                "settlement": score.settlement[seat],
                "column": score.column[seat],
                "vists": score.vists[seat],
                "whole": score.integer_vists[seat],
                "rating": rule.round_rating(score.vists[seat], len(score.deals)),
                "rank": score.ranking.rank_text(seat),
                "goes_on": advance is not None and (seat in advance.seats or seat in decided),
                "tied": seat in sheet.table.tie_to_decide,
            }
        )
    return out


def _key(table: PulkaTable) -> str:
    return f"d{table.pk}-{uuid.uuid4().hex}"


class Page:
    """The forms of one sheet page: the ones a POST bound, the others fresh."""

    def __init__(self, request: HttpRequest, table: PulkaTable, sheet: TableSheet, score: PulkaScore) -> None:
        self.request, self.table, self.sheet, self.score = request, table, sheet, score
        self.correct_number = self._correct_number()
        self.forms: dict[str, forms.Form | None] = {}
        version = {"version": table.version}
        nxt = score.next_deal
        open_ = not table.finished and nxt is not None
        players, rules = sheet.setup.players, sheet.setup.rules
        bound = request.POST if request.method == "POST" else None
        action = request.POST.get("action") if bound else None

        def data(name: str) -> Any:
            return bound if action == name else None

        seats = sheet.setup.seats
        raw = request.POST.get("dealt_by") if bound else request.GET.get("dealt_by")
        # a deal dealt out of turn (Code 3.2.14): the director says who dealt it, the form follows
        self.dealt_by = raw if open_ and nxt is not None and raw in seats and raw != nxt.dealer else None
        if open_ and nxt is not None:
            dealer = self.dealt_by or nxt.dealer
            first = seats[(seats.index(dealer) + 1) % len(seats)]
            self.forms["enter"] = PulkaRowForm(
                data("enter"),
                players=players,
                rules=rules,
                dealer=row_dealer_label(players, dealer, first),
                initial=version | {"key": _key(table)},
                prefix="enter",
            )
            self.forms["enter_json"] = JsonRowForm(
                data("enter_json"), initial=version | {"key": _key(table)}, prefix="json"
            )
            self.forms["pass"] = PassedDealForm(
                data("pass"), seats=seats, initial=version | {"key": _key(table)}, prefix="pass"
            )
        if self.correct_number is not None:
            deal = sheet.deals[self.correct_number - 1]
            scored = score.deals[self.correct_number - 1]
            row = {k: v for k, v in deal.row.items() if k != "raspasy_step"}
            self.forms["correct"] = PulkaRowForm(
                data("correct"),
                players=players,
                rules=rules,
                dealer=row_dealer_label(players, scored.dealer, scored.first_hand),
                correcting=True,
                initial=version | PulkaRowForm.initial_of_row(row),
                prefix="correct",
            )
            self.forms["correct_json"] = JsonRowForm(
                data("correct_json"),
                correcting=True,
                prefix="cjson",
                initial=version | {"row": _json(row)},
            )
        if not table.finished:
            self.forms["stop"] = TableStopForm(data("stop"), initial=version, prefix="stop")
            if table.round.status == PulkaRound.Status.RUNNING:
                self.forms["extend"] = TableExtendForm(data("extend"), initial=version, prefix="extend")
        elif table.stopped_at is not None:
            self.forms["reopen"] = TableStopForm(data("reopen"), initial=version, prefix="reopen")

    def _correct_number(self) -> int | None:
        raw = (
            self.request.POST.get("deal")
            if self.request.method == "POST"
            else self.request.GET.get("correct")
        )
        number = whole_number(raw, digits=4)
        return number if number is not None and 1 <= number <= len(self.sheet.deals) else None


def _json(row: dict[str, Any]) -> str:
    return json.dumps(row, ensure_ascii=False)


def _sheet_url(tournament: Tournament, table: PulkaTable) -> str:
    return reverse(
        "director:pulka_table",
        kwargs={"slug": tournament.slug, "number": table.round.number, "table": table.number},
    )


def _handle(request: HttpRequest, page: Page, action: str) -> str | None:
    """Run the POSTed action through the services; the success message, or None when the form shows why not."""
    form = page.forms.get(action)
    if form is None or not form.is_valid():
        return None
    table, data, now, user = page.table, form.cleaned_data, timezone.now(), request.user
    if action in ("stop", "reopen", "extend") and data["version"] != table.version:
        raise Conflict(
            _("The sheet has changed since you opened it (somebody else wrote on it). Reload and check it."),
            code="sheet_changed",
        )
    if action in ("enter", "enter_json", "pass"):
        row = form.row() if isinstance(form, (PulkaRowForm, PassedDealForm)) else data["row"]
        if page.dealt_by and action != "enter_json":
            row["dealt_by"] = page.dealt_by
        key = data.get("key") or None
        if key and not key.startswith(f"d{table.pk}-"):
            key = None
        deal, created = enter_deal(
            table=table,
            row=row,
            now=now,
            user=user,
            key=key,
            version=data["version"],
            reason=data.get("reason") or "",
        )
        if not created:
            return _("Deal %(n)s had already been saved; nothing was written twice.") % {"n": deal.number}
        return _("Deal %(n)s is written on the sheet.") % {"n": deal.number}
    if action in ("correct", "correct_json"):
        row = form.row() if isinstance(form, PulkaRowForm) else data["row"]
        number = page.correct_number
        assert number is not None
        dealt_by = page.sheet.deals[number - 1].row.get("dealt_by")
        if isinstance(form, PulkaRowForm) and dealt_by:  # the form has no field for it: who dealt stays
            row["dealt_by"] = dealt_by
        correction = correct_deal(
            table=table,
            number=number,
            row=row,
            now=now,
            user=user,
            reason=data["reason"],
            version=data["version"],
        )
        text = _("Deal %(n)s is corrected.") % {"n": number}
        if correction.warning:
            text += " " + _("The writer gets a warning (a first correction after confirmation).")
        elif correction.penalty:
            text += " " + _("The penalty of Code 4.2.7 is written with the deal.")
        return text
    if action == "extend":
        extend_time(table=table, user=user, now=now, minutes=data["minutes"], reason=data["reason"])
        return _("Table %(n)s has %(m)s more minutes.") % {"n": table.number, "m": data["minutes"]}
    if action == "stop":
        stop_table(table=table, user=user, now=now, reason=data["reason"])
        return _("Table %(n)s is stopped; its sheet is closed (Code 4.2.3).") % {"n": table.number}
    reopen_table(table=table, user=user, now=now, reason=data["reason"])
    return _("Table %(n)s is reopened.") % {"n": table.number}


@directs
def table_sheet(request: HttpRequest, tournament: Tournament, number: int, table: int) -> HttpResponse:
    event = pulka_event(tournament)
    pulka_table = get_object_or_404(
        PulkaTable.objects.select_related("round", "seat_n", "seat_e", "seat_s", "seat_w"),
        round__tournament=tournament,
        round__number=number,
        number=table,
    )
    sheet = load_sheet(pulka_table, event=event)
    score = sheet.score()
    page = Page(request, pulka_table, sheet, score)
    status = 200
    if request.method == "POST":
        action = request.POST.get("action", "")
        form = page.forms.get(action)
        try:
            if action not in ACTIONS or form is None:
                raise Conflict(
                    _("This cannot be done on the sheet as it is now. Reload the page."), code="stale"
                )
            done = _handle(request, page, action)
        except UserError as exc:
            if form is not None and form.is_bound:
                show_refusals(form, exc)
            else:
                messages.error(request, exc.message)
            done = None
        if done is not None:
            messages.success(request, done)
            return redirect(_sheet_url(tournament, pulka_table))
        status = 400
    names = {seat: player_label(p) for seat, p in pulka_table.seats().items()}  # type: ignore[arg-type]
    state, state_text = table_state(pulka_table)
    context = pulka_nav(tournament, "rounds") | {
        "event": event,
        "table": pulka_table,
        "round": pulka_table.round,
        "seats": [(s, p) for s, p in pulka_table.seats().items()],
        "state": state,
        "state_text": state_text,
        "score": score,
        "deals": _deal_lines(sheet, score),
        "finals": _finals(sheet, score),
        "next_deal": score.next_deal,
        "next_dealer": names.get(score.next_deal.dealer, "") if score.next_deal else "",
        "forms": page.forms,
        "correct_number": page.correct_number,
        "corrections": _corrections(pulka_table, names),
        "svg": mark_safe(sheet_svg(score, names=names, labels=sheet_labels())),  # noqa: S308 - escaped by drawing
        "players_url": f"/pulka/{pulka_table.code}/",
        "rounds_url": reverse("director:pulka_rounds", kwargs={"slug": tournament.slug}) + f"?round={number}",
        "sheet_url": _sheet_url(tournament, pulka_table),
        "seat_count": len(sheet.setup.seats),
        "time_limit": pulka_table.time_limit
        if pulka_table.round.status == PulkaRound.Status.RUNNING
        else None,
        "time_words": time_words(pulka_table, timezone.now()),
        "dealt_by": page.dealt_by,
    }
    return render(request, "director/pulka/table.html", context, status=status)


def _corrections(pulka_table: PulkaTable, names: dict[str, str]) -> list[dict[str, Any]]:
    """The table's corrections with who answered for each (Code 4.2.4, 4.2.7): the warned and the penalised by
    name (``PulkaCorrection.answering``, the rule the phone page asks too)."""
    seat_of = {pid: seat for seat, pid in pulka_table.seat_ids().items()}
    out = []
    for c in PulkaCorrection.objects.filter(table=pulka_table).select_related("user").order_by("id"):
        warned, penalised = c.answering(seat_of.get(c.writer_id) if c.writer_id else None)
        out.append(
            {
                "c": c,
                "warned": ", ".join(names.get(s, s) for s in warned),
                "penalised": ", ".join(names.get(s, s) for s in penalised),
            }
        )
    return out
