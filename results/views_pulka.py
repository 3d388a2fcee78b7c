"""The public results of a pulka event: the standings, the Olympic bracket, a round's tables and the seating of
the next one, a player's path.

Views only read (:mod:`results.pulka_exports.model`, over the standings of :mod:`pulkas.services.standings`). The
public sees them once the director has published the results, exactly as the duplicate results
(``tournaments.permissions.can_see_results``; before that the results app's «not published» page); the
directors always. A tournament that is not played in pulkas has none of these pages (404).

The round page and a player's page link each table's sheet (``/pulka/<code>/``, the pulka «traveller») once it
is public: the table has results (a deal written, or the table closed) and its sheet page shows them to anybody
(``can_see_results`` of a visitor who is not logged in, the check of the sheet page); before that, no link, for a
director too.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.cache import never_cache

from pulkas.models import PulkaEvent, PulkaRound
from results.pulka_exports.model import EventView, load_event, player_path, ratings_before
from tournaments.models import Tournament
from tournaments.permissions import can_direct, can_see_results

REFRESH_SECONDS = 30


def _event(request: HttpRequest, slug: str) -> tuple[Tournament, bool] | HttpResponse:
    """The pulka event and whether the user directs it, or the «not published» page."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not tournament.plays_pulkas or not PulkaEvent.objects.filter(tournament=tournament).exists():
        raise Http404("not a pulka event")
    if not can_see_results(request.user, tournament):
        return render(request, "results/unpublished.html", {"tournament": tournament}, status=403)
    return tournament, can_direct(request.user, tournament)


def _base(
    tournament: Tournament, is_director: bool, view: EventView, nav: str, **extra: Any
) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "is_director": is_director,
        "view": view,
        "olympic": view.olympic,
        "nav": nav,
        "live": any(r.status == PulkaRound.Status.RUNNING for r in view.rounds),
        "refresh_seconds": REFRESH_SECONDS,
        "sheets_public": sheets_public(tournament),
        **extra,
    }


def sheets_public(tournament: Tournament) -> bool:
    """Whether the tables' sheets (``/pulka/<code>/``) show their deals to anybody: the sheet page's own check
    for a visitor who is not logged in. A table's sheet is linked when this holds and the table has results."""
    return can_see_results(AnonymousUser(), tournament)


@never_cache
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    found = _event(request, slug)
    if isinstance(found, HttpResponse):
        return found
    tournament, is_director = found
    view = load_event(tournament)
    lines = view.standings.lines
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
    context = _base(
        tournament,
        is_director,
        view,
        "standings",
        rows=rows,
        champion=view.champion,
        has_cut=any(line.cut for line in lines),
    )
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
    tournament, is_director = found
    if tournament.form != "olympic":
        raise Http404("the bracket is the Olympic form's")
    view = load_event(tournament)
    context = _base(tournament, is_director, view, "bracket", champion=view.champion)
    return render(request, "results/pulka/bracket.html", context)


@never_cache
def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    found = _event(request, slug)
    if isinstance(found, HttpResponse):
        return found
    tournament, is_director = found
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
        is_director,
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
    tournament, is_director = found
    view = load_event(tournament)
    person = next((p for p in view.participants.values() if p.number == number), None)
    if person is None:
        raise Http404("no such participant")
    line = view.line_of(person.pk)
    context = _base(
        tournament, is_director, view, "standings", person=person, line=line, path=player_path(view, person)
    )
    return render(request, "results/pulka/player.html", context)
