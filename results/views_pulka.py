"""The public results of a pulka event: the standings, the Olympic bracket, a round's tables and the seating of
the next one, a player's path.

Views only read (:mod:`results.pulka_exports.model`, over the standings of :mod:`pulkas.services.standings`). Who
sees what is :mod:`visibility`'s, as on every channel: the pages open once the director has published the
results (before that the results app's «not published» page), the directors always; a table's figures (vists,
rating, place, who went on) once its round has ended; the standings and a player's totals while no round is being
played (rules §12.2.4). A tournament that is not played in pulkas has none of these pages (404).

The round page and a player's page link each table's sheet (``/pulka/<code>/``, the pulka «traveller») once it
is public — its round has ended, the results are published and the table has results — and not before, for a
director too (the sheet page would show it to him, not to the players he shares the link with).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.cache import never_cache

import visibility
from pulkas.models import PulkaEvent, PulkaRound
from results.pulka_exports.model import EventView, load_event, player_path, ratings_before
from tournaments.models import Tournament
from visibility import Viewer

REFRESH_SECONDS = 30


def _event(request: HttpRequest, slug: str) -> tuple[Tournament, Viewer] | HttpResponse:
    """The pulka event and who asks, or the «not published» page."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not tournament.plays_pulkas or not PulkaEvent.objects.filter(tournament=tournament).exists():
        raise Http404("not a pulka event")
    viewer = Viewer.of(request.user)
    if not visibility.can_see_results(viewer, tournament):
        return render(request, "results/unpublished.html", {"tournament": tournament}, status=403)
    return tournament, viewer


def _base(tournament: Tournament, viewer: Viewer, view: EventView, nav: str, **extra: Any) -> dict[str, Any]:
    """What every pulka page shows alike; ``shown_rounds``: the rounds whose tables' figures this viewer sees,
    ``public_rounds``: those whose sheets anybody opens (a sheet link is offered for their tables)."""
    public = Viewer.public()
    return {
        "tournament": tournament,
        "is_director": viewer.directs(tournament),
        "view": view,
        "olympic": view.olympic,
        "nav": nav,
        "live": any(r.status == PulkaRound.Status.RUNNING for r in view.rounds),
        "refresh_seconds": REFRESH_SECONDS,
        "shown_rounds": {
            r.number
            for r in view.rounds
            if visibility.can_see_round_sheets(viewer, tournament, r.pulka_round)
        },
        "public_rounds": {
            r.number
            for r in view.rounds
            if visibility.can_see_round_sheets(public, tournament, r.pulka_round)
        },
        "standings_hidden": visibility.standings_hidden(viewer, tournament),
        **extra,
    }


def _champion(view: EventView, shown: set[int]) -> list[Any]:
    """Olympic: the winner(s), once the final's figures are shown."""
    return view.champion if view.rounds and view.rounds[-1].number in shown else []


@never_cache
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    found = _event(request, slug)
    if isinstance(found, HttpResponse):
        return found
    tournament, viewer = found
    view = load_event(tournament)
    hidden = visibility.standings_hidden(viewer, tournament)
    lines = [] if hidden else view.standings.lines
    rows = []
    cut_drawn = False
    for line in lines:
        cells = []
        for i, r in enumerate(view.rounds):
            cells.append(
                {
                    "round": r.number,
                    "rating": line.ratings[i] if i < len(line.ratings) else None,
                    "bye": r.number in line.byes,
                    "table": line.tables[i] if i < len(line.tables) else None,
                    "seat": _seat_in(view, r.number, line.participant.pk),
                }
            )
        first_cut = line.cut and not cut_drawn
        cut_drawn = cut_drawn or line.cut
        rows.append({"line": line, "cells": cells, "first_cut": first_cut})
    context = _base(tournament, viewer, view, "standings", rows=rows, has_cut=any(line.cut for line in lines))
    context["champion"] = [] if hidden else _champion(view, context["shown_rounds"])
    return render(request, "results/pulka/standings.html", context)


def _seat_in(view: EventView, number: int, participant_pk: int) -> Any:
    r = view.round(number)
    found = r.table_of(participant_pk) if r else None
    return found[1] if found else None


@never_cache
def bracket(request: HttpRequest, slug: str) -> HttpResponse:
    found = _event(request, slug)
    if isinstance(found, HttpResponse):
        return found
    tournament, viewer = found
    if tournament.form != "olympic":
        raise Http404("the bracket is the Olympic form's")
    view = load_event(tournament)
    context = _base(tournament, viewer, view, "bracket")
    context["champion"] = _champion(view, context["shown_rounds"])
    return render(request, "results/pulka/bracket.html", context)


@never_cache
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    found = _event(request, slug)
    if isinstance(found, HttpResponse):
        return found
    tournament, viewer = found
    view = load_event(tournament)
    current = view.round(number)
    if current is None:
        raise Http404("no such round")
    following = view.round(number + 1)
    before_next = ratings_before(view.standings, number + 1) if following and not view.olympic else {}
    seating = []
    if following is not None:
        for table in following.tables:
            seating.append(
                {
                    "table": table,
                    "seats": [{"seat": s, "rating": before_next.get(s.participant.pk)} for s in table.seats],
                }
            )
    context = _base(
        tournament,
        viewer,
        view,
        "round",
        nav_round=number,
        current=current,
        following=following,
        seating=seating,
        last_round=view.rounds[-1].number,
        more_rounds=_more_rounds(view, number),
    )
    return render(request, "results/pulka/round.html", context)


def _more_rounds(view: EventView, number: int) -> bool:
    """Whether another round is still to be drawn after round ``number`` (for the «not drawn yet» note)."""
    if view.olympic:
        current = view.round(number)
        return current is not None and not current.final
    return number < view.event.rounds


@never_cache
def player(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    found = _event(request, slug)
    if isinstance(found, HttpResponse):
        return found
    tournament, viewer = found
    view = load_event(tournament)
    person = next((p for p in view.participants.values() if p.number == number), None)
    if person is None:
        raise Http404("no such participant")
    hidden = visibility.standings_hidden(viewer, tournament)
    line = None if hidden else view.line_of(person.pk)
    context = _base(
        tournament, viewer, view, "standings", person=person, line=line, path=player_path(view, person)
    )
    return render(request, "results/pulka/player.html", context)
