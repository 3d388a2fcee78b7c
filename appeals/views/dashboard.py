"""The director's overview pages: the list of matters, the audit trail and the settings.

``appeal_list`` shows the directors and the committee the filing deadlines of each session, whether results
may still be corrected, and every appeal, ruling and correction of the tournament; ``audit_trail`` lists
every audit entry, filterable by kind and board and linked to the matter it came from; ``appeal_settings``
sets the deadlines and keeps the list of appeals committee members and the vote that elected them (§1
«выбранном голосованием»).
"""

from __future__ import annotations

from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from appeals import forms as f
from appeals import services as svc
from appeals.models import Appeal, CommitteeElection, CommitteeMember, Correction, Irregularity, ScoreChange
from appeals.views._common import _guard_director, _guard_director_or_committee, _run, _tournament
from appeals.views.pulka import round_deadlines
from preferans.duplicate.deadlines import check_correction, correction_deadline, filing_deadline
from tournaments.models import AuditEntry
from tournaments.numbers import whole_number
from tournaments.permissions import can_direct


def appeal_list(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    if (deny := _guard_director_or_committee(request, t)) is not None:
        return deny  # type: ignore[return-value]
    conf = svc.settings_for(t)
    now = timezone.now()
    sessions = [
        {
            "session": s,
            "deadline": filing_deadline(s.ended_at, conf.filing_minutes),
            "open": s.ended_at is None or now <= filing_deadline(s.ended_at, conf.filing_minutes),  # type: ignore[operator]
        }
        for s in t.sessions.all()
    ]
    rounds = round_deadlines(t, conf.filing_minutes, now) if t.plays_pulkas else []
    corr = check_correction(
        now=now,
        publication=t.publication,
        official_at=t.official_at,
        minutes=t.correction_minutes,
        arithmetic=False,
    )
    context = {
        "tournament": t,
        "is_director": can_direct(request.user, t),
        "conf": conf,
        "sessions": sessions,
        "rounds": rounds,
        "pulka": t.plays_pulkas,
        "correction_deadline": correction_deadline(t.official_at, t.correction_minutes),
        "correction_open": bool(corr),
        "appeals": Appeal.objects.filter(tournament=t).select_related("appellant", "session"),
        "rulings": Irregularity.objects.filter(tournament=t).select_related("session")[:200],
        "corrections": Correction.objects.filter(tournament=t).select_related("session", "requested_by"),
        "open": svc.open_matters(t),
    }
    return render(request, "appeals/list.html", context)


def audit_trail(request: HttpRequest, slug: str) -> HttpResponse:
    """Every audit entry of the tournament (the director sees all), filterable, each linked to its reason."""
    t = _tournament(slug)
    if (deny := _guard_director(request, t)) is not None:
        return deny  # type: ignore[return-value]
    entries = AuditEntry.objects.filter(tournament=t).select_related("user").order_by("-at", "-id")
    what = request.GET.get("what", "")
    if what:
        entries = entries.filter(action__startswith=what)
    board = whole_number(request.GET.get("board", ""), digits=6)
    if board is not None:
        entries = entries.filter(
            Q(data__after__board=board)
            | Q(data__before__board=board)
            | Q(data__board=int(board))
            | Q(data__deal=int(board))  # a pulka deal
        )
    entries = list(entries[:500])
    links = {
        c.audit_entry_id: c
        for c in ScoreChange.objects.filter(audit_entry__in=[e.pk for e in entries]).select_related(
            "appeal", "irregularity", "correction"
        )
    }
    rows = [(e, links.get(e.pk)) for e in entries]
    kinds = ["result.", "penalty.", "appeal.", "irregularity.", "correction.", "committee.", "appeals."]
    if t.plays_pulkas:
        kinds = ["pulka_deal_", *kinds[2:]]
    return render(
        request,
        "appeals/audit.html",
        {"tournament": t, "rows": rows, "what": what, "board": board, "kinds": kinds},
    )


def appeal_settings(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    if (deny := _guard_director(request, t)) is not None:
        return deny  # type: ignore[return-value]
    conf = svc.settings_for(t)
    now = timezone.now()
    settings_form = f.SettingsForm(
        initial={
            "filing_minutes": conf.filing_minutes,
            "correction_minutes": t.correction_minutes,
            "notice_required": conf.notice_required,
            "online_filing": conf.online_filing,
        }
    )
    member_form = f.MemberForm()
    election_form = f.ElectionForm()
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "election":
            with timezone.override(t.time_zone):  # the time of the vote is read in the event's zone
                election_form = f.ElectionForm(request.POST)
                valid = election_form.is_valid()
            if valid and _run(
                request,
                lambda: svc.committee_elect(
                    tournament=t,
                    held_at=election_form.cleaned_data["held_at"],
                    voters=election_form.cleaned_data["voters"],
                    note=election_form.cleaned_data["note"],
                    elected=election_form.elected(),
                    user=request.user,
                    now=now,
                ),
                _("The committee's election is recorded."),
            ):
                return redirect("appeals:settings", slug=t.slug)
        if action == "settings":
            settings_form = f.SettingsForm(request.POST)
            if settings_form.is_valid():
                _run(
                    request,
                    lambda: svc.settings_update(
                        tournament=t, user=request.user, now=now, **settings_form.cleaned_data
                    ),
                    _("Deadlines saved."),
                )
                return redirect("appeals:settings", slug=t.slug)
        elif action == "member":
            member_form = f.MemberForm(request.POST)
            if member_form.is_valid() and _run(
                request,
                lambda: svc.committee_add(
                    tournament=t, user=request.user, now=now, **member_form.cleaned_data
                ),
                _("Member added."),
            ):
                return redirect("appeals:settings", slug=t.slug)
        elif action == "remove":
            member = get_object_or_404(CommitteeMember, tournament=t, pk=request.POST.get("member"))
            _run(
                request,
                lambda: svc.committee_remove(member=member, user=request.user, now=now),
                _("Member removed."),
            )
            return redirect("appeals:settings", slug=t.slug)
    context = {
        "tournament": t,
        "settings_form": settings_form,
        "member_form": member_form,
        "election_form": election_form,
        "members": CommitteeMember.objects.filter(tournament=t).select_related(
            "tournament", "participant", "user", "election"
        ),
        "elections": CommitteeElection.objects.filter(tournament=t).select_related("tournament"),
    }
    return render(request, "appeals/settings.html", context)
