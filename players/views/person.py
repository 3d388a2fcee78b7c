"""A person's public page (``/players/<id>/``): every event he played, his results, master points, rating chart
and statistics (issue 20; docs/players/person.md).

The page reads ``players.services.history`` and draws; the events it shows follow the standings' rule of every
channel (``visibility.can_see_standings``): the public sees an event once its results are published, and not while
one of its rounds is being played. A merged duplicate's id
redirects to the kept person.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from players.models import Person
from players.services.history import EventLine, History, PulkaLine, RatingPoint, kept_person, person_history
from pulkas.services.standings import event_table
from tournaments.models import Form, Tournament
from ui.templatetags.scores import display_number
from visibility import Viewer, can_see_standings

ACCENT = "#1f5fa8"
MUTED = "#5f6b76"
GRID = "#dde2e7"


def _pulka_lines(tournament: Tournament) -> Iterable[PulkaLine]:
    """The public standings of a pulka event (``pulkas.services.standings``): place, vists, rating."""
    return event_table(tournament).lines


def _event_link(line: EventLine) -> str:
    """His personal card in the event: the duplicate score card, or the pulka player's page."""
    if line.form == Form.DUPLICATE:
        return reverse("results:player", kwargs={"slug": line.slug, "number": line.number})
    return reverse("results:pulka-player", kwargs={"slug": line.slug, "number": line.number})


@never_cache
def person_page(request: HttpRequest, pk: int) -> HttpResponse:
    person = get_object_or_404(Person, pk=pk)
    kept = kept_person(person)
    if kept.pk != person.pk:
        return redirect("players:person", pk=kept.pk)
    viewer = Viewer.of(request.user)
    history = person_history(kept, visible=lambda t: can_see_standings(viewer, t), pulka_table=_pulka_lines)
    forms = dict(Form.choices)
    events = [{"e": e, "link": _event_link(e), "form": forms.get(e.form, e.form)} for e in history.events]
    chart = phone_chart = ""
    if history.ratings:
        title = _("Rating after each event")
        chart = rating_chart_svg(history.ratings, title=title, start_label=_("start"))
        phone_chart = rating_chart_svg(
            history.ratings,
            title=title,
            start_label=_("start"),
            width=360,
            height=230,
            css_class="chart-rating-phone",
        )
    context = {
        "person": kept,
        "history": history,
        "events": events,
        "stats": history.statistics,
        "ratings": _rating_rows(history),
        "chart": chart,
        "phone_chart": phone_chart,
    }
    return render(request, "players/person.html", context)


def _rating_rows(history: History) -> list[dict[str, Any]]:
    """Newest first, each with its change."""
    return [{"r": r, "change": r.after - r.before} for r in reversed(history.ratings)]


def rating_chart_svg(
    points: Sequence[RatingPoint],
    *,
    title: str,
    start_label: str = "start",
    width: int = 720,
    height: int = 260,
    css_class: str = "chart-rating",
) -> str:
    """The rating over time: the rating before the first event, then after each event, as a line with dots
    (the exact figure and the event in each dot's ``<title>``), the y axis labelled. No JavaScript."""
    left, right, top, bottom = 52, 16, 28, 36
    pw, ph = width - left - right, height - top - bottom
    labels = [start_label, *[p.played_on.strftime("%d.%m.%y") for p in points]]
    values = [points[0].before, *[p.after for p in points]] if points else []
    tips = [f"{start_label}: {display_number(values[0])}"] if points else []
    tips += [f"{p.played_on:%d.%m.%Y} {p.name}: {display_number(p.after)}" for p in points]
    floats = [float(v) for v in values]
    ticks = _ticks(min(floats, default=0.0), max(floats, default=1.0))
    lo, hi = ticks[0], ticks[-1]

    def y_of(v: float) -> float:
        return top + ph * (hi - v) / (hi - lo)

    n = len(values)

    def x_of(i: int) -> float:
        return left + (pw * i / (n - 1) if n > 1 else pw / 2)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="100%" role="img" '
        f'aria-label="{escape(title)}" class="chart {css_class}" font-family="DejaVu Sans, sans-serif" font-size="11">',
        f"<title>{escape(title)}</title>",
        f'<text x="{left}" y="16" font-size="13" font-weight="600" fill="#1d232a">{escape(title)}</text>',
    ]
    for v in ticks:
        y = y_of(v)
        out.append(f'<line x1="{left}" x2="{left + pw}" y1="{y:.1f}" y2="{y:.1f}" stroke="{GRID}"/>')
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end" fill="{MUTED}">{v:g}</text>')
    every = max(1, (n * 60) // pw + 1)  # about 60 px per date label
    for i, label in enumerate(labels):
        if i % every == 0 or i == n - 1:
            anchor = "start" if i == 0 and n > 1 else "end" if i == n - 1 and n > 1 else "middle"
            out.append(
                f'<text x="{x_of(i):.1f}" y="{top + ph + 16}" text-anchor="{anchor}" fill="{MUTED}">{escape(label)}</text>'
            )
    if values:
        coords = " ".join(f"{x_of(i):.1f},{y_of(v):.1f}" for i, v in enumerate(floats))
        out.append(f'<polyline points="{coords}" fill="none" stroke="{ACCENT}" stroke-width="2.2"/>')
        for i, v in enumerate(floats):
            out.append(
                f'<circle cx="{x_of(i):.1f}" cy="{y_of(v):.1f}" r="3.5" fill="#fff" stroke="{ACCENT}" stroke-width="2" '
                f'class="rating-point"><title>{escape(tips[i])}</title></circle>'
            )
        out.append(
            f'<text x="{x_of(n - 1) - 4:.1f}" y="{y_of(floats[-1]) - 9:.1f}" text-anchor="end" font-weight="600" '
            f'fill="{ACCENT}">{escape(display_number(values[-1]))}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def _ticks(lo: float, hi: float) -> list[float]:
    """Round values for the rating axis (a step of 1, 2, 5, 10, 20, 25, 50 … giving at most 6 lines) that
    enclose every value with a little room."""
    span = max(hi - lo, 1.0)
    step = 1.0
    for candidate in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        step = float(candidate)
        if span / step <= 4:
            break
    first = (lo // step) * step
    if first >= lo:
        first -= step
    out = [first]
    while out[-1] <= hi:
        out.append(out[-1] + step)
    return out
