"""Corrections of results: the director records a request and applies or refuses it.

``correction_new`` records a correction (within the correction period; a late one only with a note);
``correction_detail`` shows the result as it stands and lets the director correct the protocol row or the
seating — values left as they are count as unchanged — or refuse the request with a reason.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from appeals import forms as f
from appeals import services as svc
from appeals.models import Correction
from appeals.views import pulka_pages
from appeals.views._common import _create, _guard_director, _result_of, _run, _session, _tournament
from appeals.views.pulka import deal_context, row_of
from preferans.game.seats import table_seats


def correction_new(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    if (deny := _guard_director(request, t)) is not None:
        return deny  # type: ignore[return-value]
    if t.plays_pulkas:
        return pulka_pages.correction_new(request, t)
    form = f.CorrectionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        session = _session(t, d["session"])
        if session is None:
            form.add_error("session", _("No such session."))
        else:
            c = _create(
                request,
                lambda: svc.correction_request(
                    session=session,
                    kind=d["kind"],
                    board=d["board"],
                    round=d["round"],
                    table=d["table"],
                    room=d.get("room") or 1,
                    description=d["description"],
                    late_note=d["late_note"],
                    user=request.user,
                    now=timezone.now(),
                ),
                _("Correction recorded."),
            )
            if c is not None:
                return redirect("appeals:correction", slug=t.slug, pk=c.pk)
    return render(request, "appeals/correction_new.html", {"tournament": t, "form": form})


def correction_detail(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    t = _tournament(slug)
    if (deny := _guard_director(request, t)) is not None:
        return deny  # type: ignore[return-value]
    c = get_object_or_404(Correction.objects.select_related("session", "requested_by"), tournament=t, pk=pk)
    result = None if c.is_pulka else _result_of(c)
    seats = list(result.seats()) if result else list(table_seats(t.players_per_table))
    if request.method == "POST":
        now = timezone.now()
        if request.POST.get("action") == "refuse":
            form = f.NoteForm(request.POST)
            note = form.cleaned_data["note"] if form.is_valid() else ""
            _run(
                request,
                lambda: svc.correction_refuse(correction=c, reason=note, user=request.user, now=now),
                _("Correction refused."),
            )
        elif c.is_pulka:
            _apply_pulka(request, c, now)
        else:
            form = f.CorrectionApplyForm(request.POST, seats=seats)
            if form.is_valid():
                row = form.cleaned_data["row"] or None
                if result is not None and row == result.row:
                    row = None
                new_seats = form.seat_numbers()
                if result is not None and new_seats == result.seats():
                    new_seats = None
                if row is not None and new_seats is None and result is not None:
                    new_seats = result.seats()
                _run(
                    request,
                    lambda: svc.correction_apply(
                        correction=c, row=row, seats=new_seats, user=request.user, now=now
                    ),
                    _("Result corrected; the standings are recomputed."),
                )
            else:
                messages.error(request, _("The corrected row is not valid JSON."))
        return redirect("appeals:correction", slug=t.slug, pk=c.pk)
    initial: dict[str, Any] = {"row": result.row if result else {}}
    if result:
        initial.update({f"seat_{s}": n for s, n in result.seats().items()})
    context = {
        "tournament": t,
        "c": c,
        "result": result,
        "apply_form": f.CorrectionApplyForm(seats=seats, initial=initial),
        "note_form": f.NoteForm(),
        "changes": c.changes.select_related("audit_entry"),
        **deal_context(c, with_form=c.status == Correction.Status.REQUESTED),
    }
    return render(request, "appeals/correction_detail.html", context)


def _apply_pulka(request: HttpRequest, c: Correction, now: Any) -> None:
    """Correct a pulka deal with the row the director typed, through the sheet's write path."""
    row, version, problems = row_of(deal_context(c, request.POST).get("row_form"))
    if row is None:
        messages.error(request, " ".join([_("The corrected row of the deal is not valid."), *problems]))
        return
    if version is not None and c.pulka_table is not None and version != c.pulka_table.version:
        messages.error(
            request,
            _("The sheet has changed since you opened it (somebody else wrote on it). Reload and check it."),
        )
        return
    _run(
        request,
        lambda: svc.correction_apply(correction=c, row=row, user=request.user, now=now),
        _("The deal is corrected; the table's result is recomputed."),
    )
