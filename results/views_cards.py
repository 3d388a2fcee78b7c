"""A participant's personal card on the public pages of a duplicate event: his rows board by board, his totals,
and the picture of his running percentage.

What shows is :mod:`visibility`'s: a session's rows once the results are published and the session is
over, the tricks taken against tricks possible with the layouts; the totals, the place and the picture with the
standings (not while a round is being played); directors see everything, always.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

import visibility
from duplicate.rests import session_rests
from results import charts
from results.data import Report, load_report
from results.dd_card import card_lines
from results.derived import running_percentages, score_cards
from results.labels import contract_text
from results.views_common import base_context, event_of, unpublished
from tournaments.models import Tournament
from visibility import Viewer


def _card_of(
    request: HttpRequest, slug: str, number: int
) -> HttpResponse | tuple[Tournament, Viewer, Report, Any]:
    """The participant's score card, or the page that says results are not published yet (404: no such player)."""
    tournament, viewer = event_of(request, slug)
    if not visibility.can_see_results(viewer, tournament):
        return unpublished(request, tournament)
    report = load_report(tournament.pk)
    if number not in report.participants:
        raise Http404("no such participant")
    (card,) = score_cards(report, [number])
    return tournament, viewer, report, card


def _rest_rounds(tournament: Tournament, number: int) -> set[tuple[int, int]]:
    """(session, round) the participant sits out by the movement (``duplicate.rests``)."""
    return {
        (session.number, rnd)
        for session in tournament.sessions.all()
        for rnd, resting in session_rests(session).items()
        if any(r.number == number for r in resting)
    }


def _running_charts(
    tournament: Tournament, report: Report, card: Any, title: str, *, phone: bool = False
) -> list[str]:
    """The running-percentage chart with the participant's rests marked; with ``phone``, also drawn narrow."""
    points, rests = running_percentages(card), _rest_rounds(tournament, card.person.number)
    sizes = [{}, {"width": 360, "height": 230, "css_class": "chart-running-phone"}] if phone else [{}]
    return [
        charts.running_chart_svg(
            points,
            title=title,
            round_label=_("Round"),
            many_sessions=len(report.sessions) > 1,
            rests=rests,
            rest_label=_("rest"),
            **size,
        )
        for size in sizes
    ]


@never_cache
def player_card(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    found = _card_of(request, slug, number)
    if isinstance(found, HttpResponse):
        return found
    tournament, viewer, report, card = found
    lang = getattr(request, "LANGUAGE_CODE", "ru")
    totals_hidden = visibility.standings_hidden(viewer, tournament)
    sessions = []
    dd_lines = card_lines(tournament, card)  # tricks taken / possible (docs/double-dummy.md)
    rests = _rest_rounds(tournament, number)
    for s in card.sessions:
        info = report.session(s.number)
        visible = info is not None and visibility.can_see_session_rows(viewer, tournament, info)
        layouts = info is not None and visibility.can_see_layouts(viewer, tournament, info)
        rows = []
        for c in s.rows:
            table = f"{c.room}/{c.table}" if c.room > 1 else c.table
            where = _("round %(r)s · table %(t)s · %(seat)s") % {"r": c.round, "t": table, "seat": c.seat}
            rows.append(
                {
                    "c": c,
                    "visible": visible,
                    "contract": contract_text(c.result.contract, lang),
                    "where": where,
                    "opponents": [(seat, report.person(n)) for seat, n in c.opponents],
                    "dd": dd_lines.get((c.session, c.board, c.round, c.table, c.room)) if layouts else None,
                }
            )
        # The rounds he sat out stand in their place among the boards, not after the last one played.
        rows.extend({"rest": rnd} for session_number, rnd in rests if session_number == s.number)
        rows.sort(key=lambda row: row["rest"] if "rest" in row else row["c"].round)
        sessions.append({"s": s, "rows": rows})
    points = running_percentages(card)
    many = len(report.sessions) > 1
    # A phone gets the same chart drawn for its width, so that its labels stay readable.
    chart, phone_chart = (
        _running_charts(tournament, report, card, _("Percentage after each round"), phone=True)
        if len(points) > 1 and not totals_hidden
        else ("", "")
    )
    context = base_context(
        tournament,
        report,
        viewer.directs(tournament),
        nav="standings",
        card=card,
        card_sessions=sessions,
        totals_hidden=totals_hidden,
        chart=chart,
        phone_chart=phone_chart,
        many=many,
        points=points,
    )
    return render(request, "results/player.html", context)


@never_cache
def player_chart(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    found = _card_of(request, slug, number)
    if isinstance(found, HttpResponse):
        return found
    tournament, viewer, report, card = found
    if not visibility.can_see_standings(viewer, tournament):
        raise Http404("not shown now")
    (svg,) = _running_charts(
        tournament, report, card, f"{card.person.label}: {_('Percentage after each round')}"
    )
    return HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
