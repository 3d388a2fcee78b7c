"""The pulka sheet at the table as the template receives it: the header, the drawn sheet, the deals, the totals
and the forms.

Who may read the sheet is :func:`visibility.can_see_sheet` (rules §12.2.4), as on every channel: the table
code is printed on the table card, so it proves nothing. The sheet, its deals and totals are shown to a device that
remembers a player of this table (``table.device``, after his number and PIN), to the tournament's directors, and
to anybody once the results are published and the round has ended; any other device sees the header.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from preferans.game.seats import active_seats, defenders, hands_in_order
from preferans.pulka import PulkaScore
from preferans.pulka.setup import row_dealer_label
from pulkas.models import PulkaCorrection, PulkaDeal, PulkaRound, PulkaTable
from pulkas.services.sheet import TableSheet, load_sheet
from pulkas.services.sheet_authority import check_player_corrects, time_over, time_words
from table.device import DeviceTable, viewer
from table.forms import contract_grid, initial_from_row, three_raspasy_hands
from table.pulka_forms import DealForm, seat_lines
from tournaments.errors import UserError
from tournaments.models import Participant, Tournament
from ui.display import describe_row
from ui.labels import CALL_WORDS, sheet_labels
from ui.pulka_drawing import sheet_svg
from ui.pulka_totals import rounding_line
from ui.templatetags.scores import vists_text, whole_text
from visibility import Viewer, can_see_sheet

STATES = {
    "in_progress": lambda n: _("Playing"),
    "pool": lambda n: _("Ended: every pool is closed"),
    "deal_limit": lambda n: _("Ended: the deal limit (%(n)s) is reached") % {"n": n},
    "stopped": lambda n: _("Stopped by the director"),
}


@dataclass
class PulkaPage:
    """A pulka table with its sheet played through the core."""

    table: PulkaTable
    sheet: TableSheet
    score: PulkaScore
    seats: dict[str, Participant]

    @property
    def round(self) -> PulkaRound:
        return self.table.round

    @property
    def tournament(self) -> Tournament:
        return self.sheet.tournament

    @property
    def players(self) -> int:
        return self.table.players

    @property
    def deals(self) -> list[PulkaDeal]:
        return self.sheet.deals

    @property
    def next_number(self) -> int:
        return len(self.deals) + 1

    @property
    def device(self) -> DeviceTable:
        """The table as the device memory reads it (``table.device``, alike for both forms)."""
        return DeviceTable.pulka(self.table, self.seats)

    def label(self, number: int) -> str:
        """The row's dealer label for deal ``number``: the dealer at 4 players, the first hand at 3 (P-23)."""
        dealer, first = self.dealer_of(number)
        return row_dealer_label(self.players, dealer, first)

    def dealer_of(self, number: int) -> tuple[str, str]:
        """Deal ``number``'s dealer and first hand as the sheet says (after any break the director recorded in
        the dealing order, Code 3.2.14)."""
        deals, nxt = self.score.deals, self.score.next_deal
        if 0 < number <= len(deals):
            return deals[number - 1].dealer, deals[number - 1].first_hand
        if nxt is not None and nxt.number == number:
            return nxt.dealer, nxt.first_hand
        setup = self.sheet.setup
        return setup.dealer(number), setup.first_hand(number)

    def seat_label(self, seat: str) -> str:
        p = self.seats.get(seat)
        return f"{seat} · {p.number} {p.name}".strip() if p else seat

    def seat_of(self, participant: Participant) -> str | None:
        return self.sheet.seat_of(participant)

    @property
    def running(self) -> bool:
        return self.round.status == PulkaRound.Status.RUNNING and self.tournament.scores_open()

    @property
    def can_write(self) -> bool:
        """A deal may be written now: not after the deal in progress at the time limit (004 fn 32, Code fn 94)."""
        table, nxt = self.table, self.score.next_deal
        if not self.running or table.finished or nxt is None:
            return False
        over = table.overtime_deal is not None and time_over(table, timezone.now())
        return not (over and table.overtime_deal is not None and nxt.number > table.overtime_deal)

    @property
    def awaiting(self) -> PulkaDeal | None:
        """The last deal, while the others have still to confirm it (and may: the round runs, the table is not
        stopped — ``pulkas.services.sheet_authority.check_player_confirms``)."""
        last = self.sheet.last
        if not self.running or self.table.stopped_at is not None:
            return None
        return last if last is not None and last.status == PulkaDeal.Status.ENTERED else None

    def can_correct(self, number: int | None) -> bool:
        """Players correct only the last deal, before the next one (Code 4.2.9), while the round runs; never the
        director's entry, nor the confirmed final deal of a finished pulka (``pulkas.services.sheet_authority``)."""
        return (
            number is not None
            and number == len(self.deals)
            and number > 0
            and self.running
            and self.table.stopped_at is None
            and self.deals[number - 1].status != PulkaDeal.Status.DIRECTOR  # the director's entry is final
            and not (self.table.ended and self.deals[number - 1].status == PulkaDeal.Status.CONFIRMED)
        )

    def why_not_correct(self, number: int | None) -> str:
        """Why the players may not correct deal ``number`` in the service's words ("" if no such rule applies)."""
        if number is None or not 0 < number <= len(self.deals):
            return ""
        try:
            check_player_corrects(self.table, self.deals[number - 1], ended=self.table.ended)
        except UserError as exc:
            return exc.message
        return ""

    def awaiting_seats(self, deal: PulkaDeal) -> list[str]:
        writer = next((s for s, p in self.seats.items() if p.pk == deal.entered_by_id), None)
        return [s for s in self.seats if s != writer and s not in deal.confirmed_by]


