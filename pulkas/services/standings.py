"""What a pulka event's results say: the rating table by round (compensation, Swiss), the Olympic bracket, and
the final standings — read from the stored table results, ranked by the pure core (``preferans.pulka.forms``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import groupby

from preferans.numbers import parse_fraction
from preferans.pulka.byes import bye_rating
from preferans.pulka.forms import standings as rank_standings
from preferans.pulka.ranking import format_rank
from pulkas.models import PulkaBye, PulkaEvent, PulkaRound, PulkaTableResult
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


@dataclass(frozen=True)
class _Result:
    """What the standings read of a player's stored result at one table (plain values, no model instance)."""

    table: int  # the table's number
    rating: str
    vists: str
    rank: str


def _results(
    tournament: Tournament,
) -> tuple[list[PulkaRound], dict[int, dict[int, _Result]], dict[int, set[int]]]:
    """The rounds, every player's result by round number, and the byes by round number: four queries, the
    results read as plain values (model instances of every result, table and round cost more than the rest)."""
    rounds = list(PulkaRound.objects.filter(tournament=tournament).order_by("number"))
    number = {r.pk: r.number for r in rounds}
    by_round: dict[int, dict[int, _Result]] = defaultdict(dict)
    rows = PulkaTableResult.objects.filter(table__round__tournament=tournament).values_list(
        "table__round_id", "table__number", "participant_id", "rating", "vists", "rank"
    )
    for round_id, table, participant, rating, vists, rank in rows:
        by_round[number[round_id]][participant] = _Result(table, rating, vists, rank)
    byes: dict[int, set[int]] = defaultdict(set)
    for round_id, participant in PulkaBye.objects.filter(round__tournament=tournament).values_list(
        "round_id", "participant_id"
    ):
        byes[number[round_id]].add(participant)
    return rounds, by_round, byes


def cut_players(
    event: PulkaEvent, rounds: list[PulkaRound], by_round: Mapping[int, Mapping[int, object]]
) -> set[int]:
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
    rounds, by_round, byes = _results(tournament)
    participants = list(Participant.objects.filter(tournament=tournament).order_by("number"))
    cut = cut_players(event, rounds, by_round)
    bye_ratings = {  # the round's average (preferans.pulka.byes: the software's choice, the book has no byes)
        r.number: bye_rating(parse_fraction(x.rating) for x in by_round.get(r.number, {}).values())
        for r in rounds
        if byes.get(r.number)
    }
    lines: dict[int, PlayerLine] = {}
    for p in participants:
        line = PlayerLine(p, [])
        for r in rounds:
            result = by_round.get(r.number, {}).get(p.pk)
            line.tables.append(result.table if result else None)
            if result is not None:
                rating = parse_fraction(result.rating)
                line.ratings.append(rating)
                line.vists += parse_fraction(result.vists)
            elif p.pk in byes.get(r.number, set()):
                line.ratings.append(bye_ratings[r.number])
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
    by_round: dict[int, dict[int, _Result]],
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
        results = by_round.get(number, {})
        at_final = number == final_number and len(results) <= 4

        def key(
            pk: int, results: dict[int, _Result] = results, at_final: bool = at_final
        ) -> tuple[int, Fraction]:
            result = results.get(pk)
            if result is None:
                return (1, Fraction(0))
            if at_final:
                return (0, Fraction(int(result.rank.split("-")[0])))
            return (0, -parse_fraction(result.rating))

        keys = {pk: key(pk) for pk in groups[number]}  # each once: a round out may hold most of the field
        for _key, members in groupby(sorted(groups[number], key=keys.__getitem__), key=keys.__getitem__):
            same = sorted(members, key=lambda pk: lines[pk].participant.number)  # shared places: by number
            for m in same:
                line = lines[m]
                line.place = format_rank(place, place + len(same) - 1)
                line.out_in_round = None if number == final_number else number
                ordered.append(line)
            place += len(same)
    ordered += [line for pk, line in lines.items() if pk not in last_round]
    return ordered
