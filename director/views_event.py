"""The director's home, creating an event, its settings, its directors and sessions."""

from __future__ import annotations

from django.conf import settings as django_settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events.settings import tournament_update
from players.services.register import can_see_register
from players.services.series import can_create_series
from pulkas.services.event import pulka_event_create
from tournaments.errors import UserError
from tournaments.models import Form, Tournament
from tournaments.services.event import director_add, director_remove, session_add, tournament_create
from ui.director_pages import directs, fail, nav

from .forms import DirectorAddForm, NewTournamentForm, TournamentForm


@login_required
def index(request: HttpRequest) -> HttpResponse:
    mine = Tournament.objects.all() if request.user.is_superuser else request.user.directed_tournaments.all()
    mine = mine.annotate(n_participants=Count("participants", distinct=True)).order_by(
        "-starts_on", "-created_at"
    )
    context = {
        "tournaments": mine,
        "can_see_register": can_see_register(request.user),
        "can_create_series": can_create_series(request.user),
    }
    return render(request, "director/index.html", context)


def printed_language(request: HttpRequest) -> str:
    """The language of the request, if it is one the printed results come in, else the site's default."""
    code = (getattr(request, "LANGUAGE_CODE", "") or "").split("-")[0]
    return code if code in dict(django_settings.LANGUAGES) else django_settings.LANGUAGE_CODE


@login_required
def create(request: HttpRequest) -> HttpResponse:
    form = NewTournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        values = form.values()
        # The printed results are in the language the director created the event in (he can pick another file
        # by file on the exports page): an event set up in English prints its cards and standings in English.
        values["language"] = printed_language(request)
        try:
            if values["form"] == Form.DUPLICATE:
                tournament = tournament_create(user=request.user, now=timezone.now(), **values)
            else:  # Olympic, compensation, Swiss: the pulka event with its default settings
                tournament = pulka_event_create(
                    name=values["name"],
                    form=values["form"],
                    user=request.user,
                    now=timezone.now(),
                    players_per_table=values["players_per_table"],
                    variant=values["variant"],
                    rule_overrides=values["rule_overrides"],
                    starts_on=values["starts_on"],
                    venue=values["venue"],
                    correction_minutes=values["correction_minutes"],
                    language=values["language"],
                )
        except UserError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("The tournament is created. Now register the participants."))
            return redirect("director:participants", slug=tournament.slug)
    return render(request, "director/create.html", {"form": form})


@directs
def settings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    # A pulka event keeps only its name, date, venue and correction period here; the rest is on its own page.
    form = TournamentForm(
        request.POST or None, initial=TournamentForm.initial_of(tournament), pulka=tournament.plays_pulkas
    )
    if request.method == "POST" and form.is_valid():
        try:
            tournament_update(
                tournament=tournament, user=request.user, changes=form.values(), now=timezone.now()
            )
        except UserError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Settings saved."))
            return redirect("director:settings", slug=tournament.slug)
    context = nav(tournament, active="settings") | {
        "form": form,
        "directors": tournament.directors.order_by("username"),
        "director_form": DirectorAddForm(),
    }
    return render(request, "director/settings.html", context)


@require_POST
@directs
def directors(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        if "remove" in request.POST:
            user = tournament.directors.filter(pk=request.POST.get("remove")).first()
            if user is not None:
                director_remove(tournament=tournament, director=user, user=request.user, now=timezone.now())
                messages.success(request, _("%(name)s no longer directs this tournament.") % {"name": user})
        else:
            form = DirectorAddForm(request.POST)
            if form.is_valid():
                added = director_add(
                    tournament=tournament,
                    username=form.cleaned_data["username"],
                    user=request.user,
                    now=timezone.now(),
                )
                messages.success(request, _("%(name)s now directs this tournament.") % {"name": added})
    except UserError as exc:
        fail(request, exc)
    return redirect("director:settings", slug=tournament.slug)


@require_POST
@directs
def add_session(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        session = session_add(tournament=tournament, user=request.user, now=timezone.now())
    except UserError as exc:
        fail(request, exc)
        return redirect("director:dashboard", slug=tournament.slug)
    messages.success(request, _("Session %(n)s added: choose its movement.") % {"n": session.number})
    return redirect("director:movement", slug=tournament.slug, session=session.number)