def load_page(table: PulkaTable) -> PulkaPage:
    sheet = load_sheet(table)
    seats = cast(dict[str, Participant], table.seats())
    return PulkaPage(table, sheet, sheet.score(), seats)


def names(page: PulkaPage) -> dict[str, str]:
    return {seat: p.name or str(p.number) for seat, p in page.seats.items()}


def signed(value: Fraction, *, whole: bool = False) -> dict[str, Any]:
    """A figure as the page shows it: ``+5,33`` (``+14`` when ``whole``), and the exact value for its title."""
    shown = whole_text(value, signed=True) if whole else vists_text(value, signed=True)
    exact = "" if value.denominator == 1 else str(value)
    return {"display": shown, "negative": value < 0, "zero": value == 0, "exact": exact}


def vists_lines(page: PulkaPage, result: dict[str, Fraction]) -> list[dict[str, Any]]:
    """A deal's result a line a player (the same shape as the duplicate page's preview, for table.js)."""
    out = []
    for seat in page.sheet.setup.seats:
        p = page.seats[seat]
        out.append(
            {"seat": seat, "number": p.number, "name": p.name, **signed(result.get(seat, Fraction(0)))}
        )
    return out


def penalty_text(page: PulkaPage, entries: list[dict[str, Any]]) -> str:
    """The extra entries of a penalty in words: «W: 2 on the mountain; E writes 3 whists on W»."""
    parts = []
    for entry in entries:
        kind, amount = entry.get("type"), entry.get("amount")
        if kind == "whist":
            parts.append(
                ngettext(
                    "%(from)s writes %(amount)s whist on %(to)s",
                    "%(from)s writes %(amount)s whists on %(to)s",
                    int(amount or 0),
                )
                % {"from": entry.get("from"), "to": entry.get("to"), "amount": amount}
            )
        elif kind == "pool":
            parts.append(
                _("%(seat)s: %(amount)s in the pool") % {"seat": entry.get("seat"), "amount": amount}
            )
        else:
            parts.append(
                _("%(seat)s: %(amount)s on the mountain") % {"seat": entry.get("seat"), "amount": amount}
            )
    return "; ".join(parts)


def answering(page: PulkaPage, correction: PulkaCorrection) -> tuple[str, str]:
    """Who was warned and who was penalised by a correction (Code 4.2.4, 4.2.7), as seat labels joined by commas
    (``PulkaCorrection.answering``: the one rule, the director's page asks it too)."""
    writer_seat = page.seat_of(correction.writer) if correction.writer is not None else None
    warned, penalised = correction.answering(writer_seat)
    return ", ".join(page.seat_label(s) for s in warned), ", ".join(page.seat_label(s) for s in penalised)


def correction_text(page: PulkaPage, correction: PulkaCorrection) -> str:
    if correction.user_id is not None:
        return _("corrected by the director: %(reason)s") % {"reason": correction.reason}
    warned, penalised = answering(page, correction)
    parts = []
    if correction.penalty:
        parts.append(
            _("corrected; penalty to %(writer)s (Code 4.2.7): %(entries)s")
            % {"writer": penalised, "entries": penalty_text(page, correction.penalty)}
        )
    if warned:
        parts.append(
            _("corrected; a warning to %(writer)s (first correction, no penalty)") % {"writer": warned}
        )
    if not parts:
        parts.append(
            _(
                "corrected without penalty: nobody had confirmed it, or nothing was written in anyone's favour "
                "(a forgotten entry is written late, Code 4.2.10)"
            )
        )
    return " · ".join(parts)


