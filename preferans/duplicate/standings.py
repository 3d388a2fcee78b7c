"""Standings: matchpoint totals, maxima, percentages and shared ranks (duplicate rules §9, §12; formats.md §3).

A participant's matchpoints are the sum of what he earned on every board-line he played, plus his procedural
penalties (§12; always below zero, :mod:`preferans.duplicate.penalties`). His maximum is the sum of the tops of those board-lines
(penalties do not change it). Percent = 100 · matchpoints / max. Participants are sorted by percent,
highest first; equal percentages share a rank written ``"3-4"``.

Multi-session standings sum matchpoints and maxima over the sessions, then take the percentage (the default,
:func:`add_totals`). The organisers may instead average the sessions' percentages (:func:`average_totals`,
``Tournament.session_totals == "percent"``, docs/players/series.md): the matchpoints and maxima shown are still
the sums, and the percent is the mean of the percentages of the sessions the participant played.

Disqualified participants (§13.2.4) take no place: the others are ranked without them, and they are listed last
with an empty rank (:func:`rank_totals`, ``out_of_ranking``). A suspension (§13.2.4 «отстранять участника от
игры в текущей сессии или любой её части») changes no number here: the suspended participant simply has no
board-lines for the rounds he did not play, so neither his matchpoints nor his maximum count them.

Pure Python, exact fractions, no Django import.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from preferans.numbers import percent_of

__all__ = [
    "StandingRow",
    "Total",
    "add_totals",
    "average_totals",
    "out_of_the_ranking",
    "rank_totals",
    "session_totals",
]


@dataclass(frozen=True)
class Total:
    """Matchpoints (penalties included) and maximum of one participant.

    ``averaged``: the percent when it is not 100 · matchpoints / max — the sessions' percentages averaged
    (:func:`average_totals`) or a final's carry-over (:mod:`preferans.series`); ``None`` otherwise. A sum of
    totals drops it.
    """

    matchpoints: Fraction = Fraction(0)
    max: Fraction = Fraction(0)
    averaged: Fraction | None = None

    def __add__(self, other: Total) -> Total:
        return Total(self.matchpoints + other.matchpoints, self.max + other.max)

    @property
    def percent(self) -> Fraction:
        """100 · matchpoints / max, exact; 0 when the participant has no maximum (played nothing)."""
        if self.averaged is not None:
            return self.averaged
        return percent_of(self.matchpoints, self.max)


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings."""

    participant: int
    name: str
    matchpoints: Fraction
    max: Fraction
    percent: Fraction
    rank: str


def session_totals(
    earned: Iterable[tuple[int, Fraction, Fraction]],
    penalties: Iterable[tuple[int, Fraction]] = (),
    participants: Iterable[int] = (),
) -> dict[int, Total]:
    """Totals of one session.

    ``earned``: ``(participant, matchpoints, top)`` for every seat the participant occupied on a board-line.
    ``penalties``: ``(participant, matchpoints)``, added to the matchpoints only. ``participants``: numbers
    that must appear even with nothing earned.
    """
    # Sums of many Fractions are slow; add integer numerators over one common denominator instead.
    entries = list(earned)
    extra = list(penalties)
    denominator = lcm(
        *{v.denominator for _, v, _ in entries},
        *{t.denominator for _, _, t in entries},
        *{v.denominator for _, v in extra},
    )
    mp: dict[int, int] = dict.fromkeys(participants, 0)
    top: dict[int, int] = dict.fromkeys(mp, 0)
    for number, value, line_top in entries:
        mp[number] = mp.get(number, 0) + value.numerator * (denominator // value.denominator)
        top[number] = top.get(number, 0) + line_top.numerator * (denominator // line_top.denominator)
    for number, value in extra:
        mp[number] = mp.get(number, 0) + value.numerator * (denominator // value.denominator)
        top.setdefault(number, 0)
    return {
        number: Total(Fraction(mp[number], denominator), Fraction(top[number], denominator)) for number in mp
    }


def add_totals(sessions: Iterable[Mapping[int, Total]]) -> dict[int, Total]:
    """Multi-session totals: matchpoints and maxima summed over the sessions."""
    result: dict[int, Total] = {}
    for totals in sessions:
        for number, total in totals.items():
            result[number] = result.get(number, Total()) + total
    return result


def average_totals(sessions: Iterable[Mapping[int, Total]]) -> dict[int, Total]:
    """Multi-session totals when the organisers average the sessions' percentages.

    Matchpoints and maxima are summed as in :func:`add_totals` (shown as they are); the percent is the exact mean
    of the percentages of the sessions the participant **played** (a maximum above 0). A session he missed
    counts for nothing, as in the summed totals, where it adds nothing to his maximum; none played: 0 %.
    """
    sums: dict[int, Total] = {}
    played: dict[int, list[Fraction]] = {}
    for totals in sessions:
        for number, total in totals.items():
            sums[number] = sums.get(number, Total()) + total
            shares = played.setdefault(number, [])
            if total.max > 0:
                shares.append(total.percent)
    return {
        number: Total(
            t.matchpoints,
            t.max,
            sum(played[number], Fraction(0)) / len(played[number]) if played[number] else Fraction(0),
        )
        for number, t in sums.items()
    }


def rank_totals(
    totals: Mapping[int, Total],
    names: Mapping[int, str] | None = None,
    out_of_ranking: Collection[int] = frozenset(),
) -> tuple[StandingRow, ...]:
    """Sort by percent (highest first, then participant number) and give ranks.

    Ties are decided on the **exact** percentages, not on the rounded strings printed: two participants whose
    percentages both print as ``"57.14"`` but differ in the exact value get different ranks. A shared rank is
    written ``"first-last"`` (``"3-4"``), a single one ``"3"``.

    ``out_of_ranking``: disqualified participants (§13.2.4 «дисквалифицировать участника»). They take no place:
    the others are ranked as if they were absent, and they follow at the end (by percent, then number) with the
    rank ``""``, their numbers still shown so that nothing is hidden. Their matchpoints stay what they earned, and
    so do the others': the boards were played, and the book annuls no result for a disqualification.
    """
    names = names or {}
    keyed = sorted(((total.percent, number, total) for number, total in totals.items()), key=_order)
    ranked = [item for item in keyed if item[1] not in out_of_ranking]
    standings: list[StandingRow] = []
    start = 0
    while start < len(ranked):
        end = start
        while end + 1 < len(ranked) and ranked[end + 1][0] == ranked[start][0]:
            end += 1
        rank = str(start + 1) if end == start else f"{start + 1}-{end + 1}"
        for percent, number, total in ranked[start : end + 1]:
            standings.append(
                StandingRow(number, names.get(number, ""), total.matchpoints, total.max, percent, rank)
            )
        start = end + 1
    for percent, number, total in keyed:
        if number in out_of_ranking:
            standings.append(
                StandingRow(number, names.get(number, ""), total.matchpoints, total.max, percent, "")
            )
    return tuple(standings)


def out_of_the_ranking(
    rows: Iterable[StandingRow], out_of_ranking: Collection[int]
) -> tuple[StandingRow, ...]:
    """The standings ``rows`` (as :func:`rank_totals` made them) ranked again without ``out_of_ranking``
    (disqualified participants, §13.2.4); nothing else changes."""
    rows = tuple(rows)
    if not out_of_ranking:
        return rows
    totals = {r.participant: Total(r.matchpoints, r.max, r.percent) for r in rows}
    return rank_totals(totals, {r.participant: r.name for r in rows}, out_of_ranking)


def _order(item: tuple[Fraction, int, Total]) -> tuple[Fraction, int]:
    return (-item[0], item[1])
