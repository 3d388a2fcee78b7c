"""What the public pages and the files of a pulka event show, read once from the stored facts.

Each round's tables with their players' results (the cache the core wrote, :class:`~pulkas.models.
PulkaTableResult`, read back as exact fractions), the byes, who went on from an Olympic table, the seating of a
round with the ratings it was drawn by, and one player's path through the rounds. The standings themselves are
:func:`pulkas.services.standings.event_table` (one definition of the order); this module only adds the tables.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from preferans.numbers import parse_fraction
from pulkas.models import SEATS, PulkaBye, PulkaEvent, PulkaRound, PulkaTable, PulkaTableResult
from pulkas.services.rounds import is_final
from pulkas.services.standings import EventTable, PlayerLine, event_table
from tournaments.models import Participant, Tournament

__all__ = [
    "EventView",
    "PathStep",
    "RoundView",
    "SeatView",
    "TableView",
    "load_event",
    "player_path",
    "ratings_before",
]


@dataclass
class SeatView:
    seat: str
    participant: Participant
    vists: Fraction
    integer_vists: int
    rating: Fraction
    rank: str  # "1" or a shared "2-3"
    went_on: bool = False  # Olympic: plays the next round (went on, chosen among the tied, or a lucky loser)
    tied: bool = False  # Olympic: tied at the cut, not decided yet
    lucky: bool = False  # Olympic: went on as a lucky loser (filled a table of 3)
    winner: bool = False  # Olympic: first at the final table

    @property
    def first_place(self) -> int:
        return int(self.rank.split("-")[0]) if self.rank else 99


@dataclass
class TableView:
    table: PulkaTable
    seats: list[SeatView]  # N, E, S (, W)

    @property
    def number(self) -> int:
        return self.table.number

    @property
    def deals(self) -> int:
        return self.table.deals_count

    @property
    def reason(self) -> str:  # pool | deal_limit | stopped | in_progress
        return self.table.reason

    @property
    def finished(self) -> bool:
        return self.table.finished

    @property
    def started(self) -> bool:
        """Results worth showing: a deal has been written or the table was closed."""
        return self.deals > 0 or self.finished

    @property
    def by_rank(self) -> list[SeatView]:
        return sorted(self.seats, key=lambda s: (s.first_place, SEATS.index(s.seat)))


@dataclass
class RoundView:
    pulka_round: PulkaRound
    tables: list[TableView]
    byes: list[Participant]
    final: bool = False  # Olympic: the one table of the last round, where the prizes are played for

    @property
    def number(self) -> int:
        return self.pulka_round.number

    @property
    def status(self) -> str:
        return self.pulka_round.status

    def table_of(self, participant_pk: int) -> tuple[TableView, SeatView] | None:
        for table in self.tables:
            for seat in table.seats:
                if seat.participant.pk == participant_pk:
                    return table, seat
        return None


@dataclass
class EventView:
    tournament: Tournament
    event: PulkaEvent
    rounds: list[RoundView]
    standings: EventTable
    participants: dict[int, Participant] = field(default_factory=dict)

    @property
    def olympic(self) -> bool:
        return self.tournament.form == "olympic"

    def round(self, number: int) -> RoundView | None:
        return next((r for r in self.rounds if r.number == number), None)

    def line_of(self, participant_pk: int) -> PlayerLine | None:
        return next((line for line in self.standings.lines if line.participant.pk == participant_pk), None)

    @property
    def champion(self) -> list[SeatView]:
        """Olympic: the winner(s) of the finished final."""
        last = self.rounds[-1] if self.rounds else None
        if last is None or not last.final:
            return []
        return [s for t in last.tables for s in t.seats if s.winner]


def load_event(tournament: Tournament) -> EventView:
    """The whole event in five queries (rounds, tables, results, byes, the standings)."""
    event = PulkaEvent.objects.select_related("tournament").get(tournament=tournament)
    standings = event_table(tournament)
    participants = {line.participant.pk: line.participant for line in standings.lines}
    rounds = list(PulkaRound.objects.filter(tournament=tournament).order_by("number"))
    tables: dict[int, list[PulkaTable]] = defaultdict(list)
    for table in PulkaTable.objects.filter(round__tournament=tournament).order_by("round__number", "number"):
        tables[table.round_id].append(table)
    results: dict[int, dict[str, PulkaTableResult]] = defaultdict(dict)
    for result in PulkaTableResult.objects.filter(table__round__tournament=tournament):
        results[result.table_id][result.seat] = result
    byes: dict[int, list[Participant]] = defaultdict(list)
    for bye in PulkaBye.objects.filter(round__tournament=tournament).order_by("participant__number"):
        byes[bye.round_id].append(participants.get(bye.participant_id) or bye.participant)
    views: list[RoundView] = []
    for r in rounds:
        table_views = [_table_view(t, results.get(t.pk, {}), participants) for t in tables.get(r.pk, [])]
        final = is_final(tournament.form, len(table_views), len(byes.get(r.pk, [])))
        views.append(RoundView(r, table_views, byes.get(r.pk, []), final=final))
    if tournament.form == "olympic":
        _mark_olympic(views)
    return EventView(tournament, event, views, standings, participants)


def _table_view(
    table: PulkaTable, results: dict[str, PulkaTableResult], participants: dict[int, Participant]
) -> TableView:
    seats: list[SeatView] = []
    for seat, pk in table.seat_ids().items():
        result = results.get(seat)
        person = participants.get(pk) or Participant.objects.get(pk=pk)
        if result is None:  # not scored yet: the draw writes zeros, so this is only a race with the draw
            seats.append(SeatView(seat, person, Fraction(0), 0, Fraction(0), ""))
            continue
        seats.append(
            SeatView(
                seat,
                person,
                parse_fraction(result.vists),
                result.integer_vists,
                parse_fraction(result.rating),
                result.rank,
            )
        )
    return TableView(table, seats)


def _mark_olympic(rounds: list[RoundView]) -> None:
    """Who went on from each table: those who play the next round when it has been drawn (lucky losers among
    them), else — for a finished table — the seats the core sent on and the director's choice among the tied."""
    for i, r in enumerate(rounds):
        following = rounds[i + 1] if i + 1 < len(rounds) else None
        playing_next: set[int] | None = None
        if following is not None:
            playing_next = {s.participant.pk for t in following.tables for s in t.seats}
            playing_next |= {p.pk for p in following.byes}
        for table in r.tables:
            advance = table.table.advance or {"seats": [], "tied": []}
            chosen = set(advance.get("seats", [])) | set(table.table.tie_decision or [])
            for seat in table.seats:
                if r.final:
                    seat.winner = table.finished and seat.first_place == 1
                elif playing_next is not None:
                    seat.went_on = seat.participant.pk in playing_next
                    seat.lucky = seat.went_on and seat.seat not in chosen
                elif table.finished:
                    seat.went_on = seat.seat in chosen
                    seat.tied = seat.seat in table.table.tie_to_decide