def deal_lines(page: PulkaPage) -> list[dict[str, Any]]:
    """The deals as the list under the sheet shows them, the latest first."""
    corrections: dict[int, list[str]] = {}
    for c in PulkaCorrection.objects.filter(table=page.table).select_related("writer"):
        corrections.setdefault(c.deal_number, []).append(correction_text(page, c))
    lines = []
    for stored, scored in zip(page.deals, page.score.deals, strict=True):
        row = stored.row
        lines.append(
            {
                "number": stored.number,
                "dealer": page.seat_label(scored.dealer),
                "text": describe_row(row, page.players, page.label(stored.number)),
                "step": scored.raspasy_step,
                "penalty": penalty_text(page, list(row.get("extra_entries") or [])),
                "results": vists_lines(page, dict(scored.result)),
                "status": stored.status,
                "awaiting": [page.seat_label(s) for s in page.awaiting_seats(stored)]
                if stored.status == PulkaDeal.Status.ENTERED
                else [],
                "confirmed": [page.seat_label(s) for s in stored.confirmed_by],
                "corrections": corrections.get(stored.number, []),
            }
        )
    return lines[::-1]


def totals(page: PulkaPage) -> list[dict[str, Any]]:
    score = page.score
    vists, whole = score.vists, score.integer_vists
    out = []
    for seat in score.ranking.order:
        p = page.seats[seat]
        out.append(
            {
                "seat": seat,
                "number": p.number,
                "name": p.name,
                "vists": signed(vists[seat]),
                "whole": signed(whole[seat], whole=True),
                "rank": score.ranking.rank_text(seat),
            }
        )
    return out


def clock(page: PulkaPage, now: dt.datetime) -> dict[str, Any]:
    """The round's clock: time left until its limit (the browser counts down), or why there is none."""
    rnd = page.round
    if rnd.status == PulkaRound.Status.PENDING:
        return {"text": _("The round has not started yet.")}
    if rnd.status == PulkaRound.Status.ENDED:
        return {"text": _("The round has ended.")}
    if page.table.finished:  # no clock to watch here: the other tables may still be playing
        return {"text": _("This table has finished; the round goes on at the other tables.")}
    limit = page.table.time_limit  # the round's, or the director's extension for this table
    if limit is None:
        return {}
    left = max(0, int((limit - now).total_seconds()))
    hours, rest = divmod(left, 3600)
    return {
        "words": time_words(page.table, now),
        "ends_at": limit.isoformat(),
        "now": now.isoformat(),
        "left": f"{hours}:{rest // 60:02d}:{rest % 60:02d}",
        "over": left == 0,
    }


def next_deal(page: PulkaPage) -> dict[str, Any] | None:
    nd = page.score.next_deal
    if nd is None or page.table.finished:
        return None
    return {
        "number": nd.number,
        "dealer": page.seat_label(nd.dealer),
        "first_hand": page.seat_label(nd.first_hand),
        "step": nd.raspasy_step,
        "chain": nd.chain,
        "exit": nd.exit_minimum,
    }


def form_meta(page: PulkaPage, number: int) -> str:
    """What table.js needs to name the columns: the deal's seats, defenders and raspasy hands."""
    label, players = page.label(number), page.players
    return json.dumps(
        {
            "board": number,
            "players": players,
            "dealer": label,
            "three": three_raspasy_hands(players, page.sheet.setup.rules),
            "after": {s: defenders(players, label, s) for s in active_seats(players, label)},
            "hands": hands_in_order(players, label),
            "names": {s: page.seat_label(s) for s in page.seats},
        },
        ensure_ascii=False,
    )


def deal_form(
    page: PulkaPage, number: int, *, data: Any = None, key: str = "", me: Participant | None = None
) -> DealForm:
    """The form of deal ``number``: blank for the next deal, filled from the stored row for a correction."""
    initial: dict[str, Any] = {"board": number, "key": key, "play": "closed", "version": page.table.version}
    if me is not None:
        initial["writer"] = me.number
    if number <= len(page.deals):
        initial.update(
            initial_from_row(page.deals[number - 1].row, players=page.players, dealer=page.label(number))
        )
    return DealForm(
        data, initial=initial, players=page.players, rules=page.sheet.setup.rules, dealer=page.label(number)
    )


