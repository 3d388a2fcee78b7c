"""Master points of an event (docs/players/master-points.md): awarded when its results become final, recomputed
with an audit entry when a correction or an appeal changes them afterwards.

The scheme is the series' (``Series.master_points``) when the event belongs to one, else the documented default
(:data:`preferans.ratings.DEFAULT_SCHEME`). The pure rules are :mod:`preferans.ratings.master_points`; this module
reads the stored standings, asks the rules, and keeps one :class:`~players.models.MasterPointAward` per participant
linked to a person who earned more than nothing.

Hooks: ``events.publication.publish`` calls :func:`results_final` when the results become final;
``scoring.rescore`` signals each stored rescore, and :func:`results_rescored` recomputes if the event is final.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from players.models import MasterPointAward, Person, Series, SeriesEvent
from players.services.ratings import merged_owners, refresh_ratings
from preferans.numbers import format_fraction, parse_fraction, percent_of
from preferans.ratings.master_points import (
    DEFAULT_SCHEME,
    MasterPointError,
    Placed,
    Scheme,
    award,
    field_percent,
    parse_scheme,
)
from pulkas.services.standings import event_table
from scoring.models import Standing
from scoring.rescore import standings_stored
from tournaments.audit import log_action
from tournaments.errors import UserError
from tournaments.models import Participant, Publication, Tournament
from tournaments.permissions import can_direct

logger = logging.getLogger(__name__)

__all__ = [
    "award_master_points",
    "connect",
    "history",
    "results_final",
    "results_rescored",
    "scheme_error_text",
    "choose_deciding_series",
    "deciding_link",
    "no_deciding_series",
    "scheme_for",
    "scheme_gives",
    "set_series_scheme",
]

# What a scheme the rules cannot read is told, by the core's code (the core speaks English; this layer translates).
SCHEME_ERRORS = {
    "unknown_scheme": gettext_noop(
        "A master-point scheme is “place” (by place and field size) or “percent” (by percentage)."
    ),
    "unknown_key": gettext_noop("The master-point scheme has a key it does not know: %(key)s."),
    "bad_number": gettext_noop(
        "The master-point scheme has a number it cannot use at “%(key)s”: numbers are whole or fractions such "
        "as 1/4, not below 0, and a lower place never gets more than a higher one."
    ),
    "too_big": gettext_noop("The master-point scheme's “%(key)s” may be at most %(most)s."),
}


def _links(tournament: Tournament) -> list[SeriesEvent]:
    return list(SeriesEvent.objects.filter(tournament=tournament).select_related("series").order_by("pk"))


def deciding_link(tournament: Tournament) -> SeriesEvent | None:
    """The event's link to the series whose scheme gives its master points: the one its director chose
    (:func:`choose_deciding_series`), else its only series; None: in no series, or in two or more and none
    chosen (:func:`no_deciding_series`)."""
    links = _links(tournament)
    chosen = [link for link in links if link.decides]
    return chosen[0] if chosen else links[0] if len(links) == 1 else None


def no_deciding_series(tournament: Tournament) -> bool:
    """The event is in two or more series and its director chose none: it gets no master points."""
    links = _links(tournament)
    return len(links) > 1 and not any(link.decides for link in links)


def scheme_for(tournament: Tournament) -> Scheme | None:
    """The scheme of the deciding series (:func:`deciding_link`), else the documented default; None when the event
    is in two or more series and its director chose none (it gets no master points). A scheme that cannot be read
    is logged and the default used, so that making results final never fails on it."""
    if no_deciding_series(tournament):
        return None
    link = deciding_link(tournament)
    if link is None or not link.series.master_points:
        return DEFAULT_SCHEME
    try:
        return parse_scheme(link.series.master_points)
    except MasterPointError:
        logger.warning(
            "series %s: master-point scheme unreadable, default used", link.series_id, exc_info=True
        )
        return DEFAULT_SCHEME


def _standings(tournament: Tournament) -> list[tuple[Standing, Placed]]:
    """The stored standings with each participant's percentage: exact (matchpoints over the maximum) when the
    sessions' matchpoints are summed; the published percentage when the event averages its sessions'
    percentages or carries part of a qualification over (the matchpoints then do not make the percentage)."""
    rows = list(
        Standing.objects.filter(tournament=tournament).select_related("participant").order_by("position")
    )
    summed = tournament.session_totals != "percent" and not (
        tournament.qualification_id and parse_fraction(tournament.carry_over or "0")
    )

    def percent(row: Standing) -> Fraction:
        if summed:
            return percent_of(parse_fraction(row.matchpoints), parse_fraction(row.max))
        return Fraction(row.percent.replace(",", ".") or "0")  # a decimal string: exact as Fraction reads it

    return [(row, Placed(row.participant.number, row.rank, percent(row))) for row in rows]


@dataclass(frozen=True)
class _Line:
    """A pulka event's standings line in the shape the awards read (participant, its key, its place)."""

    participant: Participant
    participant_id: int
    rank: str


