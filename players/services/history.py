"""A person's history across events: every event he played, his result there, his master points, his rating
history and his statistics as declarer and defender (issue 20; docs/players/person.md).

Nothing is scored again. A duplicate event's place, matchpoints, maximum and percentage are the stored
``scoring.Standing`` row the standings page shows (``results.data.load_report`` reads the same row); a pulka
event's place, vists and rating are the event table of ``pulkas.services.standings`` (the public standings'),
passed in by the caller (``pulka_table``: that layer sits above this one). Master points and ratings are the
stored ``MasterPointAward`` and ``RatingEntry`` rows, exact fraction strings read with
:func:`preferans.numbers.parse_fraction`.

**Who sees what.** ``visible(tournament)`` decides which events count (the public page passes the results
pages' rule, ``visibility.can_see_standings``: published events, not while a round is played; a director also his own); an
event it refuses is absent everywhere: from the events, the master points, the rating and the statistics. The
statistics read only the protocol rows of sessions that are over — finished, or (an event imported whole) with
official or final results — so that a published event still running never tells a deal's contract before every
table has played it.

**Merged persons.** A person merged into another (``Person.merged_into``) is the kept person: his
participations, awards and ratings are listed under the person at the end of the chain, with those of every
person merged into him.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from django.db.models import Q

from players.models import MasterPointAward, Person, RatingEntry
from preferans.game.contracts import ContractError, ContractKind, parse_contract
from preferans.numbers import NumberFormatError, parse_fraction
from scoring.models import Result, Standing
from tournaments.models import Form, Participant, Publication, Session, Tournament

LEVELS = (6, 7, 8, 9, 10)
SEATS = ("N", "E", "S", "W")


class PulkaLine(Protocol):
    """What this module reads of a line of a pulka event's table (``pulkas.services.standings.PlayerLine``)."""

    participant: Participant
    place: str
    vists: Fraction
    total: Fraction


PulkaTable = Callable[[Tournament], Iterable[PulkaLine]]


@dataclass(frozen=True)
class EventLine:
    """One event the person played, as its public results show it."""

    tournament_id: int
    slug: str
    name: str
    date: dt.date | None
    form: str  # tournaments.models.Form
    number: int  # his participant number there (for the link to his personal card)
    field: int  # participants in the event
    place: str = ""  # the rank as the standings show it ("1", "2-3"); empty: none (disqualified, not scored)
    matchpoints: Fraction | None = None  # duplicate: the standings' total
    max: Fraction | None = None
    percent: str = ""  # duplicate: the standings' rounded percentage, as the core wrote it
    vists: Fraction | None = None  # pulka: vists over all rounds
    rating: Fraction | None = None  # pulka: the event table's total rating
    master_points: Fraction | None = None

    @property
    def duplicate(self) -> bool:
        return self.form == Form.DUPLICATE


@dataclass(frozen=True)
class RatingPoint:
    tournament_id: int
    slug: str
    name: str
    played_on: dt.date
    before: Fraction
    after: Fraction


@dataclass
class Statistics:
    """Counts over the protocol rows he played in finished sessions of visible duplicate events.

    - **declarer**: trick contracts by level, made (the declarer writes his pool: his tricks, less the penalty
      tricks and the wrong-cards rule of Code 3.9.18, reach the level, as ``preferans.game.ledger`` scores it)
      or failed; misère made (no trick) or failed;
    - **defender** of a trick contract (one of the two hands after the declarer, or the 4-player dealer who
      whisted): deals defended, deals he whisted (his call ``whist``, or the dealer's whist), and deals
      defended where the declarer failed;
    - **raspasy** he played (one of the three hands), and every deal he played (the 4-player dealer's deals,
      artificial and assigned results are not deals played).
    """

    made: dict[int, int] = field(default_factory=lambda: dict.fromkeys(LEVELS, 0))
    failed: dict[int, int] = field(default_factory=lambda: dict.fromkeys(LEVELS, 0))
    misere_made: int = 0
    misere_failed: int = 0
    defended: int = 0
    whisted: int = 0
    defended_failed: int = 0
    raspasy: int = 0
    deals: int = 0

    @property
    def declared(self) -> int:
        return sum(self.made.values()) + sum(self.failed.values())

    @property
    def levels(self) -> list[tuple[int, int, int]]:
        """(level, made, failed) for every level, 6 to 10."""
        return [(level, self.made[level], self.failed[level]) for level in LEVELS]

    @property
    def empty(self) -> bool:
        return self.deals == 0


