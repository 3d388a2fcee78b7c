"""The pages that open a matter at an event played in pulkas: the director's appeal (or notice) for a player,
his ruling on an irregularity, a correction request, and the players' own filing — the round, the table and the
deal instead of the session and the board. The pages of an existing matter are the duplicate ones (the matter
carries its «where»); :mod:`appeals.views.pulka` gives them the deal as it stands.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from appeals import forms_pulka as fp
from appeals import services as svc
from appeals.models import Appeal, AppealSettings
from appeals.views._common import _create, appeal_refusal, correction_refusal
from appeals.views.pulka import player_tables, pulka_table, round_deadlines
from tournaments.models import Participant, Tournament
from tournaments.numbers import whole_number


def appeal_new(request: HttpRequest, t: Tournament) -> HttpResponse:
    """The director records a notice or files an appeal for a player about a pulka deal."""
    form = fp.PulkaDirectorAppealForm(request.POST or None, tournament=t)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        appellant = Participant.objects.filter(tournament=t, number=d["participant"]).first()
        if appellant is None:
            form.add_error("participant", _("No such participant."))
        else:
            now, user = timezone.now(), request.user
            where: dict[str, Any] = {
                "tournament": t,
                "deal": d["deal"],
                "appellant": appellant,
                "ruling": d["ruling"],
                "user": user,
                "now": now,
                "late_note": d["late_note"],
            }

            def table() -> Any:
                return pulka_table(t, round=d["round"], table=d["table"], participant=appellant)

            if "notice" in request.POST:
                appeal = _create(
                    request, lambda: svc.pulka_appeal_notice(table=table(), **where), _("Notice recorded.")
                )
            else:
                appeal = _create(
                    request,
                    lambda: svc.pulka_appeal_file(
                        table=table(),
                        claim=d["claim"],
                        bidding=d["bidding"],
                        play=d["play"],
                        via=Appeal.Via.DIRECTOR,
                        **where,
                    ),
                    _("Appeal filed."),
                    refusal=appeal_refusal,
                )
            if appeal is not None:
                return redirect("appeals:appeal", slug=t.slug, number=appeal.number)
    return render(request, "appeals/appeal_new.html", {"tournament": t, "form": form, "pulka": True})


def ruling_new(request: HttpRequest, t: Tournament) -> HttpResponse:
    """The director records an irregularity at a pulka table; the remedy (a corrected row) comes next."""
    form = fp.PulkaIrregularityForm(request.POST or None, initial=_initial(request))
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        irr = _create(
            request,
            lambda: svc.pulka_irregularity_record(
                tournament=t,
                table=pulka_table(t, round=d["round"], table=d["table"]),
                kind=d["kind"],
                deal=d["deal"],
                description=d["description"],
                user=request.user,
                now=timezone.now(),
            ),
            _("Irregularity recorded. Check the proposed remedy and confirm it."),
        )
        if irr is not None:
            return redirect("appeals:ruling", slug=t.slug, pk=irr.pk)
    return render(request, "appeals/ruling_new.html", {"tournament": t, "form": form, "pulka": True})


def correction_new(request: HttpRequest, t: Tournament) -> HttpResponse:
    form = fp.PulkaCorrectionForm(request.POST or None, initial=_initial(request))
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        c = _create(
            request,
            lambda: svc.pulka_correction_request(
                tournament=t,
                table=pulka_table(t, round=d["round"], table=d["table"]),
                deal=d["deal"],
                kind=d["kind"],
                description=d["description"],
                late_note=d["late_note"],
                user=request.user,
                now=timezone.now(),
            ),
            _("Correction recorded."),
        )
        if c is not None:
            return redirect("appeals:correction", slug=t.slug, pk=c.pk)
    return render(request, "appeals/correction_new.html", {"tournament": t, "form": form, "pulka": True})


def _initial(request: HttpRequest) -> dict[str, str] | None:
    """A link from the pulka sheet may name the round, the table and the deal (digits only)."""
    got = {
        k: v
        for k in ("round", "table", "deal")
        if whole_number(v := request.GET.get(k, ""), digits=3) is not None
    }
    return got or None


# --- the players' page -----------------------------------------------------------------------------------------


def player_forms(request: HttpRequest, player: Participant) -> tuple[Any, Any]:
    """The filing and correction forms of a player at a pulka event (bound to the POST that names them)."""
    tables = player_tables(player)
    action = request.POST.get("action")
    appeal = fp.PlayerPulkaAppealForm(request.POST if action == "appeal" else None, tables=tables)
    correction = fp.PlayerPulkaCorrectionForm(
        request.POST if action == "correction" else None, tables=tables, auto_id="id_c_%s"
    )
    return appeal, correction


def player_post(
    request: HttpRequest, t: Tournament, player: Participant, appeal_form: Any, corr_form: Any
) -> HttpResponse | None:
    """File the player's appeal or correction request; where to go next, or None to show the forms again."""
    now = timezone.now()
    action = request.POST.get("action")
    if action == "appeal" and appeal_form.is_valid():
        r, tn, deal = appeal_form.where()
        d = appeal_form.cleaned_data
        a = _create(
            request,
            lambda: svc.pulka_appeal_file(
                tournament=t,
                table=pulka_table(t, round=r, table=tn),
                deal=deal,
                appellant=player,
                claim=d["claim"],
                bidding=d["bidding"],
                play=d["play"],
                via=Appeal.Via.PLAYER,
                now=now,
            ),
            _("Appeal sent to the director."),
            refusal=appeal_refusal,
        )
        if a is not None:
            return redirect("appeals:player-appeal", slug=t.slug, number=a.number)
    elif action == "correction" and corr_form.is_valid():
        r, tn, deal = corr_form.where()
        c = _create(
            request,
            lambda: svc.pulka_correction_request(
                tournament=t,
                table=pulka_table(t, round=r, table=tn),
                deal=deal,
                participant=player,
                description=corr_form.cleaned_data["description"],
                now=now,
            ),
            _("Correction request sent to the director."),
            refusal=correction_refusal,
        )
        if c is not None:
            return redirect(reverse("appeals:player", kwargs={"slug": t.slug}) + "#changes")
    return None


def player_deadlines(t: Tournament, conf: AppealSettings) -> list[tuple[Any, Any]]:
    """(round, deadline) of each started round, as the players' page lists the sessions' deadlines."""
    return [(d["round"], d["deadline"]) for d in round_deadlines(t, conf.filing_minutes, timezone.now())]
