"""Series pages: the list, a director's create/edit page (its events added and removed) and the public table.

Who may (players.services.series): directors of events create series; a series' owner edits it and adds the
events he directs; anyone sees the table, which counts published events only (the owner sees them all, marked).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from players.models import Series
from players.services import series as service
from players.services.points import scheme_error_text, set_series_scheme
from preferans.bundle.bounds import TEXT_MAX
from preferans.numbers import format_fraction
from preferans.ratings.master_points import (
    FIELD_MAX,
    MasterPointError,
    PercentScheme,
    PlaceScheme,
    parse_scheme,
)
from tournaments.errors import UserError
from tournaments.models import Tournament


class SeriesForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name of the series"), max_length=min(TEXT_MAX, 200))
    slug = forms.SlugField(
        label=gettext_lazy("Short name (in the address)"),
        max_length=64,
        help_text=gettext_lazy("Latin letters, digits and hyphens: /players/series/<short name>/."),
    )
    season = forms.CharField(label=gettext_lazy("Season"), max_length=40, required=False)
    measure = forms.ChoiceField(
        label=gettext_lazy("The table counts"),
        choices=[("percent", gettext_lazy("percentages")), ("points", gettext_lazy("master points"))],
    )
    best = forms.IntegerField(
        label=gettext_lazy("Best events counted"),
        min_value=0,
        max_value=service.BEST_MAX,
        required=False,
        help_text=gettext_lazy("Best k of the events played; 0 or empty: every event counts."),
    )


class SchemeForm(forms.Form):
    """A series' master-point scheme (docs/players/master-points.md): by place or by percentage; an empty number
    keeps the documented default shown beside it. Keys the page does not show (an explicit table of places, a cap)
    are kept while the kind stays the same."""

    PLACE = ("first", "field", "cut")
    PERCENT = ("per_percent", "above")
    KEPT = {"place": ("places", "max_factor"), "percent": ("max",)}

    kind = forms.ChoiceField(
        label=gettext_lazy("Master points are given"),
        widget=forms.RadioSelect,
        choices=[("place", gettext_lazy("by place")), ("percent", gettext_lazy("by percentage"))],
    )
    first = forms.CharField(label=gettext_lazy("The winner's points"), max_length=20, required=False)
    field = forms.IntegerField(
        label=gettext_lazy("Reference field size"), min_value=1, max_value=FIELD_MAX, required=False
    )
    cut = forms.CharField(label=gettext_lazy("Share of the field paid"), max_length=20, required=False)
    per_percent = forms.CharField(
        label=gettext_lazy("Points per percentage point"), max_length=20, required=False
    )
    above = forms.CharField(label=gettext_lazy("Counted above the percentage"), max_length=20, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The defaults shown are the rules' own (preferans.ratings.master_points), never a copy of them.
        place, percent = PlaceScheme(), PercentScheme()
        defaults = {
            "first": (
                format_fraction(place.first),
                _("Default %(n)s, at the reference field size; the paid places get less, linearly."),
            ),
            "field": (str(place.field), _("Default %(n)s players: a larger field gets proportionally more.")),
            "cut": (format_fraction(place.cut), _("Default %(n)s: that share of the field, from the top.")),
            "per_percent": (format_fraction(percent.per_percent), _("Default %(n)s.")),
            "above": (format_fraction(percent.above), _("Default %(n)s: nothing at or below it.")),
        }
        for key, (value, help_text) in defaults.items():
            self.fields[key].widget.attrs["placeholder"] = value
            self.fields[key].help_text = help_text % {"n": value}

    @classmethod
    def initial_of(cls, raw: dict[str, Any]) -> dict[str, Any]:
        kind = raw.get("scheme", "place")
        keys = cls.PERCENT if kind == "percent" else cls.PLACE
        return {"kind": kind} | {k: raw[k] for k in keys if raw.get(k) is not None}

    def scheme(self, old: dict[str, Any]) -> dict[str, Any]:
        """The scheme to store: the chosen kind, its numbers given, the kept keys; nothing given: the default."""
        d = self.cleaned_data
        kind = d["kind"]
        raw: dict[str, Any] = {"scheme": kind}
        for key in self.PERCENT if kind == "percent" else self.PLACE:
            value = d.get(key)
            if value not in (None, ""):
                raw[key] = value if key == "field" else _exact(str(value))
        if old.get("scheme", "place") == kind:
            raw |= {k: old[k] for k in self.KEPT[kind] if old.get(k) is not None}
        return {} if raw == {"scheme": "place"} else raw


def _exact(text: str) -> str:
    """A number as typed («12,5», «12.5», «25/2») in the exact form schemes keep («25/2»); what is not a number is
    left as typed, for the rules to refuse in words."""
    try:
        return format_fraction(Fraction(text.strip().replace(",", ".")))
    except (ValueError, ZeroDivisionError):
        return text.strip()


def _scheme_refusal(form: SchemeForm, raw: dict[str, Any], exc: UserError) -> None:
    """Show the refusal under the box at fault, naming the box (not the scheme's key); else on the whole form."""
    try:
        parse_scheme(raw)
    except MasterPointError as refused:
        key = refused.params.get("key", "")
        if key in SchemeForm.PLACE + SchemeForm.PERCENT:
            named = MasterPointError(
                refused.code,
                str(refused),
                key=str(form.fields[key].label),
                most=refused.params.get("most", ""),
            )
            form.add_error(key, scheme_error_text(named))
            return
    form.add_error(None, exc.message)


def _form_error(form: forms.Form, exc: UserError) -> None:
    field = {
        "series_name": "name",
        "series_slug": "slug",
        "series_slug_taken": "slug",
        "series_best": "best",
        "series_measure": "measure",
    }.get(exc.code)
    form.add_error(field, exc.message)


def series_list(request: HttpRequest) -> HttpResponse:
    context = {
        "series_list": Series.objects.order_by("-created_at", "pk"),
        "can_create": service.can_create_series(request.user),
    }
    return render(request, "players/series_list.html", context)


def series_new(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not service.can_create_series(request.user):
        raise PermissionDenied
    form = SeriesForm(request.POST or None, initial={"measure": "percent", "best": 0})
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            created = service.series_create(
                name=d["name"],
                slug=d["slug"],
                season=d["season"],
                measure=d["measure"],
                best=d["best"],
                user=request.user,
                now=timezone.now(),
            )
        except UserError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, _("The series is created. Now add its events."))
            return redirect("players:series_edit", slug=created.slug)
    return render(request, "players/series_form.html", {"form": form, "series": None})


def _owned(request: HttpRequest, slug: str) -> Series:
    series = get_object_or_404(Series, slug=slug)
    if not service.can_edit_series(request.user, series):
        raise PermissionDenied
    return series


def series_edit(request: HttpRequest, slug: str) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    series = _owned(request, slug)
    rules = series.rules or {}
    initial = {
        "name": series.name,
        "slug": series.slug,
        "season": series.season,
        "measure": rules.get("measure", "percent"),
        "best": rules.get("best", 0),
    }
    scheme_post = request.method == "POST" and "mp-kind" in request.POST
    form = SeriesForm(None if scheme_post else (request.POST or None), initial=initial)
    form.fields["slug"].disabled = True
    old_scheme = dict(series.master_points or {})
    scheme_form = SchemeForm(
        request.POST if scheme_post else None, initial=SchemeForm.initial_of(old_scheme), prefix="mp"
    )
    if scheme_post and scheme_form.is_valid():
        raw = scheme_form.scheme(old_scheme)
        try:
            redone = set_series_scheme(series=series, raw=raw, user=request.user, now=timezone.now())
        except UserError as exc:
            _scheme_refusal(scheme_form, raw, exc)
        else:
            messages.success(
                request,
                ngettext(
                    "The master-point scheme is saved; the master points of %(n)s event with final results are "
                    "computed again.",
                    "The master-point scheme is saved; the master points of %(n)s events with final results are "
                    "computed again.",
                    len(redone),
                )
                % {"n": len(redone)}
                if redone
                else _("The master-point scheme is saved."),
            )
            return redirect("players:series_edit", slug=series.slug)
    if request.method == "POST" and not scheme_post and form.is_valid():
        d = form.cleaned_data
        try:
            service.series_update(
                series=series,
                user=request.user,
                now=timezone.now(),
                name=d["name"],
                season=d["season"],
                measure=d["measure"],
                best=d["best"],
            )
        except UserError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, _("Saved."))
            return redirect("players:series_edit", slug=series.slug)
    events = service.events_of(series, public=False)
    mine = Tournament.objects.all() if request.user.is_superuser else request.user.directed_tournaments.all()
    addable = mine.exclude(pk__in=[t.pk for t in events]).order_by("-starts_on", "-created_at")[:200]
    context = {
        "form": form,
        "series": series,
        "events": events,
        "addable": addable,
        "scheme_form": scheme_form,
        "place_fields": [scheme_form[k] for k in SchemeForm.PLACE],
        "percent_fields": [scheme_form[k] for k in SchemeForm.PERCENT],
    }
    return render(request, "players/series_form.html", context)


@require_POST
def series_events(request: HttpRequest, slug: str) -> HttpResponse:
    """Add (``add`` = the event's short name) or remove (``remove``) an event."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    series = _owned(request, slug)
    now = timezone.now()
    try:
        if request.POST.get("remove"):
            tournament = get_object_or_404(Tournament, slug=request.POST["remove"])
            service.series_remove_event(series=series, tournament=tournament, user=request.user, now=now)
            messages.success(request, _("Removed from the series: %(e)s.") % {"e": tournament.name})
        else:
            tournament = get_object_or_404(Tournament, slug=request.POST.get("add", ""))
            service.series_add_event(series=series, tournament=tournament, user=request.user, now=now)
            messages.success(request, _("Added to the series: %(e)s.") % {"e": tournament.name})
    except UserError as exc:
        messages.error(request, exc.message)
    return redirect("players:series_edit", slug=series.slug)


def series_table(request: HttpRequest, slug: str) -> HttpResponse:
    series = get_object_or_404(Series, slug=slug)
    owner = service.can_edit_series(request.user, series)
    table = service.table_of(series, public=not owner)
    context: dict[str, Any] = {"table": table, "series": series, "owner": owner}
    return render(request, "players/series_table.html", context)
