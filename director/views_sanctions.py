"""The director suspends or disqualifies a participant (rules §13.2.4) and withdraws a measure given in error.

Every action goes through :mod:`events.sanctions` (reasons, approval, audit, rescore)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from events.sanctions import disqualify, sanction_withdraw, suspend
from tournaments.errors import UserError
from tournaments.models import Participant, Sanction, Tournament
from ui.director_pages import directs, fail, nav

from .forms import ReasonForm


class SuspendForm(forms.Form):
    participant = forms.IntegerField(label=gettext_lazy("Participant No."), min_value=1)
    session = forms.IntegerField(label=gettext_lazy("Session"), min_value=1)
    first_round = forms.IntegerField(label=gettext_lazy("From round"), min_value=1, required=False)
    last_round = forms.IntegerField(
        label=gettext_lazy("To round"),
        min_value=1,
        required=False,
        help_text=gettext_lazy("Leave both rounds empty to suspend for the whole session."),
    )
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=300)


class DisqualifyForm(forms.Form):
    participant = forms.IntegerField(label=gettext_lazy("Participant No."), min_value=1)
    approved_by = forms.CharField(
        label=gettext_lazy("Approved by"),
        max_length=200,
        help_text=gettext_lazy("The tournament committee or the organisers, and who (rules §13.2.4)."),
    )
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=300)


def _participant(tournament: Tournament, form: forms.Form) -> Participant | None:
    participant = tournament.participants.filter(number=form.cleaned_data["participant"]).first()
    if participant is None:
        form.add_error("participant", _("No participant with this number."))
    return participant


def _run(form: forms.Form, action: Any) -> bool:
    try:
        action()
    except UserError as exc:
        fields = {d.field for d in exc.details} & set(form.fields)
        form.add_error(next(iter(fields)) if fields else None, exc.message)
        return False
    return True


@directs
def sanctions(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    post = request.POST if request.method == "POST" else None
    action = (post or {}).get("action")
    suspend_form = SuspendForm(post if action == "suspend" else None, prefix="s")
    disqualify_form = DisqualifyForm(post if action == "disqualify" else None, prefix="d")
    now = timezone.now()
    if action == "suspend" and suspend_form.is_valid():
        d = suspend_form.cleaned_data
        participant = _participant(tournament, suspend_form)
        session = tournament.sessions.filter(number=d["session"]).first()
        if session is None:
            suspend_form.add_error("session", _("No such session."))
        elif participant is not None and _run(
            suspend_form,
            lambda: suspend(
                tournament=tournament,
                participant=participant,
                session=session,
                first_round=d["first_round"],
                last_round=d["last_round"],
                reason=d["reason"],
                user=request.user,
                now=now,
            ),
        ):
            messages.success(request, _("Suspension from play recorded: %(p)s.") % {"p": participant})
            return redirect("director:sanctions", slug=tournament.slug)
    elif action == "disqualify" and disqualify_form.is_valid():
        d = disqualify_form.cleaned_data
        participant = _participant(tournament, disqualify_form)
        if participant is not None and _run(
            disqualify_form,
            lambda: disqualify(
                tournament=tournament,
                participant=participant,
                reason=d["reason"],
                approved_by=d["approved_by"],
                user=request.user,
                now=now,
            ),
        ):
            messages.success(request, _("Disqualification recorded: %(p)s.") % {"p": participant})
            return redirect("director:sanctions", slug=tournament.slug)
    context = nav(tournament, active="participants") | {
        "sanctions": Sanction.objects.filter(tournament=tournament).select_related("participant", "session"),
        "suspend_form": suspend_form,
        "disqualify_form": disqualify_form,
        "remove_form": ReasonForm(),
    }
    return render(request, "director/sanctions.html", context)


@require_POST
@directs
def sanction_delete(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    sanction = get_object_or_404(Sanction, tournament=tournament, pk=pk)
    form = ReasonForm(request.POST)
    try:
        sanction_withdraw(
            sanction=sanction,
            user=request.user,
            now=timezone.now(),
            reason=form.cleaned_data["reason"] if form.is_valid() else "",
        )
    except UserError as exc:
        fail(request, exc)
    else:
        messages.success(request, _("The measure is withdrawn."))
    return redirect("director:sanctions", slug=tournament.slug)