def ratings_before(standings: EventTable, number: int) -> dict[int, Fraction]:
    """Compensation, Swiss: each player's tournament rating before round ``number`` (what its draw used)."""
    out: dict[int, Fraction] = {}
    for line in standings.lines:
        out[line.participant.pk] = sum((x for x in line.ratings[: number - 1] if x is not None), Fraction(0))
    return out


@dataclass
class PathStep:
    """One round of a player's path: his table and seat there, or a bye, or nothing (out, cut, not drawn)."""

    round: RoundView
    table: TableView | None = None
    seat: SeatView | None = None
    bye: bool = False
    total_after: Fraction | None = None  # compensation, Swiss: his tournament rating after this round

    @property
    def opponents(self) -> list[SeatView]:
        if self.table is None or self.seat is None:
            return []
        return [s for s in self.table.seats if s.seat != self.seat.seat]


def player_path(view: EventView, participant: Participant) -> list[PathStep]:
    line = view.line_of(participant.pk)
    steps: list[PathStep] = []
    running = Fraction(0)
    for i, r in enumerate(view.rounds):
        step = PathStep(r)
        found = r.table_of(participant.pk)
        if found is not None:
            step.table, step.seat = found
        step.bye = any(p.pk == participant.pk for p in r.byes)
        if not view.olympic and line is not None and i < len(line.ratings) and line.ratings[i] is not None:
            running += line.ratings[i] or Fraction(0)
            step.total_after = running
        steps.append(step)
    return steps
