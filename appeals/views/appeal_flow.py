"""An appeal from filing to closing: the director's and the appeals committee's pages.

The director files an appeal or records a notice for a player (``appeal_new``); the appeal's page
(``appeal_detail``) shows Appendix B, the result as it stands, the state along the main path and the forms
of the next step; ``appeal_action`` takes each step — comment, hearing, decision, signatures (a committee
member may sign for himself), applying, closing, withdrawal and admitting a late appeal — through the services.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from appeals import forms as f
from appeals import forms_pulka as fp
from appeals import services as svc
from appeals.models import Appeal, CommitteeMember, ScoreChange
from appeals.views import pulka_pages
from appeals.views._common import (
    _audit_of,
    _committee_member,
    _create,
    _guard_director,
    _guard_director_or_committee,
    _names,
    _refuse,
    _result_of,
    _run,
    _seats_of,
    _session,
    _tournament,
    appeal_refusal,
)
from appeals.views.appendix_b import _appeal_board, _prikup_seat, _prikup_symbols, layout_rows
from appeals.views.pulka import deal_context, row_of
from tournaments.models import Participant
from tournaments.permissions import can_direct
from ui.row_form import PulkaRowForm

MAIN_PATH = [
    Appeal.Status.FILED,
    Appeal.Status.COMMENTED,
    Appeal.Status.HEARD,
    Appeal.Status.DECIDED,
    Appeal.Status.APPLIED,
    Appeal.Status.CLOSED,
]


def appeal_new(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    if (deny := _guard_director(request, t)) is not None:
        return deny  # type: ignore[return-value]
    if t.plays_pulkas:
        return pulka_pages.appeal_new(request, t)
    form = f.DirectorAppealForm(request.POST or None, tournament=t)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        session = _session(t, d["session"])
        appellant = Participant.objects.filter(tournament=t, number=d["participant"]).first()
        if session is None:
            form.add_error("session", _("No such session."))
        elif appellant is None:
            form.add_error("participant", _("No such participant."))
        else:
            now = timezone.now()
            if "notice" in request.POST:
                appeal = _create(
                    request,
                    lambda: svc.appeal_notice(
                        session=session,
                        appellant=appellant,
                        round=d["round"],
                        board=d["board"],
                        ruling=d["ruling"],
                        user=request.user,
                        now=now,
                        late_note=d["late_note"],
                    ),
                    _("Notice recorded."),
                )
            else:
                appeal = _create(
                    request,
                    lambda: svc.appeal_file(
                        session=session,
                        appellant=appellant,
                        round=d["round"],
                        board=d["board"],
                        claim=d["claim"],
                        bidding=d["bidding"],
                        play=d["play"],
                        ruling=d["ruling"],
                        via=Appeal.Via.DIRECTOR,
                        late_note=d["late_note"],
                        user=request.user,
                        now=now,
                    ),
                    _("Appeal filed."),
                    refusal=appeal_refusal,
                )
            if appeal is not None:
                return redirect("appeals:appeal", slug=t.slug, number=appeal.number)
    return render(request, "appeals/appeal_new.html", {"tournament": t, "form": form})


def appeal_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    t = _tournament(slug)
    if (deny := _guard_director_or_committee(request, t)) is not None:
        return deny  # type: ignore[return-value]
    appeal = get_object_or_404(
        Appeal.objects.select_related("appellant", "session", "ruling"), tournament=t, number=number
    )
    board = None if appeal.is_pulka else _appeal_board(appeal)
    seats = _seats_of(t, appeal.seats)
    deciding = appeal.status in (Appeal.Status.HEARD, Appeal.Status.DECIDED)
    context = {
        "tournament": t,
        "appeal": appeal,
        "is_director": can_direct(request.user, t),
        "own_member": _committee_member(request, t),
        "board": board,
        "layout": layout_rows(board),
        "prikup": _prikup_symbols(board),
        "prikup_seat": _prikup_seat(board),
        "people": _names(t, appeal.seats),
        "result": None if appeal.is_pulka else _result_of(appeal),
        "panel": appeal.panel.select_related("member__election", "member__tournament"),
        "changes": appeal.changes.select_related("audit_entry", "participant"),
        "ruling_changes": appeal.ruling.changes.all() if appeal.ruling else [],
        "audit": _audit_of(t, "appeal", appeal),
        "comment_form": f.CommentForm(initial={"comment": appeal.director_comment}),
        "hear_form": f.HearForm(
            tournament=t, initial={"members": CommitteeMember.objects.filter(tournament=t)}
        ),
        "decide_form": fp.PulkaDecideForm(initial=_decision_initial(appeal))
        if appeal.is_pulka
        else f.DecideForm(seats=seats, initial=_decision_initial(appeal)),
        "sign_form": f.SignForm(appeal=appeal),
        "note_form": f.NoteForm(),
        "seats": seats,
        **_steps(appeal),
        **deal_context(appeal, with_form=deciding),
    }
    if appeal.is_pulka and deciding and context.get("row_form") is not None:
        planned = appeal.changes.filter(kind=ScoreChange.Kind.ROW, status=ScoreChange.Status.PLANNED).first()
        if planned is not None:  # the decided row, as the committee last recorded it
            context["row_form"].initial.update(PulkaRowForm.initial_of_row(planned.values))
    return render(request, "appeals/appeal_detail.html", context)


def _decision_initial(appeal: Appeal) -> dict[str, Any]:
    """The decision form as last recorded (outcome, text, grades or vists, penalty)."""
    initial: dict[str, Any] = {"outcome": appeal.outcome or "upheld", "decision": appeal.decision}
    for change in appeal.changes.exclude(status=ScoreChange.Status.DROPPED).select_related("participant"):
        if change.kind in (ScoreChange.Kind.ARTIFICIAL, ScoreChange.Kind.ASSIGNED):
            initial["kind"] = change.kind
            prefix = "grade" if change.kind == ScoreChange.Kind.ARTIFICIAL else "vists"
            initial.update({f"{prefix}_{seat}": value for seat, value in change.values.items()})
        elif change.kind == ScoreChange.Kind.PENALTY and change.participant is not None:
            initial.update(
                penalty_participant=change.participant.number, penalty_matchpoints=change.matchpoints
            )
    return initial


def _decide_pulka(request: HttpRequest, appeal: Appeal, now: Any) -> None:
    """The committee's decision on a pulka deal: an adjustment is the deal's corrected row."""
    form = fp.PulkaDecideForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose the outcome and write the decision."))
        return
    adjustment = None
    if form.cleaned_data["outcome"] == Appeal.Outcome.ADJUSTED:
        row, version, problems = row_of(deal_context(appeal, request.POST).get("row_form"))
        if row is None:
            messages.error(request, " ".join([_("The corrected row of the deal is not valid."), *problems]))
            return
        adjustment = {"kind": "row", "row": row, "version": version}
    _run(
        request,
        lambda: svc.appeal_decide(
            appeal=appeal,
            outcome=form.cleaned_data["outcome"],
            decision=form.cleaned_data["decision"],
            adjustment=adjustment,
            user=request.user,
            now=now,
        ),
        _("Decision recorded. The committee members sign it next."),
    )


def _steps(appeal: Appeal) -> dict[str, Any]:
    steps = [(s.value, s.label) for s in MAIN_PATH]
    codes = [s.value for s in MAIN_PATH]
    done = codes[: codes.index(appeal.status)] if appeal.status in codes else []
    return {"steps": steps, "done": done}


@require_POST
def appeal_action(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    t = _tournament(slug)
    appeal = get_object_or_404(Appeal, tournament=t, number=number)
    is_director = can_direct(request.user, t)
    member = _committee_member(request, t)
    if not is_director and not (action == "sign" and member is not None):
        return _refuse(request)  # type: ignore[return-value]
    now = timezone.now()
    user = request.user
    back = redirect("appeals:appeal", slug=t.slug, number=appeal.number)
    if action == "comment":
        form = f.CommentForm(request.POST)
        if form.is_valid():
            _run(
                request,
                lambda: svc.appeal_comment(
                    appeal=appeal,
                    comment=form.cleaned_data["comment"],
                    notice_at=form.cleaned_data["notice_at"],
                    user=user,
                    now=now,
                ),
                _("Comment recorded."),
            )
        else:
            messages.error(request, _("Write the director's comment."))
    elif action == "hear":
        form = f.HearForm(request.POST, tournament=t)
        if form.is_valid():
            _run(
                request,
                lambda: svc.appeal_hear(
                    appeal=appeal,
                    members=list(form.cleaned_data["members"]),
                    notes=form.cleaned_data["notes"],
                    user=user,
                    now=now,
                ),
                _("Hearing recorded."),
            )
        else:
            messages.error(request, _("Choose the committee members who hear the appeal."))
    elif action == "decide" and appeal.is_pulka:
        _decide_pulka(request, appeal, now)
    elif action == "decide":
        form = f.DecideForm(request.POST, seats=_seats_of(t, appeal.seats))
        if form.is_valid():
            _run(
                request,
                lambda: svc.appeal_decide(
                    appeal=appeal,
                    outcome=form.cleaned_data["outcome"],
                    decision=form.cleaned_data["decision"],
                    adjustment=form.adjustment(),
                    user=user,
                    now=now,
                ),
                _("Decision recorded. The committee members sign it next."),
            )
        else:
            messages.error(request, _("Choose the outcome and write the decision."))
    elif action == "sign":
        if is_director:
            form = f.SignForm(request.POST, appeal=appeal)
            chosen = form.cleaned_data["member"] if form.is_valid() else None
        else:
            chosen = member
        if chosen is None:
            messages.error(request, _("Choose who signs."))
        else:
            _run(
                request,
                lambda: svc.appeal_sign(appeal=appeal, member=chosen, user=user, now=now),
                _("Signed by %(name)s.") % {"name": chosen.name},
            )
    elif action == "apply":
        _run(
            request,
            lambda: svc.appeal_apply(appeal=appeal, user=user, now=now),
            _("Decision applied; the standings are recomputed."),
        )
    elif action == "close":
        _run(request, lambda: svc.appeal_close(appeal=appeal, user=user, now=now), _("Appeal closed."))
    elif action == "withdraw":
        _run(request, lambda: svc.appeal_withdraw(appeal=appeal, user=user, now=now), _("Appeal withdrawn."))
    elif action == "admit":
        form = f.NoteForm(request.POST)
        note = form.cleaned_data["note"] if form.is_valid() else ""
        _run(
            request,
            lambda: svc.appeal_admit(appeal=appeal, note=note, user=user, now=now),
            _("Late appeal admitted."),
        )
    else:
        raise PermissionDenied
    return back
