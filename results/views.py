"""The public standings of a duplicate event (``t/<slug>/standings/``).

Who sees what and when is :mod:`visibility`, asked by every results page: the pages open once the
results are published (directors always); the standings are shown while no round is being played (rules
§12.2.4), a board's rows and layout once its session is over. The other pages: boards and frequencies
(``views_boards``), personal cards (``views_cards``), the projector (``views_hall``), generated files
(``views_exports``).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.cache import never_cache

import visibility
from preferans.numbers import format_fraction
from results.data import load_report
from results.derived import session_totals
from results.views_common import base_context, event_of, unpublished
from tournaments.models import Sanction


@never_cache
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament, viewer = event_of(request, slug)
    if not visibility.can_see_results(viewer, tournament):
        return unpublished(request, tournament)
    report = load_report(tournament.pk, now=timezone.localtime())
    hidden = visibility.standings_hidden(viewer, tournament)
    scored_sessions = [s.number for s in report.sessions if s.results]
    many = len(scored_sessions) > 1
    totals = session_totals(report) if many and not hidden else {}
    rows = []
    for st in () if hidden else report.standings:
        person = report.person(st.participant)
        per_session = [totals.get((st.participant, n)) for n in scored_sessions] if many else []
        rows.append(
            {
                "st": st,
                "person": person,
                "per_session": per_session,
                "carried": report.carried.get(st.participant),
            }
        )
    context = base_context(
        tournament,
        report,
        viewer.directs(tournament),
        nav="standings",
        rows=rows,
        hidden=hidden,
        scored_sessions=scored_sessions,
        many=many,
        share=format_fraction(report.carry_share),
        penalties=[] if hidden else [p for s in report.sessions for p in s.penalties],
        sanctions=Sanction.objects.filter(tournament=tournament).select_related("participant", "session"),
    )
    return render(request, "results/standings.html", context)
