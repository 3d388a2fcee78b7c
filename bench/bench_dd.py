"""Time the double-dummy search: the compiled kernel (``preferans.dd.kernel``, numba) and the Python solver
(``preferans.dd.solver``) against the plain reference search (``preferans.dd.reference``: card-by-card alpha-beta,
no table, no equivalent cards, no ordering) on the same positions; then whole boards and a 188-board event.

Targets (issue 19), on the 2-core machine: a full-deal position in well under 10 ms; a whole board (3 declarers ×
5 strains + misère, each after the best discard) under 1 s; the 188 boards of an event in under 3 minutes with one
task per board. Run from the project root:

    .venv/bin/python bench/bench_dd.py [--seed 1] [--endings 10] [--deals 40] [--reference-cards 7]
                                       [--boards 30] [--event 188] [--workers 2]

Parts: random endings of 4 … ``--reference-cards`` cards a hand (kernel, Python solver and reference; answers
compared); the 20 shared positions (all three where the reference can); random full deals of 10 cards, trick
contracts and misères apart (kernel with a cold table per deal, and the Python solver; answers compared); whole
random boards (kernel); an event of ``--event`` boards analysed by ``--workers`` processes, as Celery workers would.
Exits 1 if any answer disagrees. The kernel's compilation (first run of a checkout, a few seconds) is done
before timing and reported apart.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from preferans.cards.deck import DECK, format_hand  # noqa: E402
from preferans.dd import kernel  # noqa: E402
from preferans.dd.board import analyse_board, parse_boards  # noqa: E402
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


def solve_kernel(position: Position) -> int:
    return solve(position, kernel.KernelSearch(position.trump, position.declarer, position.goal))


def solve_kernel_cold(position: Position) -> int:
    kernel.clear_table()
    return solve_kernel(position)


def random_board(rng: random.Random, number: int) -> dict[str, object]:
    cards = list(DECK)
    rng.shuffle(cards)
    players = 4 if number % 2 else 3
    dealer = rng.choice("NESW" if players == 4 else "NES")
    seats = [s for s in "NESW" if s != dealer] if players == 4 else ["N", "E", "S"]
    return {
        "number": number,
        "dealer": dealer,
        "players": players,
        "hands": {s: format_hand(cards[10 * i : 10 * i + 10]) for i, s in enumerate(seats)},
        "prikup": [c.notation for c in cards[30:]],
    }


def analyse_one(board: dict[str, object]) -> float:
    """One task's work: analyse one board (kernel), return its seconds."""
    start = time.perf_counter()
    analyse_board(parse_boards([board])[0], kernel.KernelSearch)
    return time.perf_counter() - start


def stats(times: list[float]) -> str:
    times = sorted(times)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    return f"mean {statistics.mean(times):.2f}, median {statistics.median(times):.2f}, p95 {p95:.2f}, max {times[-1]:.2f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--endings", type=int, default=10, help="random endings per size")
    ap.add_argument("--deals", type=int, default=40, help="random full-deal positions")
    ap.add_argument("--boards", type=int, default=30, help="random whole boards")
    ap.add_argument("--event", type=int, default=188, help="boards of the event run by --workers processes")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--reference-cards", type=int, default=7, help="largest hands the reference solves")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    wrong = 0
    start = time.perf_counter()
    solve_kernel(random_position(rng, 2))
    print(f"kernel ready (compiled or loaded from its cache) in {time.perf_counter() - start:.2f} s\n")

    print(f"{'part':<28}{'positions':>10}{'kernel ms':>11}{'python ms':>11}{'reference ms':>14}{'ratio':>8}")
    for size in range(4, args.reference_cards + 1):
        compiled: list[float] = []
        fast: list[float] = []
        slow: list[float] = []
        for _ in range(args.endings):
            position = random_position(rng, size)
            ours, kernel_ms = timed_ms(solve_kernel_cold, position)
            mine, fast_ms = timed_ms(solve, position)
            theirs, slow_ms = timed_ms(solve_reference, position)
            wrong += (mine != theirs) + (ours != theirs)
            compiled.append(kernel_ms)
            fast.append(fast_ms)
            slow.append(slow_ms)
        mean_kernel, mean_fast, mean_slow = (
            statistics.mean(compiled),
            statistics.mean(fast),
            statistics.mean(slow),
        )
        print(
            f"{f'random endings, {size} cards':<28}{len(fast):>10}{mean_kernel:>11.2f}{mean_fast:>11.2f}"
            f"{mean_slow:>14.1f}{mean_slow / mean_kernel:>7.0f}×"
        )

    cases = json.loads((ROOT / "tests" / "data" / "dd_positions.json").read_text("utf-8"))["cases"]
    print("\nshared positions (tests/data/dd_positions.json):")
    print(f"{'#':>3}{'cards':>6}{'tricks':>7}{'kernel ms':>10}{'python ms':>10}{'reference ms':>14}")
    for number, case in enumerate(cases, start=1):
        position = parse_position(case["position"], number)
        ours, kernel_ms = timed_ms(solve_kernel_cold, position)
        mine, fast_ms = timed_ms(solve, position)
        wrong += (mine != case["tricks"]) + (ours != case["tricks"])
        reference = "—"
        if position.tricks_left <= args.reference_cards:
            theirs, slow_ms = timed_ms(solve_reference, position)
            wrong += theirs != case["tricks"]
            reference = f"{slow_ms:.1f}"
        mark = "" if mine == case["tricks"] else f"  WRONG (expected {case['tricks']})"
        print(
            f"{number:>3}{position.tricks_left:>6}{mine:>7}{kernel_ms:>10.2f}{fast_ms:>10.2f}{reference:>14}{mark}"
        )

    print(f"\nrandom full deals (10 cards), ms (target: well under {TARGET_MS:.0f} ms):")
    every: list[float] = []
    for goal in GOALS:
        compiled, fast = [], []
        for _ in range(args.deals // 2):
            position = random_position(rng, 10)
            while position.goal != goal:
                position = random_position(rng, 10)
            ours, kernel_ms = timed_ms(solve_kernel_cold, position)
            mine, fast_ms = timed_ms(solve, position)
            wrong += ours != mine
            compiled.append(kernel_ms)
            fast.append(fast_ms)
        every += compiled
        name = "trick contracts" if goal == "max" else "misères"
        print(f"  {name:<16} kernel {stats(compiled)};  python {stats(fast)}")
    print(f"  {'all':<16} kernel {stats(every)}")

    boards = [random_board(rng, n) for n in range(1, args.boards + 1)]
    times = []
    for board in boards:
        kernel.clear_table()
        times.append(analyse_one(board))
    print(
        f"\nwhole boards (3 declarers x S C D H NT + misère, best discards), s: {len(times)} boards, {stats(times)}"
        " (target: under 1 s)"
    )

    if not args.event:
        return 1 if wrong else 0
    event = [random_board(rng, n) for n in range(1, args.event + 1)]
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(args.workers) as pool:
        each = pool.map(analyse_one, event, chunksize=1)
    wall = time.perf_counter() - start
    print(
        f"event of {len(event)} boards, one task per board on {args.workers} processes: {wall:.1f} s wall "
        f"(target: under 180 s); per board {stats(each)}"
    )
    if wrong:
        print(f"{wrong} answer(s) disagree", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
