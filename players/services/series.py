"""Series of events (a season of club evenings, a cup in stages) and their table (docs/players/series.md).

A series has rules (``Series.rules``): ``measure`` — ``"percent"`` (each event's percentage in its stored
standings) or ``"points"`` (the master points awarded, ``players.MasterPointAward``) — and ``best``, the ``k`` of
best ``k`` of ``n`` (0 or absent: every event counts). The table is made from what is stored, through
``Participant.person``: a participant not linked to a person of the register is not in it, nor is a disqualified
one (he takes no place, rules §13.2.4). The public table counts published events only; a series' owner sees
every event. The arithmetic is :func:`preferans.series.series_table`.

Who may: any director of an event creates a series and owns it; its owner (or a superuser) edits it and adds the
events he directs.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from players.models import MasterPointAward, Person, Series, SeriesEvent
from preferans.numbers import parse_fraction
from preferans.series import series_table
from scoring.models import Standing
from tournaments.errors import UserError
from tournaments.models import Tournament
from tournaments.permissions import can_direct

MEASURES = ("percent", "points")
BEST_MAX = 99
SLUG = re.compile(r"^[-a-zA-Z0-9_]{1,64}$")


def can_create_series(user: Any) -> bool:
    """A director of some event (or a superuser)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_superuser or user.directed_tournaments.exists())


def can_edit_series(user: Any, series: Series) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_superuser or series.owner_id == user.pk)


def _rules(measure: str, best: int | None) -> dict[str, Any]:
    if measure not in MEASURES:
        raise UserError(
            _("Choose what the table counts: percentages or master points."), code="series_measure"
        )
    if best is not None and not 0 <= best <= BEST_MAX:
        raise UserError(_("Best events: a number from 0 to %(n)s.") % {"n": BEST_MAX}, code="series_best")
    return {"measure": measure, "best": best or 0}


def series_create(
    *,
    name: str,
    slug: str,
    user: Any,
    now: dt.datetime,
    season: str = "",
    measure: str = "percent",
    best: int | None = None,
) -> Series:
    """A new series owned by ``user``."""
    if not can_create_series(user):
        raise UserError(_("Only directors of events create series."), code="series_forbidden", status=403)
    name, slug = name.strip(), slug.strip()
    if not name:
        raise UserError(_("Give the series a name."), code="series_name")
    if not SLUG.match(slug) or slug == "new":  # "new" is the create page's address
        raise UserError(_("The short name: Latin letters, digits and hyphens."), code="series_slug")
    rules = _rules(measure, best)
    try:
        with transaction.atomic():
            return Series.objects.create(name=name, slug=slug, season=season.strip(), rules=rules, owner=user)
    except IntegrityError:
        raise UserError(
            _("The short name “%(slug)s” is taken; choose another.") % {"slug": slug},
            code="series_slug_taken",
        ) from None


def series_update(
    *, series: Series, user: Any, now: dt.datetime, name: str, season: str, measure: str, best: int | None
) -> Series:
    if not can_edit_series(user, series):
        raise UserError(_("Only the series' owner changes it."), code="series_forbidden", status=403)
    if not name.strip():
        raise UserError(_("Give the series a name."), code="series_name")
    series.name, series.season = name.strip(), season.strip()
    series.rules = {**(series.rules or {}), **_rules(measure, best)}
    series.save(update_fields=["name", "season", "rules"])
    return series


def series_add_event(*, series: Series, tournament: Tournament, user: Any, now: dt.datetime) -> SeriesEvent:
    """Add an event the user directs, after the series' last one."""
    if not can_edit_series(user, series):
        raise UserError(_("Only the series' owner changes it."), code="series_forbidden", status=403)
    if not can_direct(user, tournament):
        raise UserError(_("You can add only the events you direct."), code="series_not_director", status=403)
    if SeriesEvent.objects.filter(series=series, tournament=tournament).exists():
        raise UserError(_("This event is in the series already."), code="series_event_twice")
    last = SeriesEvent.objects.filter(series=series).aggregate(m=Max("order"))["m"] or 0
    return SeriesEvent.objects.create(series=series, tournament=tournament, order=last + 1)


def series_remove_event(*, series: Series, tournament: Tournament, user: Any, now: dt.datetime) -> None:
    if not can_edit_series(user, series):
        raise UserError(_("Only the series' owner changes it."), code="series_forbidden", status=403)
    SeriesEvent.objects.filter(series=series, tournament=tournament).delete()


@dataclass(frozen=True)
class Cell:
    value: Fraction | None
    counted: bool


@dataclass(frozen=True)
class Line:
    person: Person
    rank: str
    total: Fraction
    mean: Fraction
    played: int
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class Table:
    series: Series
    measure: str
    best: int
    events: tuple[Tournament, ...]
    lines: tuple[Line, ...]


def _root(person_id: int, merged: dict[int, int | None]) -> int:
    seen = set()
    while merged.get(person_id) is not None and person_id not in seen:
        seen.add(person_id)
        person_id = merged[person_id]  # type: ignore[assignment]
    return person_id


def events_of(series: Series, *, public: bool) -> tuple[Tournament, ...]:
    links = SeriesEvent.objects.filter(series=series).select_related("tournament").order_by("order", "pk")
    return tuple(link.tournament for link in links if link.tournament.is_published or not public)


def table_of(series: Series, *, public: bool = True) -> Table:
    """The series table from the stored standings (or master points) of its events (published ones only when
    ``public``)."""
    rules = series.rules or {}
    measure = rules.get("measure") if rules.get("measure") in MEASURES else "percent"
    best = int(rules.get("best") or 0)
    events = events_of(series, public=public)
    ids = [t.pk for t in events]
    triples: list[tuple[int, int, Fraction]] = []
    if measure == "percent":
        for tournament_id, person_id, percent in (
            Standing.objects.filter(tournament_id__in=ids, participant__person__isnull=False)
            .exclude(rank="")
            .values_list("tournament_id", "participant__person_id", "percent")
        ):
            triples.append((person_id, tournament_id, Fraction(percent)))
    else:
        for tournament_id, person_id, points in MasterPointAward.objects.filter(
            tournament_id__in=ids
        ).values_list("tournament_id", "person_id", "points"):
            triples.append((person_id, tournament_id, parse_fraction(points)))
    merged = dict(Person.objects.filter(merged_into__isnull=False).values_list("pk", "merged_into_id"))
    summed: dict[tuple[int, int], Fraction] = {}
    for person_id, tournament_id, value in triples:
        key = (_root(person_id, merged), tournament_id)
        summed[key] = summed.get(key, Fraction(0)) + value if measure == "points" else value
    persons = {p.pk: p for p in Person.objects.filter(pk__in={p for p, _ in summed})}
    ordered = sorted(summed.items(), key=lambda item: (persons[item[0][0]].name, item[0][0]))
    rows = series_table(((p, t, v) for (p, t), v in ordered), ids, best or None)
    lines = tuple(
        Line(
            persons[row.person],
            row.rank,
            row.total,
            row.mean,
            len(row.values),
            tuple(Cell(row.values.get(t), t in row.counted) for t in ids),
        )
        for row in rows
    )
    return Table(series, measure, best, events, lines)
