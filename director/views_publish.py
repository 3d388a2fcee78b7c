"""Penalties, the director's standings, publication and locking, and the audit trail."""

from __future__ import annotations

from fractions import Fraction

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events.publication import (
    can_unlock,
    final_blockers,
    play_finished,
    publication_gaps,
    publish,
    rescore_now,
    standings_current,
    tournament_lock,
    tournament_unlock,
    unpublish,
)
from preferans.numbers import format_fraction
from preferans.series import carry_share
from scoring.models import Penalty
from scoring.penalties import penalty_delete as penalty_withdraw
from scoring.penalties import penalty_save
from scoring.session_totals import carried
from tournaments.errors import UserError
from tournaments.models import Participant, Publication, Session, Tournament
from ui.director_pages import directs, fail, nav
from ui.row_form import exact_number

from .forms import PenaltyForm, ReasonForm


def _deduct_help() -> str:
    return _("Write how many matchpoints to deduct: a positive number, e.g. 2 or 1/2.")


@directs
def penalties(request: HttpRequest, tournament: Tournament, session: Session) -> HttpResponse:
    form = PenaltyForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        participant = Participant.objects.filter(
            tournament=tournament, number=form.cleaned_data["participant"]
        ).first()
        deduct = exact_number(form.cleaned_data["deduct"])
        if participant is None:
            form.add_error("participant", _("No participant with this number."))
        elif deduct is None:
            form.add_error("deduct", _deduct_help())
        else:
            try:
                # The form asks how much to deduct; the penalty itself is negative (the service's rule, §12).
                penalty_save(
                    session=session,
                    participant=participant,
                    matchpoints=format_fraction(-Fraction(deduct)),
                    reason=form.reason_text(),
                    user=request.user,
                    now=timezone.now(),
                )
            except UserError as exc:
                form.add_error(
                    "deduct" if exc.code == "penalty_sign" else None,
                    _deduct_help() if exc.code == "penalty_sign" else exc.message,
                )
            else:
                messages.success(request, _("Penalty recorded for %(p)s.") % {"p": participant})
                return redirect("director:penalties", slug=tournament.slug, session=session.number)
    context = nav(tournament, session, active="penalties") | {
        "form": form,
        "penalties": session.penalties.select_related("participant").order_by("-id"),
        "remove_form": ReasonForm(),
    }
    return render(request, "director/penalties.html", context)


@require_POST
@directs
def penalty_delete(request: HttpRequest, tournament: Tournament, session: Session, pk: int) -> HttpResponse:
    penalty = get_object_or_404(Penalty, session=session, pk=pk)
    form = ReasonForm(request.POST)
    try:
        penalty_withdraw(
            penalty=penalty,
            user=request.user,
            now=timezone.now(),
            reason=form.cleaned_data["reason"] if form.is_valid() else "",
        )
    except UserError as exc:
        fail(request, exc)
    else:
        messages.success(request, _("Penalty withdrawn."))
    return redirect("director:penalties", slug=tournament.slug, session=session.number)


def _share(tournament: Tournament) -> Fraction:
    """A final's share carried over from its qualification (0: none), as the rescore reads it."""
    if tournament.qualification_id is None or tournament.qualification_id == tournament.pk:
        return Fraction(0)
    try:
        return carry_share(tournament.carry_over or "0")
    except (ValueError, ZeroDivisionError):
        return Fraction(0)


@directs
def standings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    rows = list(tournament.standings.select_related("participant"))
    part = carried(
        tournament
    )  # a final's carried part c·Q (docs/players/series.md), as the public page shows it
    for row in rows:
        row.carried = part.get(row.participant.number)
    context = nav(tournament, active="standings") | {
        "standings": rows,
        "averaged": tournament.session_totals == "percent",
        "carries": bool(_share(tournament)),
        "share": format_fraction(_share(tournament)),
        "current": standings_current(tournament),
        "nothing_compared": bool(rows) and all(r.max == "0" for r in rows),
        "pdfs": [("standings", _("Standings, PDF"))],  # the print bar's file (results.exporters)
    }
    return render(request, "director/standings.html", context)


@require_POST
@directs
def rescore(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    how = rescore_now(tournament=tournament, user=request.user, now=timezone.now())
    if how == "failed":
        messages.error(request, _("The standings could not be computed; the error is in the server log."))
    else:
        messages.success(request, _("The standings are recomputed."))
    if request.POST.get("next") == "dashboard":
        return redirect("director:dashboard", slug=tournament.slug)
    return redirect("director:standings", slug=tournament.slug)


def _reason(request: HttpRequest) -> str:
    """The reason a director wrote when he confirmed a step (bounded as the form bounds it)."""
    form = ReasonForm(request.POST)
    return str(form.cleaned_data["reason"]).strip() if form.is_valid() else ""


@directs
def publication(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action in (Publication.PROVISIONAL, Publication.OFFICIAL, Publication.FINAL):
                publish(
                    tournament=tournament,
                    to=action,
                    user=request.user,
                    now=timezone.now(),
                    acknowledged=request.POST.get("acknowledged", ""),
                    # Making the results final cannot be undone: the page asks for a confirmation with a reason.
                    reason=_reason(request),
                    reason_required=action == Publication.FINAL,
                )
                messages.success(request, _("Results: %(state)s.") % {"state": Publication(action).label})
            elif action == "withdraw":
                unpublish(
                    tournament=tournament, user=request.user, reason=_reason(request), now=timezone.now()
                )
                if tournament.publication == Publication.PROVISIONAL:
                    messages.success(request, _("The results are provisional again."))
                else:
                    messages.success(request, _("The results are no longer public."))
            elif action == "lock":
                tournament_lock(
                    tournament=tournament,
                    user=request.user,
                    now=timezone.now(),
                    reason=_reason(request),
                    reason_required=True,
                )
                messages.success(request, _("The tournament is locked."))
            elif action == "unlock":
                tournament_unlock(
                    tournament=tournament,
                    user=request.user,
                    now=timezone.now(),
                    reason=_reason(request),
                )
                messages.success(request, _("The tournament is unlocked."))
        except UserError as exc:
            fail(request, exc)
        return redirect("director:publication", slug=tournament.slug)
    now = timezone.now()
    context = nav(tournament, active="publication") | {
        "current": standings_current(tournament),
        "play_finished": play_finished(tournament),
        "correction_ends": tournament.correction_ends_at,
        "final_blockers": final_blockers(tournament, now)
        if tournament.publication == Publication.OFFICIAL
        else [],
        "gaps": publication_gaps(tournament),
        "now": now,
        "withdraw_form": ReasonForm(),
        "confirm_form": ReasonForm(auto_id="confirm_%s"),
        "can_unlock": can_unlock(request.user),
    }
    return render(request, "director/publication.html", context)


@directs
def audit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    entries = tournament.audit_entries.select_related("user")
    action = request.GET.get("action", "")
    if action:
        entries = entries.filter(action__startswith=action)
    page = Paginator(entries, 50).get_page(request.GET.get("page"))
    context = nav(tournament, active="audit") | {"page": page, "action": action}
    return render(request, "director/audit.html", context)
