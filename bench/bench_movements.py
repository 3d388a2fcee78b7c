"""Time the movement planner (``manage.py movement --scheme auto``) for N = 6…200 participants.

Target (issue 4): every N answers in under 10 s. Run from the project root:

    .venv/bin/python bench/bench_movements.py [--low 6] [--high 200] [--per-table 3|4]

Prints one line per N (time, chosen scheme and shape) and the slowest N; exits 1 if any N misses the target or
returns a plan that fails the validator.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from preferans.movements import MovementError, plan, validate  # noqa: E402

TARGET_SECONDS = 10.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--low", type=int, default=6)
    ap.add_argument("--high", type=int, default=200)
    ap.add_argument("--per-table", type=int, choices=[3, 4], default=None)
    args = ap.parse_args()
    timings: list[tuple[float, int]] = []
    failed = False
    start_all = time.perf_counter()
    for n in range(args.low, args.high + 1):
        start = time.perf_counter()
        try:
            result = plan(n, per_table=args.per_table)
        except MovementError as exc:
            elapsed = time.perf_counter() - start
            timings.append((elapsed, n))
            print(f"N={n:>3}  {elapsed:6.3f}s  cannot seat: {exc}")
            failed |= args.per_table is None or elapsed >= TARGET_SECONDS
            continue
        elapsed = time.perf_counter() - start
        ok = validate(result.movement).ok
        m = result.movement
        timings.append((elapsed, n))
        shape = f"{m.rooms}×{m.tables}×{m.per_table}, {len(m.rounds)} rounds"
        print(f"N={n:>3}  {elapsed:6.3f}s  {m.scheme:<7} {shape}{'' if ok else '  INVALID'}")
        failed |= not ok or elapsed >= TARGET_SECONDS
    total = time.perf_counter() - start_all
    slowest = sorted(timings, reverse=True)[:5]
    print(f"\ntotal {total:.1f}s for {len(timings)} values of N")
    print("slowest: " + ", ".join(f"N={n} {t:.3f}s" for t, n in slowest))
    print(f"target: every N under {TARGET_SECONDS:.0f} s — {'FAILED' if failed else 'met'}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