def _pulka_standings(tournament: Tournament) -> list[tuple[_Line, Placed]]:
    """The pulka standings (``pulkas.services.standings``): places from the rating table or the Olympic bracket;
    a percentage for a percentage scheme is the share of the ranked field each place beat (ties half)."""
    lines = [line for line in event_table(tournament).lines if line.place]
    size = len(lines)
    return [
        (
            _Line(line.participant, line.participant.pk, line.place),
            Placed(line.participant.number, line.place, field_percent(line.place, size)),
        )
        for line in lines
    ]


def scheme_gives(tournament: Tournament, scheme: Scheme) -> dict[int, Fraction]:
    """participant number → the master points ``scheme`` gives him in the event's stored standings."""
    rows: list[tuple[Any, Placed]] = (
        list(_pulka_standings(tournament)) if tournament.plays_pulkas else list(_standings(tournament))
    )
    points = award(scheme, [placed for _, placed in rows])
    return {row.participant.number: points[placed.key] for row, placed in rows}


@transaction.atomic
def award_master_points(
    tournament: Tournament, *, now: dt.datetime, user: Any = None, reason: str = ""
) -> list[MasterPointAward]:
    """Compute the event's awards from its stored standings and store them; audit what was awarded or changed.

    A duplicate event's places and percentages are its stored standings; an event played in pulkas has its
    pulka standings' places, and a percentage read from them (docs/players/master-points.md). Unchanged awards
    are left as they are (no audit entry).
    """
    scheme = scheme_for(tournament)
    rows: list[tuple[Any, Placed]] = []
    if scheme is not None:  # two series and none chosen: no master points
        rows = list(_pulka_standings(tournament)) if tournament.plays_pulkas else list(_standings(tournament))
    points = award(scheme, [placed for _, placed in rows]) if scheme is not None else {}
    label = scheme.name() if scheme is not None else "none: no deciding series"
    wanted: dict[int, tuple[int, str, str]] = {}  # participant → (person, points, place)
    owners = merged_owners()
    for row, placed in rows:
        value, person = points[placed.key], row.participant.person_id
        if person is not None and value > 0:
            wanted[row.participant_id] = (owners.get(person, person), format_fraction(value), row.rank)
    stored = {
        a.participant_id: a
        for a in MasterPointAward.objects.filter(tournament=tournament).select_related("participant")
    }
    before = {pk: (a.person_id, a.points, a.place) for pk, a in stored.items()}
    if before == wanted and all(a.scheme == label for a in stored.values()):
        return list(stored.values())
    numbers = dict(tournament.participants.values_list("pk", "number"))
    changes = [
        {
            "participant": numbers.get(pk),
            "before": before[pk][1] if pk in before else "0",
            "after": wanted[pk][1] if pk in wanted else "0",
        }
        for pk in sorted(set(before) | set(wanted), key=lambda k: numbers.get(k, 0))
        if before.get(pk, (None, "0"))[1] != wanted.get(pk, (None, "0"))[1]
    ]
    MasterPointAward.objects.filter(tournament=tournament).delete()
    awards = MasterPointAward.objects.bulk_create(
        MasterPointAward(
            tournament=tournament,
            participant_id=pk,
            person_id=person,
            points=value,
            place=place,
            scheme=label,
            computed_at=now,
        )
        for pk, (person, value, place) in wanted.items()
    )
    total = sum((Fraction(parse_fraction(v)) for _, v, _ in wanted.values()), Fraction(0))
    log_action(
        tournament=tournament,
        action="master_points.recompute" if stored else "master_points.award",
        user=user,
        actor="" if user else "system",
        obj=tournament,
        at=now,
        reason=reason,
        data={
            "scheme": label,
            "awards": len(awards),
            "total": format_fraction(total),
            "changes": changes,
        },
    )
    return awards


