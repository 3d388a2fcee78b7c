"""The projector in the playing hall (public, no login): the page and the small JSON it polls. What it shows is
:mod:`results.projector`'s, under :mod:`visibility`'s rules for the hall."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.cache import never_cache

from results import projector as hall
from tournaments.models import Tournament


@never_cache
def projector(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    state = hall.projection(tournament, now=timezone.localtime())
    context = {
        "tournament": tournament,
        "p": state,
        "refresh_seconds": hall.REFRESH_SECONDS,
        "version": state.as_json()["version"],
    }
    return render(request, "results/projector.html", context)


@never_cache
def projector_data(request: HttpRequest, slug: str) -> JsonResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    return JsonResponse(hall.projection(tournament, now=timezone.localtime()).as_json())
