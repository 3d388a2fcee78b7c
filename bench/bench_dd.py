"""Time the double-dummy solver (``preferans.dd.solver``) against the plain reference search (``preferans.dd.reference``:
card-by-card alpha-beta, no table, no equivalent cards, no ordering) on the same positions.

Target (issue 19): a full-deal position (10 cards a hand) solved in well under 10 ms. Run from the project root:

    .venv/bin/python bench/bench_dd.py [--seed 1] [--endings 10] [--deals 30] [--reference-cards 7]

Three parts: random endings of 4 … ``--reference-cards`` cards a hand (both solvers, the answers compared); the
20 shared positions of ``tests/data/dd_positions.json`` (the fast solver on all, the reference on those of at
most ``--reference-cards`` cards; answers checked); random full deals of 10 cards (the fast solver: mean, p95,
max). Exits 1 if any answer disagrees.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from preferans.dd.position import GOALS, Position, parse_position  # noqa: E402
from preferans.dd.reference import solve_reference  # noqa: E402
from preferans.dd.solver import solve  # noqa: E402

TARGET_MS = 10.0


def random_position(rng: random.Random, size: int) -> Position:
    cards = rng.sample(range(32), 3 * size)
    hands = tuple(sum(1 << bit for bit in cards[i * size : (i + 1) * size]) for i in range(3))
    goal = rng.choice(GOALS)
    return Position(
        seats=("N", "E", "S"),
        hands=(hands[0], hands[1], hands[2]),
        trump=-1 if goal == "min" else rng.choice((-1, 0, 1, 2, 3)),
        leader=rng.randrange(3),
        declarer=rng.randrange(3),
        goal=goal,
    )


def timed_ms(solver: object, position: Position) -> tuple[int, float]:
    start = time.perf_counter()
    tricks = solver(position)  # type: ignore[operator]
    return tricks, (time.perf_counter() - start) * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--endings", type=int, default=10, help="random endings per size")
    ap.add_argument("--deals", type=int, default=30, help="random full-deal positions")
    ap.add_argument("--reference-cards", type=int, default=7, help="largest hands the reference solves")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    wrong = 0

    print(f"{'part':<28}{'positions':>10}{'fast ms (mean)':>16}{'reference ms':>14}{'ratio':>8}")
    for size in range(4, args.reference_cards + 1):
        fast: list[float] = []
        slow: list[float] = []
        for _ in range(args.endings):
            position = random_position(rng, size)
            mine, fast_ms = timed_ms(solve, position)
            theirs, slow_ms = timed_ms(solve_reference, position)
            wrong += mine != theirs
            fast.append(fast_ms)
            slow.append(slow_ms)
        mean_fast, mean_slow = statistics.mean(fast), statistics.mean(slow)
        print(
            f"{f'random endings, {size} cards':<28}{len(fast):>10}{mean_fast:>16.2f}{mean_slow:>14.1f}"
            f"{mean_slow / mean_fast:>7.0f}×"
        )

    cases = json.loads((ROOT / "tests" / "data" / "dd_positions.json").read_text("utf-8"))["cases"]
    print("\nshared positions (tests/data/dd_positions.json):")
    print(f"{'#':>3}{'cards':>6}{'tricks':>7}{'fast ms':>10}{'reference ms':>14}")
    for number, case in enumerate(cases, start=1):
        position = parse_position(case["position"], number)
        mine, fast_ms = timed_ms(solve, position)
        wrong += mine != case["tricks"]
        reference = "—"
        if position.tricks_left <= args.reference_cards:
            theirs, slow_ms = timed_ms(solve_reference, position)
            wrong += theirs != case["tricks"]
            reference = f"{slow_ms:.1f}"
        mark = "" if mine == case["tricks"] else f"  WRONG (expected {case['tricks']})"
        print(f"{number:>3}{position.tricks_left:>6}{mine:>7}{fast_ms:>10.2f}{reference:>14}{mark}")

    times = sorted(timed_ms(solve, random_position(rng, 10))[1] for _ in range(args.deals))
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(
        f"\nrandom full deals (10 cards): {len(times)} positions, mean {statistics.mean(times):.1f} ms, "
        f"median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms, max {times[-1]:.1f} ms "
        f"(target: well under {TARGET_MS:.0f} ms)"
    )
    if wrong:
        print(f"{wrong} answer(s) disagree", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
