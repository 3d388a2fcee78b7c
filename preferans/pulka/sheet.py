"""The pulka sheet and how one deal is written on it (pulka §3–§5, Code 4.2.1–4.2.6).

For every player the sheet holds the pool P, the mountain M, the whists W[i][j] written by i on j and, with
compensation, the extra column C. Everything is cumulative and whole. :meth:`Sheet.write_pool` applies the pool
cap and help of Sochi and Rostov (Code 4.2.3, 4.1.1) or writes in full (Leningrad, 4.2.3.3).
Pure Python: no Django import.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["Help", "PlayerSheet", "Sheet"]

ZERO = Fraction(0)


@dataclass(frozen=True)
class Help:
    """A pool point written «в помощь»: ``helper`` gave ``amount`` pool points to ``helped`` (10 whists each),
    or, with ``helped`` None, wrote them off his own mountain (P-3)."""

    helper: str
    helped: str | None
    amount: Fraction


@dataclass(frozen=True)
class PlayerSheet:
    """One player's columns at one moment (formats §7.2 ``sheet``)."""

    pool: Fraction
    mountain: Fraction
    whists: Mapping[str, Fraction]  # on each other player
    column: Fraction = ZERO


class Sheet:
    """The mutable sheet of one table, seats clockwise."""

    def __init__(self, seats: tuple[str, ...]) -> None:
        self.seats = seats
        self.pool: dict[str, Fraction] = {s: ZERO for s in seats}
        self.mountain: dict[str, Fraction] = {s: ZERO for s in seats}
        self.whists: dict[str, dict[str, Fraction]] = {s: {o: ZERO for o in seats if o != s} for s in seats}
        self.column: dict[str, Fraction] = {s: ZERO for s in seats}

    def copy(self) -> Sheet:
        other = Sheet(self.seats)
        other.pool = dict(self.pool)
        other.mountain = dict(self.mountain)
        other.whists = {s: dict(w) for s, w in self.whists.items()}
        other.column = dict(self.column)
        return other

    def snapshot(self) -> dict[str, PlayerSheet]:
        return {
            s: PlayerSheet(self.pool[s], self.mountain[s], dict(self.whists[s]), self.column[s])
            for s in self.seats
        }

    def add_whist(self, writer: str, debtor: str, amount: Fraction) -> None:
        self.whists[writer][debtor] += amount

    def clockwise_from(self, seat: str) -> tuple[str, ...]:
        """The other players, starting with the one on ``seat``'s left."""
        i = self.seats.index(seat)
        n = len(self.seats)
        return tuple(self.seats[(i + k) % n] for k in range(1, n))

    def write_pool(self, seat: str, amount: Fraction, *, target: int | None) -> list[Help]:
        """Write a pool entry. ``target`` None writes it in full (Leningrad); otherwise the pool is capped at the
        target and the rest helps the open pools, largest first, ties to the nearest on the left, 10 whists a
        point; when every other pool is full the rest comes off the writer's mountain (Code 4.2.3, 4.1.1;
        P-2, P-3, P-5)."""
        if target is None or amount <= 0:
            self.pool[seat] += amount
            return []
        own = min(amount, max(ZERO, target - self.pool[seat]))
        self.pool[seat] += own
        rest = amount - own
        helps: list[Help] = []
        while rest > 0:
            candidates = [o for o in self.clockwise_from(seat) if self.pool[o] < target]
            if not candidates:
                self.mountain[seat] -= rest
                helps.append(Help(seat, None, rest))
                break
            largest = max(self.pool[o] for o in candidates)
            helped = next(o for o in candidates if self.pool[o] == largest)
            given = min(rest, target - self.pool[helped])
            self.pool[helped] += given
            self.add_whist(seat, helped, 10 * given)
            helps.append(Help(seat, helped, given))
            rest -= given
        return helps

    def settle(self, closing: Mapping[str, Fraction]) -> dict[str, Fraction]:
        """Code 4.2.14 Variant 2 with the closing entries written: 10·(mean M − M_i) + Σ_j (W_ij − W_ji)."""
        mountain = {s: self.mountain[s] + closing[s] for s in self.seats}
        mean = sum(mountain.values(), ZERO) / len(self.seats)
        return {
            s: 10 * (mean - mountain[s])
            + sum((self.whists[s][o] - self.whists[o][s] for o in self.seats if o != s), ZERO)
            for s in self.seats
        }

    def settle_by_amnesty(self, closing: Mapping[str, Fraction]) -> dict[str, Fraction]:
        """Code 4.2.14 Variant 1: the smallest mountain goes to zero, each mountain ×10/n is written by every
        other player on its owner, then the whists are compared."""
        n = len(self.seats)
        mountain = {s: self.mountain[s] + closing[s] for s in self.seats}
        least = min(mountain.values())
        whists = {s: dict(w) for s, w in self.whists.items()}
        for owner in self.seats:
            share = 10 * (mountain[owner] - least) / n
            for other in self.seats:
                if other != owner:
                    whists[other][owner] += share
        return {s: sum((whists[s][o] - whists[o][s] for o in self.seats if o != s), ZERO) for s in self.seats}