@dataclass(frozen=True)
class History:
    person: Person  # the kept person (the end of the merged_into chain)
    events: tuple[EventLine, ...]  # newest first
    ratings: tuple[RatingPoint, ...]  # oldest first
    statistics: Statistics
    master_points: Fraction  # the total over the events shown

    @property
    def rating(self) -> Fraction | None:
        """The latest rating, if any."""
        return self.ratings[-1].after if self.ratings else None

    @property
    def duplicate_events(self) -> int:
        return sum(1 for e in self.events if e.duplicate)


# -- persons -----------------------------------------------------------------------------------------------
def kept_person(person: Person) -> Person:
    """The person a merged duplicate points to, at the end of the chain (a cycle stops where it closes)."""
    seen = {person.pk}
    while person.merged_into_id is not None and person.merged_into_id not in seen:
        seen.add(person.merged_into_id)
        person = Person.objects.get(pk=person.merged_into_id)
    return person


def person_group(person: Person) -> list[int]:
    """The kept person and every person merged into him, directly or through another merged person."""
    group = [person.pk]
    frontier = [person.pk]
    while frontier:
        frontier = [
            pk
            for pk in Person.objects.filter(merged_into__in=frontier).values_list("pk", flat=True)
            if pk not in group
        ]
        group += frontier
    return group


def _fraction(raw: Any) -> Fraction | None:
    try:
        return parse_fraction(raw)
    except (NumberFormatError, ValueError, TypeError, ZeroDivisionError):
        return None


# -- the history -------------------------------------------------------------------------------------------
def person_history(
    person: Person,
    *,
    visible: Callable[[Tournament], bool] = lambda t: t.is_published,
    pulka_table: PulkaTable | None = None,
) -> History:
    """Everything the person's page shows. ``person`` may be a merged duplicate: the kept person's history
    is returned (``History.person``)."""
    kept = kept_person(person)
    group = person_group(kept)
    participations = list(
        Participant.objects.filter(person__in=group)
        .select_related("tournament")
        .order_by("tournament_id", "number")
    )
    shown = [p for p in participations if visible(p.tournament)]
    tournaments = {p.tournament_id: p.tournament for p in shown}
    awards: dict[tuple[int, int], Fraction] = {}
    for tournament_id, participant_id, points in MasterPointAward.objects.filter(
        person__in=group, tournament__in=list(tournaments)
    ).values_list("tournament_id", "participant_id", "points"):
        value = _fraction(points)
        if value is not None:
            awards[(tournament_id, participant_id)] = (
                awards.get((tournament_id, participant_id), Fraction(0)) + value
            )
    fields = _field_sizes(tournaments)
    events = [
        _event_line(p, fields.get(p.tournament_id, 0), awards.get((p.tournament_id, p.pk)), pulka_table)
        for p in shown
    ]
    events.sort(key=lambda e: (e.date or dt.date.min, e.tournament_id), reverse=True)
    return History(
        person=kept,
        events=tuple(events),
        ratings=_ratings(group, tournaments),
        statistics=statistics([p for p in shown if p.tournament.form == Form.DUPLICATE]),
        master_points=sum(awards.values(), Fraction(0)),
    )


def _field_sizes(tournaments: dict[int, Tournament]) -> dict[int, int]:
    sizes: dict[int, int] = {}
    for tournament_id in Participant.objects.filter(tournament__in=list(tournaments)).values_list(
        "tournament_id", flat=True
    ):
        sizes[tournament_id] = sizes.get(tournament_id, 0) + 1
    return sizes


def _event_line(
    p: Participant, field_size: int, points: Fraction | None, pulka_table: PulkaTable | None
) -> EventLine:
    t = p.tournament
    base = EventLine(t.pk, t.slug, t.name, t.starts_on, t.form, p.number, field_size, master_points=points)
    if t.form == Form.DUPLICATE:
        standing = Standing.objects.filter(tournament=t, participant=p).first()
        if standing is None:
            return base
        return EventLine(
            t.pk,
            t.slug,
            t.name,
            t.starts_on,
            t.form,
            p.number,
            field_size,
            place=standing.rank,
            matchpoints=_fraction(standing.matchpoints),
            max=_fraction(standing.max),
            percent=standing.percent,
            master_points=points,
        )
    if pulka_table is None:
        return base
    line = next((x for x in pulka_table(t) if x.participant.pk == p.pk), None)
    if line is None:
        return base
    return EventLine(
        t.pk,
        t.slug,
        t.name,
        t.starts_on,
        t.form,
        p.number,
        field_size,
        place=line.place,
        vists=line.vists,
        rating=line.total,
        master_points=points,
    )


