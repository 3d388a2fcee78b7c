"""Who sits out («отдыхает») in each round of a movement, and where each resting participant sits again.

With more participants than seats (13 at three 4-player tables, 10 at three 3-player tables) somebody rests
every round (the seed's «P», пауза). The director must tell him so and tell him where he comes back; every page
and printout that shows the moves (the seating, the dashboard, the hand-over, the table cards, the row of sets)
takes the list from this one function.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Movement, TableSeat


@dataclass(frozen=True)
class Return:
    """Where a resting participant plays again: the first later round in which he is seated."""

    round: int
    room: int
    seat: TableSeat


@dataclass(frozen=True)
class Rest:
    """One participant resting in one round."""

    round: int
    participant: int
    back: Return | None  # None: he is not seated again in this session
    came_from: (
        tuple[int, TableSeat] | None
    )  # (room, seat) of the round before; None in round 1 or after a rest

    @property
    def back_next_round(self) -> bool:
        """He plays the very next round (else he rests again, or the session ends)."""
        return self.back is not None and self.back.round == self.round + 1


def rests(m: Movement) -> dict[int, tuple[Rest, ...]]:
    """Round number -> the participants resting in it (by number), each with his return and his last seat.

    Every round of the movement has an entry (an empty tuple when nobody rests).
    """
    where = [rnd.where() for rnd in m.rounds]
    out: dict[int, tuple[Rest, ...]] = {}
    for i, rnd in enumerate(m.rounds):
        found: list[Rest] = []
        for p in sorted(rnd.resting):
            back = None
            for j in range(i + 1, len(m.rounds)):
                seat = where[j].get(p)
                if seat is not None:
                    back = Return(m.rounds[j].number, seat[0], seat[1])
                    break
            before = where[i - 1].get(p) if i > 0 else None
            found.append(Rest(rnd.number, p, back, before))
        out[rnd.number] = tuple(found)
    return out
