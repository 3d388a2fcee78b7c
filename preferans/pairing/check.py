"""The checker (pairing §5): is a seating valid (every active player once, sizes and byes as §1), its R and D,
the least (R, D), and whether it is correct. The least is found by plain enumeration for fields of at most
``ENUMERATION_LIMIT`` players (independent of the solver), else by :func:`pair` (proved, or the best known)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .enumerate import ENUMERATION_LIMIT, least_by_enumeration
from .measure import met_pairs, repeats, shift
from .pair import DEFAULT_SECONDS, Form, build_problem, pair
from .sizes import intervals, split_tables

__all__ = ["Check", "check"]


@dataclass(frozen=True)
class Check:
    valid: bool
    problems: tuple[str, ...]
    repeats: int
    displacement: int
    least: tuple[int, int]
    least_proved: bool

    @property
    def correct(self) -> bool:
        return self.valid and (self.repeats, self.displacement) == self.least


def _problems(
    players: Sequence[str], per_table: int, tables: Sequence[Sequence[str]], byes: Sequence[str]
) -> list[str]:
    sizes, bye_count = split_tables(len(players), per_table)
    known = set(players)
    problems: list[str] = []
    seen = Counter(p for table in tables for p in table) + Counter(byes)
    for p in sorted(seen):
        if p not in known:
            problems.append(f"{p} is not an active player")
        elif seen[p] > 1:
            problems.append(f"{p} is placed {seen[p]} times")
    missing = [p for p in players if p not in seen]
    if missing:
        problems.append("not placed: " + ", ".join(missing))
    if len(tables) != len(sizes):
        problems.append(f"{len(tables)} tables where pairing §1 gives {len(sizes)}")
    for k, table in enumerate(tables):
        if k < len(sizes) and len(table) != sizes[k]:
            problems.append(f"table {k + 1} holds {len(table)} players where pairing §1 gives {sizes[k]}")
    due = list(players[len(players) - bye_count :])
    if sorted(byes) != sorted(due):
        problems.append("the byes must be the lowest-ranked: " + (", ".join(due) or "nobody"))
    return problems


def check(
    form: Form | str,
    per_table: int,
    players: Sequence[str],
    history: Sequence[Sequence[Sequence[str]]],
    tables: Sequence[Sequence[str]],
    byes: Sequence[str],
    time_limit: float = DEFAULT_SECONDS,
    least: tuple[int, int] | None = None,
) -> Check:
    """Check ``tables`` and ``byes`` for the round of ``players`` (ranking order) after ``history``. ``least``:
    the best known (R, D) when the caller has it (a field above the enumeration limit is then not searched)."""
    form = Form(form)
    problems = _problems(players, per_table, tables, byes)
    sizes, bye_count = split_tables(len(players), per_table)
    spans = intervals(sizes)
    rank = {p: i for i, p in enumerate(players)}
    met = met_pairs(history)
    r = repeats(tables, met)
    d = sum(
        shift(rank[p], spans[k]) for k, table in enumerate(tables[: len(spans)]) for p in table if p in rank
    )
    seated = list(players[: len(players) - bye_count])
    if form is Form.COMPENSATION:  # the book's tables: every player at his own (D = 0)
        book = [seated[a : b + 1] for a, b in spans]
        return Check(not problems, tuple(problems), r, d, (repeats(book, met), 0), True)
    if len(seated) <= ENUMERATION_LIMIT:
        least = least_by_enumeration(build_problem(seated, sizes, history))
        proved = True
    elif least is not None:
        proved = False
    else:
        best = pair(form, per_table, players, history, 0, time_limit)
        least, proved = (best.repeats, best.displacement), best.optimal
    if not problems and not proved and (r, d) < least:
        least = (r, d)  # the seating checked is better than the best known: it is the best known now
    return Check(not problems, tuple(problems), r, d, least, proved)
