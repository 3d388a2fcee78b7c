"""Across events: a final's carry-over from its qualification, and a series table (docs/players/series.md).

**Carry-over.** A final names its qualification and the share ``c`` (an exact fraction from 0 to 1) of the
qualification's result carried over. A finalist's percent is the weighted mean

    percent = (c · Q + F) / (1 + c)

where Q is his percentage in the qualification and F his percentage in the final (as the final totals its
sessions): the qualification weighs ``c`` of the final. ``c = 0``: the final alone; ``c = 1``: both count
alike; ``c = 1/2``: the final counts twice the qualification. The carried column shows ``c · Q``. A finalist
without a qualification result (seeded straight into the final) is ranked on F alone. His matchpoints and maximum
stay those of the final.

**Series table.** Per person the values of the events he played (percent, or master points); the total is the
sum of his best ``k`` values (all of them when ``k`` is not set), so a missed event counts as nothing. Ranked by
the exact total, highest first; equal totals share a rank written ``"3-4"``, listed by more events played, then in the
order the persons were given (the service gives them by name). For the percent measure the mean of the counted values is shown beside the total.

Pure Python, exact fractions, no Django import.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

from preferans.duplicate.standings import Total

__all__ = ["SeriesRow", "carry_over", "carry_share", "series_table"]

P = TypeVar("P", bound=Hashable)
E = TypeVar("E", bound=Hashable)


def carry_share(text: str) -> Fraction:
    """The share carried over, from its exact text (``"1/2"``, ``"0.5"``, ``""`` = 0); ValueError outside 0–1."""
    share = Fraction(text.strip() or "0")
    if not 0 <= share <= 1:
        raise ValueError(f"the share carried over must be from 0 to 1, not {text!r}")
    return share


def carry_over(
    totals: Mapping[int, Total], qualification: Mapping[int, Fraction], share: Fraction
) -> dict[int, Total]:
    """The final's totals with the carry-over: ``qualification`` maps a finalist's number to his qualification
    percentage (finalists without one are left out of it)."""
    if share == 0:
        return dict(totals)
    out: dict[int, Total] = {}
    for number, total in totals.items():
        q = qualification.get(number)
        percent = total.percent if q is None else (share * q + total.percent) / (1 + share)
        out[number] = Total(total.matchpoints, total.max, percent)
    return out


@dataclass(frozen=True)
class SeriesRow(Generic[P, E]):
    """One line of a series table."""

    person: P
    rank: str
    total: Fraction
    values: Mapping[E, Fraction]
    """Every event he played, with its value."""
    counted: frozenset[E]
    """The events whose values make the total (his best ``k``)."""

    @property
    def mean(self) -> Fraction:
        """The mean of the counted values (0 when none)."""
        if not self.counted:
            return Fraction(0)
        return sum((self.values[e] for e in self.counted), Fraction(0)) / len(self.counted)


def series_table(
    results: Iterable[tuple[P, E, Fraction]], events: Sequence[E], best: int | None = None
) -> tuple[SeriesRow[P, E], ...]:
    """The series table from ``(person, event, value)`` triples; ``events`` in the series' order (a later event
    loses a tie between equal values for the best ``k``: the earlier one is counted). ``best``: ``k`` of best
    ``k`` of ``n`` (``None`` or 0: all)."""
    order = {event: i for i, event in enumerate(events)}
    values: dict[P, dict[E, Fraction]] = {}
    for person, event, value in results:
        if event in order:
            values.setdefault(person, {})[event] = value
    lines = []
    for person, played in values.items():
        ranked = sorted(played, key=lambda e: (-played[e], order[e]))
        counted = frozenset(ranked[:best] if best else ranked)
        total = sum((played[e] for e in counted), Fraction(0))
        lines.append((total, person, played, counted))
    lines.sort(key=lambda line: (-line[0], -len(line[2])))  # stable: then the order given
    rows: list[SeriesRow[P, E]] = []
    start = 0
    while start < len(lines):
        end = start
        while end + 1 < len(lines) and lines[end + 1][0] == lines[start][0]:
            end += 1
        rank = str(start + 1) if end == start else f"{start + 1}-{end + 1}"
        for total, person, played, counted in lines[start : end + 1]:
            rows.append(SeriesRow(person, rank, total, played, counted))
        start = end + 1
    return tuple(rows)
