"""The one entry point of the seating (pairing §1–§4), called by the product's draws and by ``pair_round``."""

from __future__ import annotations

import random
import time
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, TypeVar

from .enumerate import ENUMERATION_LIMIT, least_seating
from .problem import Problem
from .search import improve
from .sizes import book_tables, split_tables
from .solver import solve

__all__ = ["Form", "Pairing", "build_problem", "pair"]

P = TypeVar("P", bound=Hashable)

DEFAULT_SECONDS = 10.0


class Form(StrEnum):
    COMPENSATION = "compensation"  # 004 Part III: every player at his book table
    SWISS = "swiss"  # clubs and online servers: least repeats, then least displacement


@dataclass(frozen=True)
class Pairing(Generic[P]):
    """Tables (table 1 first, each in seat order N, E, S(, W)), byes, R, D, and whether (R, D) is proved least."""

    tables: tuple[tuple[P, ...], ...]
    byes: tuple[P, ...]
    repeats: int
    displacement: int
    optimal: bool


def build_problem(seated: Sequence[P], sizes: list[int], history: Iterable[Iterable[Iterable[P]]]) -> Problem:
    """The numbers of pairing §4: ranks of the seated players and who of them met whom."""
    rank = {p: i for i, p in enumerate(seated)}
    met: list[set[int]] = [set() for _ in seated]
    rounds: list[list[list[int]]] = []
    for round_ in history:
        cliques: list[list[int]] = []
        for table in round_:
            ranks = sorted({rank[p] for p in table if p in rank})
            for i in ranks:
                met[i].update(j for j in ranks if j != i)
            if len(ranks) > 1:
                cliques.append(ranks)
        rounds.append(cliques)
    return Problem(sizes, met, rounds)


def pair(
    form: Form | str,
    per_table: int,
    players: Sequence[P],
    history: Iterable[Iterable[Iterable[P]]] = (),
    seed: int = 0,
    time_limit: float = DEFAULT_SECONDS,
) -> Pairing[P]:
    """Seat the next round. ``players`` in ranking order, best first; ``history`` the earlier rounds' tables;
    ``seed`` draws the seats at each table; ``time_limit`` bounds the Swiss search (seconds)."""
    form = Form(form)
    sizes, bye_count = split_tables(len(players), per_table)
    seated = list(players[: len(players) - bye_count])
    byes = tuple(players[len(players) - bye_count :])
    problem = build_problem(seated, sizes, history)
    seat = book_tables(sizes)
    optimal = True
    if form is Form.SWISS and problem.cost(seat)[0] > 0 and len(seated) <= ENUMERATION_LIMIT:
        seat = least_seating(problem)[1]  # a small field: every seating looked at (at most 34,650)
    elif form is Form.SWISS and problem.cost(seat)[0] > 0:
        started = time.monotonic()
        seat = improve(problem, started + time_limit * 0.2)
        if problem.cost(seat)[0] > 0 or problem.cost(seat)[1] > 0:
            solved = solve(problem, seat, time_limit - (time.monotonic() - started))
            seat, optimal = solved.seat, solved.proved
    r, d = problem.cost(seat)
    rng = random.Random(seed)
    members: list[list[P]] = [[] for _ in sizes]
    for p, k in enumerate(seat):
        members[k].append(seated[p])
    tables: list[tuple[P, ...]] = []
    for table in members:
        rng.shuffle(table)  # seats at a table by lot (pairing §3, §4)
        tables.append(tuple(table))
    return Pairing(tuple(tables), byes, r, d, optimal)