def _ratings(group: list[int], tournaments: dict[int, Tournament]) -> tuple[RatingPoint, ...]:
    out = []
    for entry in RatingEntry.objects.filter(person__in=group, tournament__in=list(tournaments)).order_by(
        "played_on", "computed_at", "pk"
    ):
        before, after = _fraction(entry.before), _fraction(entry.after)
        if before is None or after is None:
            continue
        t = tournaments[entry.tournament_id]
        out.append(RatingPoint(t.pk, t.slug, t.name, entry.played_on, before, after))
    return tuple(out)


# -- statistics --------------------------------------------------------------------------------------------
def statistics(participants: Iterable[Participant]) -> Statistics:
    """Count the played protocol rows of these participants (one per duplicate event) in sessions that are over."""
    stats = Statistics()
    pks = {p.pk for p in participants}
    if not pks:
        return stats
    # A session is over when it is finished; or, never run here (an event imported whole from a bundle, its
    # session still "planned"), when its event's results are official or final: play has ended (rules §1).
    over = Q(session__status=Session.Status.FINISHED) | Q(
        session__status=Session.Status.PLANNED,
        session__tournament__publication__in=(Publication.OFFICIAL, Publication.FINAL),
    )
    rows = (
        Result.objects.filter(over)
        .filter(_sits(pks))
        .values_list("seat_n_id", "seat_e_id", "seat_s_id", "seat_w_id", "row", "adjusted", "assigned")
    )
    for n, e, s, w, row, adjusted, assigned in rows.iterator():
        if adjusted or assigned:
            continue  # an artificial or assigned result: no deal was played
        seats = dict(zip(SEATS, (n, e, s, w), strict=True))
        for seat, pk in seats.items():
            if pk in pks:
                count_row(stats, seat, row or {})
    return stats


def _sits(pks: set[int]) -> Q:
    return Q(seat_n_id__in=pks) | Q(seat_e_id__in=pks) | Q(seat_s_id__in=pks) | Q(seat_w_id__in=pks)


def _hand(raw: object) -> tuple[str, int] | None:
    if isinstance(raw, list | tuple) and len(raw) == 2 and isinstance(raw[1], int):
        return str(raw[0]), raw[1]
    return None


def count_row(stats: Statistics, seat: str, row: dict[str, Any]) -> None:
    """Add one protocol row (docs/formats.md §2.1) to the statistics of the player at ``seat``."""
    try:
        contract = parse_contract(row.get("contract"))  # type: ignore[arg-type]
    except ContractError:
        return
    hands = [h for h in (_hand(row.get(k)) for k in ("declarer", "w1", "w2")) if h is not None]
    if len(hands) != 3:
        return
    active = {s for s, _t in hands}
    dealer_whists = (
        bool(row.get("dealer_whist")) and seat not in active and contract.kind is ContractKind.TRICKS
    )
    if seat not in active and not dealer_whists:
        return  # the 4-player dealer who sat the deal out
    if seat in active:
        stats.deals += 1
    if contract.kind is ContractKind.RASPASY:
        stats.raspasy += 1
        return
    declarer, tricks = hands[0]
    if contract.kind is ContractKind.MISERE:
        if seat == declarer:
            if tricks == 0:
                stats.misere_made += 1
            else:
                stats.misere_failed += 1
        return
    assert contract.level is not None
    level = contract.level
    effective = tricks - int(row.get("penalty_tricks") or 0)
    if declarer in (row.get("wrong_cards") or ()):
        effective = min(effective, level) - 2  # Code 3.9.18, as preferans.game.ledger scores it
    made = effective >= level
    if seat == declarer:
        (stats.made if made else stats.failed)[level] += 1
        return
    stats.defended += 1
    if dealer_whists or (row.get("calls") or {}).get(seat) == "whist":
        stats.whisted += 1
    if not made:
        stats.defended_failed += 1