def _drawn(page: PulkaPage) -> str:
    """The drawn sheet as inline SVG (``sheet_svg`` escapes every name and label it writes)."""
    return mark_safe(sheet_svg(page.score, names=names(page), labels=sheet_labels()))  # noqa: S308


def may_see(request: HttpRequest, page: PulkaPage) -> bool:
    """Whether this device sees the sheet (:func:`visibility.can_see_sheet`): the player it remembers
    at this table, whoever is logged in (a director), or anybody once the round's sheets are public."""
    return can_see_sheet(Viewer.at_table(viewer(request, page.device), request.user), page.table)


def render_page(
    request: HttpRequest,
    page: PulkaPage,
    *,
    status: int = 200,
    form: DealForm | None = None,
    correcting: int | None = None,
    refusals: list[str] | None = None,
    preview: list[dict[str, Any]] | None = None,
    errors: dict[str, str] | None = None,
    page_error: str | None = None,
    new_key: str = "",
) -> HttpResponse:
    """The page; ``form`` is a posted form shown again with what was wrong with it (``refusals``, ``errors``)."""
    seen_by = viewer(request, page.device)
    can_see = may_see(request, page)
    errors = errors or {}
    editing = correcting if page.can_correct(correcting) else None
    # a posted form is shown again as typed, whoever sent it (its PIN says who he is)
    show_form = (form is not None and form.is_bound) or (
        can_see and (editing is not None or (page.can_write and page.awaiting is None))
    )
    number = editing or page.next_number
    if show_form and form is None:
        form = deal_form(page, number, key=new_key, me=seen_by)
    awaiting = page.awaiting
    writer_seat = None
    if form is not None and form.is_bound:
        writer_seat = next(
            (s for s, p in page.seats.items() if str(p.number) == str(form.data.get("writer"))), None
        )
    ctx = {
        "page": page,
        "table": page.table,
        "tournament": page.tournament,
        "round": page.round,
        "players": page.players,
        "seats": seat_lines(page.seats),
        "clock": clock(page, timezone.now()),
        "state": STATES.get(page.score.reason, STATES["in_progress"])(page.sheet.setup.max_deals),
        "finished": page.table.finished,
        "next": next_deal(page),
        "viewer": seen_by,
        "viewer_seat": page.seat_of(seen_by) if seen_by else None,
        "can_see": can_see,
        "sheet_svg": _drawn(page) if can_see else "",
        "deals": deal_lines(page) if can_see else [],
        "totals": totals(page) if can_see and (page.deals or page.table.finished) else [],
        "provisional": page.score.reason == "in_progress",
        "rounding": rounding_line(page.score.rounding, sheet_labels()),
        "advance": [page.seat_label(s) for s in (page.table.advance or {}).get("seats", [])]
        if page.tournament.form == "olympic" and page.table.finished
        else [],
        "awaiting": awaiting,
        "awaiting_seats": seat_lines({s: page.seats[s] for s in page.awaiting_seats(awaiting)})
        if awaiting
        else [],
        "can_correct": can_see and page.can_correct(len(page.deals)) and editing is None,
        "show_form": show_form,
        "form": form if show_form else None,
        "editing": editing,
        "deal_number": number,
        "deal_dealer": page.seat_label(page.dealer_of(number)[0]),
        "deal_first": page.seat_label(page.dealer_of(number)[1]),
        "meta_json": form_meta(page, number),
        "active": [(s, page.seats[s]) for s in active_seats(page.players, page.label(number))],
        "grid": contract_grid(),
        "calls": CALL_WORDS,
        "three_inputs": three_raspasy_hands(page.players, page.sheet.setup.rules),
        "steps": [],
        "confirmers": [{**s, "error": errors.get(f"pin_{s['seat']}")} for s in seat_lines(page.seats)],
        "writer_seat": writer_seat,
        "refusals": refusals,
        "preview": preview,
        "errors": errors,
        "page_error": page_error,
        "preview_url": reverse("table:pulka_preview", kwargs={"code": page.table.code}),
        "pdf_url": reverse("table:pulka_pdf", kwargs={"code": page.table.code}),
        "confirmed_status": PulkaDeal.Status.CONFIRMED,
    }
    return render(request, "table/pulka/page.html", ctx, status=status)
