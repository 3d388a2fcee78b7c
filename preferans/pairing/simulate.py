"""A random Swiss event (as FIDE asks of a pairing engine): a random field, random results giving the running
ranking, withdrawals, every round seated by :func:`pair`. The bench and the property test check each round."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from .pair import Pairing, pair

__all__ = ["RoundInput", "random_event"]


@dataclass(frozen=True)
class RoundInput:
    per_table: int
    players: list[str]  # in ranking order
    history: list[list[list[str]]]
    seed: int


def random_event(
    rng: random.Random,
    players: int,
    rounds: int,
    per_table: int,
    withdraw: float = 0.05,
    seconds: float = 5.0,
) -> Iterator[tuple[RoundInput, Pairing[str]]]:
    """Each round's input and the engine's seating: results are random scores per table (the ranking is the total,
    ties by the field's order); a player withdraws before a round with probability ``withdraw``."""
    field = [f"p{i}" for i in range(players)]
    rng.shuffle(field)
    score = {p: 0 for p in field}
    history: list[list[list[str]]] = []
    active = list(field)
    for _round in range(rounds):
        active = [p for p in active if rng.random() >= withdraw]
        if len(active) < 3:
            return
        ranked = sorted(active, key=lambda p: (-score[p], field.index(p)))
        data = RoundInput(per_table, ranked, [list(map(list, r)) for r in history], rng.randrange(2**32))
        seating = pair("swiss", per_table, ranked, history, data.seed, seconds)
        yield data, seating
        for table in seating.tables:
            for p in table:
                score[p] += rng.randrange(-10, 11)
        history.append([list(t) for t in seating.tables])