def results_final(tournament: Tournament, *, now: dt.datetime, user: Any = None) -> None:
    """The hook of ``publish(to=final)``: award the master points and rate the event."""
    award_master_points(tournament, now=now, user=user)
    refresh_ratings(tournament, now=now)


def results_rescored(tournament: Tournament, *, now: dt.datetime) -> None:
    """After every stored rescore: once the results are final, a change (an arithmetic correction, an appeal's
    decision, rules §1) recomputes the awards (audited when they change) and the ratings from that day on."""
    if tournament.publication != Publication.FINAL:
        return
    award_master_points(tournament, now=now, reason="results changed after they became final")
    refresh_ratings(tournament, now=now)


def scheme_error_text(error: MasterPointError) -> str:
    """The core's refusal of a scheme, in the active language."""
    text = SCHEME_ERRORS.get(error.code, SCHEME_ERRORS["unknown_scheme"])
    params = {"key": error.params.get("key", ""), "most": error.params.get("most", "")}
    return _(text) % params if "%(key)s" in text else _(text)


@transaction.atomic
def set_series_scheme(
    *, series: Series, raw: dict[str, Any] | None, user: Any, now: dt.datetime
) -> list[Tournament]:
    """Set a series' master-point scheme (empty: the default) after checking it; the awards of its events whose
    results are already final are computed again under it (each change audited). Returns those events."""
    try:
        parse_scheme(raw)
    except MasterPointError as exc:
        raise UserError(scheme_error_text(exc), code=f"master_points_{exc.code}") from exc
    series.master_points = raw or {}
    series.save(update_fields=["master_points"])
    redone = []
    for link in series.events.select_related("tournament").order_by("order", "pk"):
        t = link.tournament
        if t.publication == Publication.FINAL:
            award_master_points(t, now=now, user=user, reason="the series' master-point scheme changed")
            redone.append(t)
    return redone


@transaction.atomic
def choose_deciding_series(
    *, tournament: Tournament, series: Series | None, user: Any, now: dt.datetime
) -> list[MasterPointAward]:
    """The event's director chooses, among the series the event belongs to, the one whose scheme gives its master
    points (None: no choice). Audited; a final event's awards are computed again under it."""
    if not can_direct(user, tournament):
        raise UserError(_("Only the event's directors choose this."), code="series_forbidden", status=403)
    links = SeriesEvent.objects.select_for_update().filter(tournament=tournament)
    if series is not None and not links.filter(series=series).exists():
        raise UserError(_("The event is not in this series."), code="series_not_in")
    links.update(decides=False)
    if series is not None:
        links.filter(series=series).update(decides=True)
    log_action(
        tournament=tournament,
        action="master_points.series",
        user=user,
        obj=tournament,
        data={"series": series.slug if series is not None else None},
        at=now,
    )
    if tournament.publication == Publication.FINAL:
        return award_master_points(tournament, now=now, user=user, reason="the deciding series was chosen")
    return []


def _on_rescore(sender: object, *, tournament: Tournament, now: dt.datetime, **kwargs: object) -> None:
    results_rescored(tournament, now=now)


def connect() -> None:
    """Listen to the rescore (called once from ``players.apps``)."""
    standings_stored.connect(_on_rescore, dispatch_uid="players.points.rescored")


def history(person: Person) -> list[MasterPointAward]:
    """A person's master points, event by event (the awards of persons merged into him included)."""
    ids = [person.pk, *Person.objects.filter(merged_into=person).values_list("pk", flat=True)]
    return list(
        MasterPointAward.objects.filter(person_id__in=ids)
        .select_related("tournament")
        .order_by("tournament__starts_on", "tournament__final_at", "pk")
    )
