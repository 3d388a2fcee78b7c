"""Random Swiss events seated by the engine and checked by the checker (issue 28, docs/pairing.md), as FIDE asks
of a pairing engine: a random field, random results giving the ranking, random withdrawals, every round seated by
``preferans.pairing.pair`` and checked by ``preferans.pairing.check`` (pairing-spec §5).

Run from the project root:

    .venv/bin/python bench/pair_swiss.py --events 5000 [--seed 1] [--max-players 24] [--max-rounds 5] [--seconds 2]
    .venv/bin/python bench/pair_swiss.py --timing 16,64,200,500 [--rounds 7] [--seconds 10]

The first form counts violations (must be 0): a seating that is not valid (every active player once, sizes and
byes as pairing §1), R or D reported unlike the checker's own count, or, for a field of at most 12 players, an
(R, D) other than the least found by enumerating every seating (the checker's independent proof); larger fields
are checked for validity and (R, D), and counted as proved or not by the engine. Exits 1 on any violation.
The second form times the rounds of one event of each size (tables of 4 and of 3): per round seconds, R, D and
whether (R, D) is proved least.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from preferans.pairing.check import check  # noqa: E402
from preferans.pairing.enumerate import ENUMERATION_LIMIT  # noqa: E402
from preferans.pairing.simulate import random_event  # noqa: E402


def violations(events: int, seed: int, max_players: int, max_rounds: int, seconds: float) -> int:
    rng = random.Random(seed)
    bad = rounds = enumerated = proved = 0
    times: list[float] = []
    started = time.monotonic()
    for event in range(events):
        players, per_table = rng.randint(3, max_players), rng.choice([3, 4])
        stream = random_event(
            rng, players, rng.randint(1, max_rounds), per_table, withdraw=0.05, seconds=seconds
        )
        while True:
            t0 = time.monotonic()
            try:
                data, seating = next(stream)
            except StopIteration:
                break
            times.append(time.monotonic() - t0)
            small = len(data.players) <= ENUMERATION_LIMIT
            least = None if small else (seating.repeats, seating.displacement)  # larger: validity and (R, D)
            result = check(
                "swiss", data.per_table, data.players, data.history, seating.tables, seating.byes, least=least
            )
            rounds += 1
            enumerated += small
            proved += seating.optimal
            counted = (result.repeats, result.displacement) == (seating.repeats, seating.displacement)
            if not (result.valid and counted and result.correct and (seating.optimal or not small)):
                bad += 1
                print(f"VIOLATION event {event}: {data} -> {seating}: {result}")
        if (event + 1) % 500 == 0:
            print(
                f"{event + 1} events, {rounds} rounds, {bad} violations, {time.monotonic() - started:.0f} s",
                flush=True,
            )
    ordered = sorted(times)
    print(
        f"events {events}, rounds {rounds} ({enumerated} proved by the checker's enumeration, {rounds - enumerated} "
        f"checked for validity and (R, D)); engine proved least: {proved}/{rounds}; violations: {bad}"
    )
    print(
        f"seconds a round: mean {statistics.mean(ordered):.3f}, median {ordered[len(ordered) // 2]:.3f}, "
        f"p95 {ordered[int(0.95 * (len(ordered) - 1))]:.3f}, max {ordered[-1]:.2f}; total {time.monotonic() - started:.0f} s"
    )
    return bad


def timing(sizes: list[int], rounds: int, seconds: float, seed: int) -> None:
    for players in sizes:
        for per_table in (4, 3):
            rng = random.Random(seed)
            cells = []
            t0 = time.monotonic()
            for _data, seating in random_event(
                rng, players, rounds, per_table, withdraw=0.0, seconds=seconds
            ):
                elapsed = time.monotonic() - t0
                cells.append(
                    f"{elapsed:.2f}s R{seating.repeats} D{seating.displacement}{'' if seating.optimal else '?'}"
                )
                t0 = time.monotonic()
            print(f"{players:>5} players, tables of {per_table}: " + " | ".join(cells[1:]), flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--events", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-players", type=int, default=24)
    ap.add_argument("--max-rounds", type=int, default=5)
    ap.add_argument("--seconds", type=float, default=None, help="the engine's time limit a round")
    ap.add_argument("--timing", default="", help="comma-separated field sizes, e.g. 16,64,200,500")
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    if args.timing:
        timing([int(x) for x in args.timing.split(",")], args.rounds, args.seconds or 10.0, args.seed)
    if args.events:
        return (
            1
            if violations(args.events, args.seed, args.max_players, args.max_rounds, args.seconds or 2.0)
            else 0
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
