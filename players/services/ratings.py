"""The players' rating across events (docs/players/rating.md): one :class:`~players.models.RatingEntry` per person
and final event, recomputed from the event's day on whenever a final event changes.

The pure formula is :mod:`preferans.ratings.rating`. A day is one batch: every final event played that day is
rated from the ratings before the day (so the order of a day's events does not matter); within the day the
entries are chained in the events' order (``before`` of the second is ``after`` of the first) so that a person's
history adds up, and the rating after the day is the same whatever that order. Participants not linked to a
person count in the field at the starting rating and get no entry.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Hashable, Iterable
from fractions import Fraction

from django.db import transaction
from django.utils import timezone

from players.models import Person, RatingEntry
from preferans.numbers import format_fraction, parse_fraction, percent_of
from preferans.ratings.rating import START, DuplicateEvent, PulkaEvent, rate_day
from pulkas.models import PulkaTableResult
from scoring.models import Standing
from tournaments.models import Form, Participant, Publication, Tournament

__all__ = [
    "merged_owners",
    "played_on",
    "rating_of",
    "rebuild_ratings",
    "refresh_ratings",
    "register_ratings",
    "seeding_ratings",
]


def played_on(tournament: Tournament) -> dt.date:
    """The day an event is rated on: its date, else the day its results became final (else it was created)."""
    if tournament.starts_on is not None:
        return tournament.starts_on
    moment = tournament.final_at or tournament.created_at
    return timezone.localtime(moment, tournament.time_zone).date()


def merged_owners() -> dict[int, int]:
    """Each merged person → the person he was merged into (followed to the end)."""
    links = dict(Person.objects.filter(merged_into__isnull=False).values_list("pk", "merged_into_id"))
    out = {}
    for pk in links:
        seen, cur = {pk}, links[pk]
        while cur in links and cur not in seen:
            seen.add(cur)
            cur = links[cur]
        out[pk] = cur
    return out


def _key(participant_id: int, person_id: int | None, owners: dict[int, int]) -> Hashable:
    if person_id is None:
        return ("participant", participant_id)  # in the field at the starting rating, never stored
    return owners.get(person_id, person_id)


def _event(tournament: Tournament, owners: dict[int, int]) -> DuplicateEvent[Hashable] | PulkaEvent[Hashable]:
    if tournament.form == Form.DUPLICATE:
        rows = Standing.objects.filter(tournament=tournament).exclude(rank="").select_related("participant")
        return DuplicateEvent(
            {
                _key(r.participant_id, r.participant.person_id, owners): percent_of(
                    parse_fraction(r.matchpoints), parse_fraction(r.max)
                )
                for r in rows
            }
        )
    tables: dict[int, dict[Hashable, Fraction]] = defaultdict(dict)
    results = PulkaTableResult.objects.filter(table__round__tournament=tournament).select_related(
        "participant"
    )
    for r in results:
        tables[r.table_id][_key(r.participant_id, r.participant.person_id, owners)] = parse_fraction(r.vists)
    return PulkaEvent([tables[k] for k in sorted(tables)])


@transaction.atomic
def rebuild_ratings(*, since: dt.date | None, now: dt.datetime) -> int:
    """Rate every final event from the day ``since`` on (``None``: all), day by day; returns the entries made."""
    events = [t for t in Tournament.objects.filter(publication=Publication.FINAL).order_by("pk")]
    by_day: dict[dt.date, list[Tournament]] = defaultdict(list)
    for t in events:
        day = played_on(t)
        if since is None or day >= since:
            by_day[day].append(t)
    old = RatingEntry.objects.all() if since is None else RatingEntry.objects.filter(played_on__gte=since)
    old.delete()
    current: dict[Hashable, Fraction] = {}
    games: dict[Hashable, int] = defaultdict(int)
    for entry in RatingEntry.objects.order_by("played_on", "pk"):
        current[entry.person_id] = parse_fraction(entry.after)
        games[entry.person_id] += 1
    owners = merged_owners()
    made = []
    for day in sorted(by_day):
        tournaments = by_day[day]
        rated = rate_day([_event(t, owners) for t in tournaments], current)
        for tournament, changes in zip(tournaments, rated.changes, strict=True):
            for key, change in changes.items():
                if not isinstance(key, int):
                    continue
                before = current.get(key, START)
                current[key] = before + change
                games[key] += 1
                made.append(
                    RatingEntry(
                        person_id=key,
                        tournament=tournament,
                        before=format_fraction(before),
                        after=format_fraction(current[key]),
                        games=games[key],
                        played_on=day,
                        computed_at=now,
                    )
                )
    RatingEntry.objects.bulk_create(made)
    return len(made)


def refresh_ratings(tournament: Tournament, *, now: dt.datetime) -> int:
    """A final event was made or changed: rate its day again, and every later day (they start from it)."""
    return rebuild_ratings(since=played_on(tournament), now=now)


def rating_of(person: Person) -> Fraction:
    """A person's current rating (after his last rated event), or the starting rating."""
    target = merged_owners().get(person.pk, person.pk)
    last = RatingEntry.objects.filter(person_id=target).order_by("-played_on", "-pk").first()
    return parse_fraction(last.after) if last else START


def register_ratings(participants: Iterable[Participant]) -> dict[int, Fraction]:
    """Each participant's seeding rating (primary key → rating): what seeds a compensation or Swiss event's first
    round («Рассадить первый тур по рейтингу», ``pulkas.services.rounds.draw_round``). The rule, the software's
    (the book seeds Part III by «рейтинг» and does not say whose), first given wins:

    1. the federation or club rating the event's participants list gave him (``Participant.declared_rating``);
    2. the declared rating of the person he is linked to (or of the one that person was merged into);
    3. that person's rating computed across events (docs/players/rating.md: after his last rated event);
    4. the starting rating (1500).

    A declared rating is taken as it is, on the same scale as the computed one: a club seeding by its own list
    types the list."""
    return {pk: rating for pk, (rating, _source) in seeding_ratings(participants).items()}


SOURCES = ("list", "declared", "computed", "start")  # which step of :func:`register_ratings` gave the rating


def seeding_ratings(participants: Iterable[Participant]) -> dict[int, tuple[Fraction, str]]:
    """:func:`register_ratings` with the step that gave each rating (one of :data:`SOURCES`)."""
    people = list(participants)
    owners = merged_owners()
    ids = {owners.get(p.person_id, p.person_id) for p in people if p.person_id is not None}
    declared = {
        pk: Fraction(value)
        for pk, value in Person.objects.filter(pk__in=ids, declared_rating__isnull=False).values_list(
            "pk", "declared_rating"
        )
    }
    last: dict[int, Fraction] = {}
    for entry in RatingEntry.objects.filter(person_id__in=ids).order_by("played_on", "pk"):
        last[entry.person_id] = parse_fraction(entry.after)
    out: dict[int, tuple[Fraction, str]] = {}
    for p in people:
        owner = None if p.person_id is None else owners.get(p.person_id, p.person_id)
        if p.declared_rating is not None:
            out[p.pk] = (Fraction(p.declared_rating), "list")
        elif owner in declared:
            out[p.pk] = (declared[owner], "declared")
        elif owner in last:
            out[p.pk] = (last[owner], "computed")
        else:
            out[p.pk] = (START, "start")
    return out
