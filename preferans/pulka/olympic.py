"""The Olympic bracket by the book (004-II; pulka §10.1): round by round, who plays, at which tables, who goes on.

«Победитель пули (или еще и второй игрок, по регламенту) проходит в следующий круг соревнований. Остальные игроки
выбывают. … В последнем туре остается единственный стол, за которым и разыгрываются призы.»

Only the table winners (or the first two, by the regulation's advance for the round) go on; nobody who is out
comes back. A round whose players going on cannot be seated at tables of 3 or 4 (2 players, or 5) is flagged
with the reason and what the director can do: set the round's advance to 2 (or 1), or decide to send on the
next-placed player at some tables (a recorded decision). Refilling with the best losers ("lucky losers") or giving
byes is not from the book: only an explicit option of the regulation (:func:`refill`, ties by lot).

Pure Python: no Django import.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from .forms import split_tables

__all__ = [
    "Bracket",
    "BracketRound",
    "Problem",
    "bracket",
    "extra_needed",
    "going_on",
    "refill",
    "seatable",
    "unseatable",
]

P = TypeVar("P", bound=Hashable)
MAX_ROUNDS = 64  # every round halves the field at least: a bracket of 2**64 players fits


def seatable(players: int) -> bool:
    """``players`` sit at tables of 3 or 4 with nobody left over (every number but 1, 2 and 5)."""
    return players >= 3 and split_tables(players, 3)[1] == 0


@dataclass(frozen=True)
class Problem:
    """Why ``players`` cannot be seated, as a stable code with its parameters and an English sentence."""

    code: str  # "too_few" (2 players: no table of 3) or "five" (5: one table is too small, two too big)
    players: int
    text: str


def unseatable(players: int) -> Problem | None:
    """The reason ``players`` (more than one) cannot sit at tables of 3–4, or None when they can."""
    if players <= 1 or seatable(players):
        return None
    if players < 3:
        return Problem("too_few", players, f"{players} players cannot make a table of 3 or 4")
    return Problem("five", players, f"{players} players do not divide into tables of 3 and 4")


def extra_needed(going: int, tables: int) -> int | None:
    """The fewest next-placed players (at most one a table) the director must also send on so that ``going``
    plus them can be seated; None when even one from every table is not enough."""
    for extra in range(1, tables + 1):
        if seatable(going + extra):
            return extra
    return None


def going_on(tables: Sequence[int], advance: int, extra: int = 0) -> int:
    """How many go on from a round: ``advance`` (1 or 2) from every table, plus ``extra`` sent on by the
    director; nobody from the final (one table)."""
    if advance not in (1, 2):
        raise ValueError(f"advance is 1 or 2, not {advance}")
    if len(tables) <= 1:
        return 0
    return advance * len(tables) + extra


@dataclass(frozen=True)
class BracketRound:
    """One round of the bracket. ``problem``: the players going on cannot be seated; ``fix_advance``: what
    going on would be with the other advance (when that can be seated); ``extra``: the fewest next-placed
    players a decision of the director must send on (the bracket assumes it for the rounds that follow)."""

    number: int
    players: int
    tables: tuple[int, ...]  # table sizes, 3 or 4
    advance: int
    going_on: int  # 0 at the final
    problem: Problem | None = None
    fix_advance: int | None = None  # the other advance (1 or 2) that seats the winners
    fix_going_on: int | None = None
    extra: int | None = None

    @property
    def final(self) -> bool:
        return len(self.tables) == 1


@dataclass(frozen=True)
class Bracket:
    """The rounds a field makes, from ``first`` on; ``field_problem``: the field itself cannot be seated."""

    rounds: tuple[BracketRound, ...]
    field_problem: Problem | None = None

    @property
    def flagged(self) -> tuple[int, ...]:
        """The numbers of the rounds whose players going on cannot be seated."""
        return tuple(r.number for r in self.rounds if r.problem is not None)


def bracket(
    players: int,
    per_table: int,
    advance: Callable[[int], int] | int = 1,
    *,
    first: int = 1,
    decided: Mapping[int, int] | None = None,
) -> Bracket:
    """The bracket ``players`` make at tables of ``per_table`` (sizes by :func:`split_tables`), round ``first``
    on, ``advance(round)`` going on from each table, plus ``decided[round]`` second-placed players sent on by
    decisions of the director. A round whose players going on cannot be seated is flagged with its fixes; the
    rounds after it assume the director sent on the fewest extra players."""
    advance_of = advance if callable(advance) else (lambda _n, k=advance: k)
    problem = unseatable(players)
    if problem is not None or players <= 1:
        return Bracket((), problem)
    rounds: list[BracketRound] = []
    number = first
    while len(rounds) < MAX_ROUNDS:
        sizes, _byes = split_tables(players, per_table)
        k = advance_of(number)
        going = going_on(sizes, k, (decided or {}).get(number, 0))
        problem = unseatable(going) if going else None
        fix_k = fix_going = extra = None
        if problem is not None:
            other = 2 if k == 1 else 1
            if seatable(going_on(sizes, other)):
                fix_k, fix_going = other, going_on(sizes, other)
            extra = extra_needed(going, len(sizes))
        rounds.append(BracketRound(number, players, tuple(sizes), k, going, problem, fix_k, fix_going, extra))
        if len(sizes) <= 1:
            break
        players = going + (extra or 0) if problem is not None else going
        number += 1
    return Bracket(tuple(rounds))


def refill(advancing: Sequence[P], others: Mapping[P, Fraction], needed: int, rng: random.Random) -> list[P]:
    """Not from the book, only as an explicit option of the regulation: when fewer than ``needed`` go on, the
    best of the rest by their round rating fill the places; equal ratings in an order drawn by ``rng`` (seeded
    and recorded by the caller), never by table number."""
    missing = needed - len(advancing)
    if missing <= 0:
        return []
    pool = [p for p in others if p not in set(advancing)]
    rng.shuffle(pool)  # the lot among equal ratings: the stable sort keeps it
    pool.sort(key=lambda p: -others[p])
    return pool[:missing]
