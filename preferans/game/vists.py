"""Ledger → vists per participant (spec §3.2, DECISION D-C1).

    M'_i    = M_i − λ·P_i
    vists_i = 10·(mean_k M'_k − M'_i) + Σ_j (W_ij − W_ji)        mean over ALL n participants

The result is exact (D-C2) and sums to zero identically. Pure Python: no Django import.
"""

from __future__ import annotations

from fractions import Fraction

from .ledger import Ledger

__all__ = ["ledger_to_vists"]


def ledger_to_vists(ledger: Ledger, *, pool_weight: Fraction) -> dict[str, Fraction]:
    """Vists of every participant of ``ledger`` (the 4-player dealer included), in seat order."""
    seats = ledger.participants
    net = {
        seat: ledger.mountain.get(seat, Fraction(0)) - pool_weight * ledger.pool.get(seat, Fraction(0))
        for seat in seats
    }
    mean = sum(net.values(), Fraction(0)) / len(seats)
    vists = {seat: 10 * (mean - net[seat]) for seat in seats}
    for (writer, debtor), amount in ledger.whists.items():
        vists[writer] += amount
        vists[debtor] -= amount
    return vists
