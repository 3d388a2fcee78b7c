"""The players' page: identifying with number and PIN, filing, and following what changed.

A player identifies with his participant number and PIN (attempts are limited per address, and the session
key is cycled on success); he may then file an appeal or ask for a correction about a deal he played, see
the state of his own appeals (and withdraw one while it is still open), and the score changes that concern
him. ``PLAYER_KEY`` names the session entry that holds the identified participant.
"""

from __future__ import annotations

from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from appeals import forms as f
from appeals import services as svc
from appeals.models import Appeal, AppealMember, Correction, ScoreChange
from appeals.views import pulka_pages
from appeals.views._common import (
    _create,
    _names,
    _run,
    _session,
    _tournament,
    appeal_refusal,
    correction_refusal,
)
from preferans.duplicate.deadlines import filing_deadline
from scoring.models import Result
from tournaments.audit import participant_actor
from tournaments.errors import UserError
from tournaments.models import Participant, Tournament
from tournaments.pins import client_ip, pin_holder

PLAYER_KEY = "appeals.player.{}"


def _player(request: HttpRequest, t: Tournament) -> Participant | None:
    pk = request.session.get(PLAYER_KEY.format(t.pk))
    return Participant.objects.filter(tournament=t, pk=pk).first() if pk else None


def _played_deals(p: Participant) -> list[tuple[str, str]]:
    """The deals a participant played, newest first, as form choices ``"session-round-board-table"``."""
    rows = (
        Result.objects.filter(
            Q(seat_n=p) | Q(seat_e=p) | Q(seat_s=p) | Q(seat_w=p), session__tournament=p.tournament
        )
        .select_related("session")
        .order_by("-session__number", "-round_number", "-board_number")
    )
    return [
        (
            f"{r.session.number}-{r.round_number}-{r.board_number}-{r.table_number}",
            _("Session %(s)s, round %(r)s, board %(b)s (table %(t)s)")
            % {"s": r.session.number, "r": r.round_number, "b": r.board_number, "t": r.table_number},
        )
        for r in rows
    ]


def _login(request: HttpRequest, t: Tournament) -> HttpResponse:
    """The login page; a right number and PIN remember the participant in the session."""
    form = f.PlayerLoginForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            p = pin_holder(
                t, number=form.cleaned_data["number"], pin=form.cleaned_data["pin"], client=client_ip(request)
            )
        except UserError as exc:
            form.add_error(None, exc.message)
        else:
            request.session.cycle_key()
            request.session[PLAYER_KEY.format(t.pk)] = p.pk
            return redirect("appeals:player", slug=t.slug)
    return render(request, "appeals/player_login.html", {"tournament": t, "form": form})


def player_home(request: HttpRequest, slug: str) -> HttpResponse:
    """Players identify with number and PIN, file an appeal or a correction request, and see what changed."""
    t = _tournament(slug)
    player = _player(request, t)
    if player is None:
        return _login(request, t)
    conf = svc.settings_for(t)
    if t.plays_pulkas:
        appeal_form, corr_form = pulka_pages.player_forms(request, player)
        deadlines = pulka_pages.player_deadlines(t, conf)
    else:
        deals = _played_deals(player)
        action = request.POST.get("action")
        appeal_form = f.PlayerAppealForm(request.POST if action == "appeal" else None, deals=deals)
        corr_form = f.PlayerCorrectionForm(request.POST if action == "correction" else None, deals=deals)
        deadlines = [(s, filing_deadline(s.ended_at, conf.filing_minutes)) for s in t.sessions.all()]
    if request.method == "POST":
        post = pulka_pages.player_post if t.plays_pulkas else _post
        done = post(request, t, player, appeal_form, corr_form)
        if done is not None:
            return done
    context = {
        "tournament": t,
        "player": player,
        "conf": conf,
        "appeal_form": appeal_form,
        "corr_form": corr_form,
        "appeals": Appeal.objects.filter(tournament=t, appellant=player),
        "corrections": Correction.objects.filter(tournament=t, requested_by=player),
        "changes": svc.changes_for_participant(player),
        "deadlines": deadlines,
        "pulka": t.plays_pulkas,
    }
    return render(request, "appeals/player.html", context)


def _post(
    request: HttpRequest,
    t: Tournament,
    player: Participant,
    appeal_form: f.PlayerAppealForm,
    corr_form: f.PlayerCorrectionForm,
) -> HttpResponse | None:
    """File the player's appeal or correction about a duplicate board; where to go next, or None."""
    now = timezone.now()
    action = request.POST.get("action")
    if action == "appeal" and appeal_form.is_valid():
        s, r, b, table = appeal_form.deal_key()
        session = _session(t, s)
        a = (
            None
            if session is None
            else _create(
                request,
                lambda: svc.appeal_file(
                    session=session,
                    appellant=player,
                    round=r,
                    board=b,
                    table=table,
                    claim=appeal_form.cleaned_data["claim"],
                    bidding=appeal_form.cleaned_data["bidding"],
                    play=appeal_form.cleaned_data["play"],
                    via=Appeal.Via.PLAYER,
                    now=now,
                ),
                _("Appeal sent to the director."),
                refusal=appeal_refusal,
            )
        )
        if a is not None:
            return redirect("appeals:player-appeal", slug=t.slug, number=a.number)
    elif action == "correction" and corr_form.is_valid():
        s, r, b, table = corr_form.deal_key()
        session = _session(t, s)
        c = (
            None
            if session is None
            else _create(
                request,
                lambda: svc.correction_request(
                    session=session,
                    board=b,
                    round=r,
                    table=table,
                    participant=player,
                    description=corr_form.cleaned_data["description"],
                    now=now,
                ),
                _("Correction request sent to the director."),
                refusal=correction_refusal,
            )
        )
        if c is not None:
            return redirect(reverse("appeals:player", kwargs={"slug": t.slug}) + "#changes")
    return None


def player_appeal(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    t = _tournament(slug)
    player = _player(request, t)
    if player is None:
        return redirect("appeals:player", slug=t.slug)
    appeal = get_object_or_404(Appeal, tournament=t, number=number, appellant=player)
    if request.method == "POST" and request.POST.get("action") == "withdraw":
        _run(
            request,
            lambda: svc.appeal_withdraw(appeal=appeal, actor=participant_actor(player), now=timezone.now()),
            _("Appeal withdrawn."),
        )
        return redirect("appeals:player-appeal", slug=t.slug, number=appeal.number)
    context = {
        "tournament": t,
        "player": player,
        "appeal": appeal,
        "people": _names(t, appeal.seats),
        "panel": AppealMember.objects.filter(appeal=appeal).select_related(
            "member__election", "member__tournament"
        ),
        "changes": appeal.changes.filter(status=ScoreChange.Status.APPLIED),
        "can_withdraw": appeal.status
        in (Appeal.Status.NOTICE, Appeal.Status.FILED, Appeal.Status.COMMENTED, Appeal.Status.HEARD),
    }
    return render(request, "appeals/player_appeal.html", context)


@require_POST
def player_logout(request: HttpRequest, slug: str) -> HttpResponse:
    t = _tournament(slug)
    request.session.pop(PLAYER_KEY.format(t.pk), None)
    return redirect("appeals:player", slug=t.slug)
