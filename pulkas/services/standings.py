"""What a pulka event's results say: the rating table by round (compensation, Swiss), the Olympic bracket, and
the final standings — read from the stored table results, ranked by the pure core (``preferans.pulka.forms``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from preferans.numbers import parse_fraction
from preferans.pulka.forms import standings as rank_standings
from preferans.pulka.ranking import format_rank
from pulkas.models import PulkaBye, PulkaEvent, PulkaRound, PulkaTable, PulkaTableResult
from tournaments.models import Participant, Tournament


@dataclass
class PlayerLine:
    participant: Participant
    ratings: list[Fraction | None]  # per round; None: did not play (cut, out, or not yet)
    byes: list[int] = field(default_factory=list)  # rounds with a bye
    total: Fraction = Fraction(0)
    vists: Fraction = Fraction(0)
    place: str = ""
    cut: bool = False
    out_in_round: int | None = None  # Olympic: the round he went out in
    tables: list[int | None] = field(default_factory=list)  # his table per round


@dataclass
class EventTable:
    """The rating table (compensation, Swiss) or the standings by elimination (Olympic)."""

    rounds: list[PulkaRound]
    lines: list[PlayerLine]


def _results(tournament: Tournament) -> tuple[list[PulkaRound], dict[int, dict[int, PulkaTableResult]], dict[int, set[int]], dict[int, dict[int, PulkaTable]]]:
    rounds = list(PulkaRound.objects.filter(tournament=tournament).order_by("number"))
    by_round: dict[int, dict[int, PulkaTableResult]] = defaultdict(dict)
    tables: dict[int, dict[int, PulkaTable]] = defaultdict(dict)
    for result in PulkaTableResult.objects.filter(table__round__tournament=tournament).select_related("table__round"):
        by_round[result.table.round.number][result.participant_id] = result
        tables[result.table.round.number][result.participant_id] = result.table
    byes: dict[int, set[int]] = defaultdict(set)
    for bye in PulkaBye.objects.filter(round__tournament=tournament).select_related("round"):
        byes[bye.round.number].add(bye.participant_id)
    return rounds, by_round, byes, tables


def cut_players(event: PulkaEvent, rounds: list[PulkaRound], by_round: dict[int, dict[int, PulkaTableResult]]) -> set[int]:
    """Swiss: the players who did not make the cut (they have no table in the rounds after it)."""
    if event.cut_after is None or event.tournament.form != "swiss":
        return set()
    after = [r.number for r in rounds if r.number > event.cut_after]
    if not after:
        return set()
    playing = set(by_round.get(after[0], {}))
    before = set().union(*(set(by_round.get(r.number, {})) for r in rounds if r.number <= event.cut_after))
    return before - playing


def event_table(tournament: Tournament) -> EventTable:
    event = PulkaEvent.objects.select_related("tournament").get(tournament=tournament)
    rounds, by_round, byes, tables = _results(tournament)
    participants = list(Participant.objects.filter(tournament=tournament).order_by("number"))
    cut = cut_players(event, rounds, by_round)
    lines: dict[int, PlayerLine] = {}
    for p in participants:
        line = PlayerLine(p, [])
        for r in rounds:
            result = by_round.get(r.number, {}).get(p.pk)
            table = tables.get(r.number, {}).get(p.pk)
            line.tables.append(table.number if table else None)
            if result is not None:
                rating = parse_fraction(result.rating)
                line.ratings.append(rating)
                line.vists += parse_fraction(result.vists)
            elif p.pk in byes.get(r.number, set()):
                line.ratings.append(Fraction(0))  # a bye counts 0 (the table average of a zero-sum rating)
                line.byes.append(r.number)
            else:
                line.ratings.append(None)
        line.total = sum((x for x in line.ratings if x is not None), Fraction(0))
        line.cut = p.pk in cut
        lines[p.pk] = line
    if tournament.form == "olympic":
        return EventTable(rounds, _olympic_order(rounds, by_round, byes, lines))
    ranked = rank_standings(
        {pk: [x for x in line.ratings if x is not None] for pk, line in lines.items()},
        {pk: line.vists for pk, line in lines.items()},
        cut=sorted(cut),
    )
    out: list[PlayerLine] = []
    for standing in ranked:
        line = lines[int(standing.player)]  # type: ignore[call-overload]
        line.place = format_rank(*standing.place)
        out.append(line)
    return EventTable(rounds, out)


def _olympic_order(
    rounds: list[PulkaRound],
    by_round: dict[int, dict[int, PulkaTableResult]],
    byes: dict[int, set[int]],
    lines: dict[int, PlayerLine],
) -> list[PlayerLine]:
    """Olympic: the last round's players first (by their rank at the final table), then those out in each
    earlier round, latest first; within a round by their rating there (shared when equal)."""
    last_round: dict[int, int] = {}
    for r in rounds:
        for pk in set(by_round.get(r.number, {})) | byes.get(r.number, set()):
            last_round[pk] = r.number
    groups: dict[int, list[int]] = defaultdict(list)
    for pk, number in last_round.items():
        groups[number].append(pk)
    ordered: list[PlayerLine] = []
    place = 1
    final_number = rounds[-1].number if rounds else 0
    for number in sorted(groups, reverse=True):

        def key(pk: int, number: int = number) -> tuple[object, ...]:
            result = by_round.get(number, {}).get(pk)
            if result is None:
                return (1, Fraction(0))
            if number == final_number and len(by_round.get(number, {})) <= 4:
                first = int(result.rank.split("-")[0])
                return (0, Fraction(first))
            return (0, -parse_fraction(result.rating))

        members = sorted(groups[number], key=key)
        i = 0
        while i < len(members):
            same = [m for m in members[i:] if key(m) == key(members[i])]
            for m in same:
                line = lines[m]
                line.place = format_rank(place, place + len(same) - 1)
                line.out_in_round = None if number == final_number else number
                ordered.append(line)
            place += len(same)
            i += len(same)
    ordered += [line for pk, line in lines.items() if pk not in last_round]
    return ordered
