"""Benchmark: scoring a whole bundle (parse → vists → matchpoints → standings → JSON-able output).

Run from the project root:  ``.venv/bin/python bench/bench_scoring.py [--repeat N] [--seed S]``

Generates events played on the basic movement (T tables × T rounds × 4 boards a set, 4-player Sochi tables,
T prime) with plausible random legal protocol rows — each board has a handful of likely outcomes (a contract
made or down, one whister or two, misère, raspasy), so identical deals repeat as they do in a real event — and
times each stage for about 2k, 4k, 9k and 18k rows. Target (bench/README.md): the 9k-row event scores in
under 1 s on the 2-core reference machine.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from preferans import game as preferans  # noqa: E402
from preferans.bundle.document import load_json, parse_bundle  # noqa: E402
from preferans.duplicate.session_scoring import score_bundle, scored_to_dict  # noqa: E402

SEATS = ("N", "E", "S", "W")
SUITS = ("S", "C", "D", "H", "NT")
TABLE_SIZES = (23, 31, 47, 67)  # primes: 4·T² = 2116, 3844, 8836, 17956 rows


def _clockwise_after(seat: str, skip: str) -> list[str]:
    i = SEATS.index(seat)
    return [s for s in (SEATS[(i + k) % 4] for k in (1, 2, 3)) if s != skip]


def _random_deal(rng: random.Random, dealer: str) -> dict[str, Any]:
    """One plausible protocol row (deal fields only) for a 4-player table with ``dealer`` sitting out."""
    active = _clockwise_after(dealer, dealer)  # first, second, third hand
    kind = rng.choices(["two", "one", "pass", "misere", "raspasy"], weights=[10, 4, 2, 1, 2])[0]
    if kind == "raspasy":
        left = 10 - rng.randint(0, 2)
        first = rng.randint(0, left)
        second = rng.randint(0, left - first)
        third = left - first - second
        return {
            "contract": "-",
            "declarer": [active[0], first],
            "w1": [active[1], second],
            "w2": [active[2], third],
        }
    declarer = rng.choice(active)
    d1, d2 = _clockwise_after(declarer, dealer)
    if kind == "misere":
        taken = rng.choices([0, 1, 2], weights=[6, 3, 1])[0]
        w1 = rng.randint(0, 10 - taken)
        return {
            "contract": "MIS",
            "declarer": [declarer, taken],
            "w1": [d1, w1],
            "w2": [d2, 10 - taken - w1],
            "calls": {},
        }
    level = rng.choices([6, 7, 8, 9, 10], weights=[8, 5, 3, 2, 1])[0]
    contract = f"{level}{rng.choice(SUITS)}"
    if kind == "pass" and level <= 7:
        return {
            "contract": contract,
            "declarer": [declarer, 10],
            "w1": [d1, 0],
            "w2": [d2, 0],
            "calls": {d1: "pass", d2: "pass"},
            "dealer_whist": False,
            "play": "none",
        }
    taken = min(10, max(0, level + rng.choice([-2, -1, 0, 0, 0, 1, 1, 2])))
    w1 = rng.randint(0, 10 - taken)
    calls = {d1: "whist", d2: "whist"} if kind != "one" else {d1: "whist", d2: "pass"}
    return {
        "contract": contract,
        "declarer": [declarer, taken],
        "w1": [d1, w1],
        "w2": [d2, 10 - taken - w1],
        "calls": calls,
        "dealer_whist": False,
        "play": "closed",
    }


def make_event(tables: int, seed: int = 1) -> dict[str, Any]:
    """A basic-movement event: ``tables`` (prime) tables and rounds, 4 boards a set, 4·tables² rows."""
    rng = random.Random(seed)
    rules = preferans.make_rules("sochi")
    per_set = 4
    outcomes: dict[int, list[dict[str, Any]]] = {}
    for board in range(1, tables * per_set + 1):
        dealer = SEATS[(board - 1) % 4]
        candidates: list[dict[str, Any]] = []
        while len(candidates) < rng.randint(3, 8):
            deal = _random_deal(rng, dealer)
            try:
                preferans.score_row(deal, rules=rules, players=4, dealer=dealer)
            except preferans.RowInvalid:
                continue  # the generator aims at legal rows; skip the odd illegal one
            candidates.append(deal)
        outcomes[board] = candidates
    t = tables
    results = []
    for rnd in range(1, t + 1):
        for table in range(1, t + 1):
            board_set = (table - rnd) % t + 1
            seats = {
                "N": table,
                "E": t + (table + rnd) % t + 1,
                "S": 2 * t + (table + 2 * rnd) % t + 1,
                "W": 3 * t + (table - 2 * rnd) % t + 1,
            }
            for k in range(per_set):
                board = (board_set - 1) * per_set + k + 1
                deal = rng.choice(outcomes[board])
                results.append({"board": board, "round": rnd, "table": table, "seats": seats, **deal})
    boards = [{"number": b, "set": (b - 1) // per_set + 1, "dealer": SEATS[(b - 1) % 4]} for b in outcomes]
    return {
        "format": "duplicate-preferans-bundle",
        "version": 1,
        "tournament": {"name": f"Bench {t}", "variant": "sochi", "players_per_table": 4},
        "participants": [{"number": n, "name": f"Игрок {n}"} for n in range(1, 4 * t + 1)],
        "sessions": [
            {
                "number": 1,
                "movement": {"scheme": "basic", "tables": t},
                "boards": boards,
                "results": results,
                "penalties": [{"participant": 1, "matchpoints": "-2", "reason": "12.2.1 lateness"}],
            }
        ],
    }


def _best(repeat: int, fn: Any) -> tuple[float, Any]:
    best, value = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - start)
    return best, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per stage; the best time is shown")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"{'rows':>6} {'decode':>8} {'parse':>8} {'score':>8} {'output':>8} {'encode':>8} "
        f"{'score+output':>13} {'end to end':>11}  (seconds, best of {args.repeat})"
    )
    for tables in TABLE_SIZES:
        event = make_event(tables, args.seed)
        text = json.dumps(event, ensure_ascii=False)
        rows = len(event["sessions"][0]["results"])
        t_decode, data = _best(args.repeat, lambda text=text: load_json(text))
        t_parse, bundle = _best(args.repeat, lambda data=data: parse_bundle(data))
        t_score, scored = _best(args.repeat, lambda bundle=bundle: score_bundle(bundle))
        t_output, output = _best(args.repeat, lambda scored=scored: scored_to_dict(scored))
        t_encode, _ = _best(args.repeat, lambda output=output: json.dumps(output, ensure_ascii=False))
        total = t_decode + t_parse + t_score + t_output + t_encode
        print(
            f"{rows:>6} {t_decode:8.3f} {t_parse:8.3f} {t_score:8.3f} {t_output:8.3f} {t_encode:8.3f} "
            f"{t_score + t_output:13.3f} {total:11.3f}"
        )


if __name__ == "__main__":
    main()
