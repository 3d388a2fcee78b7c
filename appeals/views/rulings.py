"""The director's rulings on irregularities (rules §10–§12).

``ruling_new`` records an irregularity with its facts — for a fouled board or a missing card also the layout
the table actually played, read by the boards' layout form — and the services propose the remedy the rules
prescribe; ``ruling_detail`` shows the proposal, lets the director revise the remedy, apply the ruling or
close it without action, and lists the score changes and the audit trail of the ruling.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from appeals import forms_rulings as fr
from appeals import services as svc
from appeals.models import Irregularity
from appeals.services import irregularities as svc_irregularities
from appeals.services.ruling_texts import proposal_text
from appeals.views import pulka_pages
from appeals.views._common import (
    _audit_of,
    _create,
    _guard_director,
    _names,
    _run,
    _seats_of,
    _session,
    _tournament,
)
from appeals.views.pulka import deal_context, row_of
from boards.forms import LayoutEntryForm
from boards.models import Board
from preferans.cards.deal import Seat
from preferans.cards.deck import format_hand
from preferans.numbers import format_percent
from scoring.seat_adjustments import percentages
from tournaments.models import Tournament
from ui.row_form import PulkaRowForm
from ui.templatetags.scores import display_number


def ruling_new(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    if (deny := _guard_director(request, t)) is not None:
        return deny  # type: ignore[return-value]
    if t.plays_pulkas:
        return pulka_pages.ruling_new(request, t)
    form = fr.IrregularityForm(request.POST or None, initial=request.GET.dict() or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        session = _session(t, d["session"])
        facts = form.facts()
        ok = session is not None
        if session is None:
            form.add_error("session", _("No such session."))
        if ok and d["kind"] in ("fouled", "missing_card") and any(form.played_fields().values()):
            played = _played_layout(t, session, d.get("board"), form)
            ok = played is not None
            if played:
                facts["played"] = played
        if ok:
            irr = _create(
                request,
                lambda: svc.irregularity_record(
                    session=session,
                    kind=d["kind"],
                    round=d["round"],
                    table=d["table"],
                    board=d.get("board"),
                    room=d.get("room") or 1,
                    fault=form.fault(),
                    facts=facts,
                    description=d["description"],
                    user=request.user,
                    now=timezone.now(),
                ),
                _("Irregularity recorded. Check the proposed remedy and confirm it."),
            )
            if irr is not None:
                return redirect("appeals:ruling", slug=t.slug, pk=irr.pk)
    return render(request, "appeals/ruling_new.html", {"tournament": t, "form": form})


def _played_layout(
    t: Tournament, session: Any, board_number: int | None, form: fr.IrregularityForm
) -> dict[str, Any] | None:
    board = Board.objects.filter(session=session, number=board_number).first() if board_number else None
    if board is None:
        form.add_error("board", _("Give the board whose layout was played."))
        return None
    layout = LayoutEntryForm(
        form.played_fields(),
        dealer=Seat(board.dealer),
        players=t.players_per_table,
        number=board.number,
        exact_counts=False,
    )
    if not layout.is_valid():
        for errors in layout.errors.values():
            for e in errors:
                form.add_error(None, e)
        return None
    played = layout.cleaned_data["played"]
    return {
        "hands": {seat.value: format_hand(cards) for seat, cards in played.hands.items()},
        "prikup": [c.notation for c in played.prikup],
    }


def ruling_detail(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    t = _tournament(slug)
    if (deny := _guard_director(request, t)) is not None:
        return deny  # type: ignore[return-value]
    irr = get_object_or_404(Irregularity.objects.select_related("session"), tournament=t, pk=pk)
    seats = _seats_of(t, irr.seats)
    if request.method == "POST":
        now = timezone.now()
        action = request.POST.get("action")
        if action in ("revise_row", "row_stands") and irr.is_pulka:
            _revise_pulka(request, irr, action, now)
        elif action == "revise":
            form = fr.ReviseForm(request.POST, seats=seats)
            if form.is_valid():
                _run(
                    request,
                    lambda: svc.irregularity_revise(
                        irregularity=irr, fault=form.fault(), facts=form.facts(), user=request.user, now=now
                    ),
                    _("Remedy revised."),
                )
        elif action in ("apply", "dismiss"):
            form = fr.RulingForm(request.POST)
            text = form.cleaned_data["ruling"] if form.is_valid() else ""
            if action == "apply":
                _run(
                    request,
                    lambda: svc.irregularity_apply(irregularity=irr, ruling=text, user=request.user, now=now),
                    _("Ruling applied; the standings are recomputed."),
                )
            else:
                _run(
                    request,
                    lambda: svc.irregularity_dismiss(
                        irregularity=irr, ruling=text or _("No action."), user=request.user, now=now
                    ),
                    _("Closed without action."),
                )
        return redirect("appeals:ruling", slug=t.slug, pk=irr.pk)
    initial = {f"fault_{s}": irr.fault.get(s, "") for s in seats}
    initial["remedy"] = irr.facts.get("remedy", "")
    initial.update({f"vists_{s}": (irr.facts.get("assigned") or {}).get(s, "") for s in seats})
    suggested = _above_plus(t, irr) if not irr.is_pulka else {}
    raised = irr.facts.get("percent") or {}
    initial.update({f"percent_{s}": raised.get(s, "") for s in seats})
    initial["percent_reason"] = irr.facts.get("percent_reason", "")
    if irr.facts.get("row"):
        initial["row"] = irr.facts["row"]
    revise_form = fr.ReviseForm(seats=seats, initial=initial)
    for seat, (value, _shown) in suggested.items():  # offered, never filled in for him
        revise_form.fields[f"percent_{seat}"].widget.attrs["placeholder"] = value
    context = {
        "tournament": t,
        "irr": irr,
        "people": _names(t, irr.seats),
        "changes": irr.changes.select_related("audit_entry", "participant"),
        "revise_form": revise_form,
        "ruling_form": fr.RulingForm(initial={"ruling": irr.ruling or _proposal_words(irr)}),
        "audit": _audit_of(t, "irregularity", irr),
        "proposal_text": _proposal_words(irr) if not irr.is_pulka else "",
        "percent_legend": _("§11.2 B1: a non-offender gets at least 60 %"),
        "suggested": [(seat, shown) for seat, (_value, shown) in suggested.items()],
        "appeals": irr.appeals.all(),
        **deal_context(irr, with_form=irr.status == Irregularity.Status.RECORDED),
    }
    if irr.is_pulka and (irr.facts or {}).get("row") and context.get("row_form") is not None:
        context["row_form"].initial.update(PulkaRowForm.initial_of_row(irr.facts["row"]))
    return render(request, "appeals/ruling_detail.html", context)


def _proposal_words(irr: Irregularity) -> str:
    """The proposal in the page's language (a pulka ruling's remedy is its corrected row: its own words)."""
    return irr.proposal.get("text", "") if irr.is_pulka else proposal_text(irr.proposal, irr.facts)


def _above_plus(t: Tournament, irr: Irregularity) -> dict[str, tuple[str, str]]:
    """Non-offenders whose session percentage so far is above the tournament's A+: the value the director may
    give them instead (§11.2 B1 «по меньшей мере 60 %»), as the form's value and as shown."""
    if irr.session is None:
        return {}
    plus = percentages(t)["A+"]
    out: dict[str, tuple[str, str]] = {}
    for seat, value in svc_irregularities.session_percentages(irr.session, irr.seats).items():
        if not irr.fault.get(seat) and value > plus:
            # the form's value keeps the point; the hint is shown in the page's language
            out[seat] = (format_percent(value), display_number(value, trim=False))
    return out


def _revise_pulka(request: HttpRequest, irr: Irregularity, action: str, now: Any) -> None:
    """The remedy of a pulka ruling: the deal's corrected row, or the deal stands as written."""
    facts: dict[str, Any] = {"row": None}
    if action == "revise_row":
        row, version, problems = row_of(deal_context(irr, request.POST).get("row_form"))
        if row is None:
            messages.error(request, " ".join([_("The corrected row of the deal is not valid."), *problems]))
            return
        facts = {"row": row, "version": version}
    _run(
        request,
        lambda: svc.irregularity_revise(irregularity=irr, facts=facts, user=request.user, now=now),
        _("Remedy revised."),
    )
