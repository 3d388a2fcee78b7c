"""Benchmark: a Swiss pulka event from the database — 200 players, 7 rounds, ≈ 30 deals at each of 50 tables.

    .venv/bin/python bench/pulka_swiss.py [--players 200] [--rounds 7] [--deals 30] [--pool 50] [--profile]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/pulka_swiss.py

Creates a throw-away database ``bench_pulka`` beside the one DATABASE_URL names (SQLite: a temporary file), the
event through ``pulkas.services.event.pulka_event_create`` (Swiss, tables of 4, pool ``--pool``, deal limit
``--deals``: nearly every pulka lasts exactly that many deals) and its players through
``participants_import``. Then, for every round:

* ``draw``      — ``rounds.draw_round``: round 1 by lot; from round 2 the Swiss seating (the least repeated
  meetings, then the least displacement from the tournament rating, read from the database by
  ``standings.event_table``; ``preferans.pairing``), tables created and their caches written;
* ``enter``     — every deal of every table through the one write path, ``sheet.enter_deal`` (N writes, E, S, W
  confirm on the same device), in the order they would arrive: deal 1 at every table, then deal 2, …; each
  call is timed (the rows are drawn beforehand by ``preferans.pulka.simulate.random_pulka``, not timed);
* ``end``       — ``rounds.stop_round`` (the time limit; a no-op when every pulka reached its limit) and
  ``rounds.end_round``;
* ``standings`` — ``standings.event_table``: the rating table after the round.

Prints one line per round (seconds and database queries per phase, per-deal latency: mean, p95, max) and the
totals. ``--profile`` runs cProfile around each phase and prints the top functions of each (timings are then
inflated). Targets (bench/README.md): a draw (re-seating) under 2 s; a deal scored in under 100 ms at p95, so
a deal written at all 50 tables at once is scored within 5 s; end + standings under 2 s.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import io
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PHASES = ("draw", "enter", "end", "standings")


@dataclass
class Phase:
    seconds: float = 0.0
    queries: int = 0
    db: float = 0.0  # seconds inside the database driver's execute (SQLite: without the commit)


@dataclass
class RoundStats:
    number: int
    drawn_by: str
    tables: int
    byes: int
    deals: int = 0
    phases: dict[str, Phase] = field(default_factory=lambda: {p: Phase() for p in PHASES})
    latencies: list[float] = field(default_factory=list)  # seconds per enter_deal call
    by_number: dict[int, list[float]] = field(default_factory=dict)  # deal number → latencies

    def per_deal(self) -> tuple[float, float, float]:
        """Mean, p95 and max seconds of one enter_deal."""
        if not self.latencies:
            return 0.0, 0.0, 0.0
        ordered = sorted(self.latencies)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        return statistics.fmean(ordered), p95, ordered[-1]


def statement_kind(sql: str) -> str:
    """``SELECT pulkas_pulkadeal``: the verb and the table a statement reads or writes."""
    words = sql.replace('"', " ").split()
    verb = words[0].upper() if words else "?"
    marker = {"INSERT": "INTO", "UPDATE": "UPDATE", "DELETE": "FROM", "SELECT": "FROM"}.get(verb)
    if marker in words[:-1]:
        return f"{verb} {words[words.index(marker) + 1]}"
    return verb


class Meter:
    """Wall time and the number of SQL statements of a phase (Django's execute_wrapper: no debug cursor); with
    ``profile``, a cProfile per phase and the database time per kind of statement and phase."""

    def __init__(self, profile: bool) -> None:
        self.queries = 0
        self.db = 0.0
        self.current = ""
        self.profiles: dict[str, cProfile.Profile] | None = (
            {p: cProfile.Profile() for p in PHASES} if profile else None
        )
        self.sql: dict[tuple[str, str], list[float]] = {}  # (phase, kind) → [count, seconds]

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        self.queries += 1
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            elapsed = time.perf_counter() - start
            self.db += elapsed
            if self.profiles is not None:
                self._by_kind(sql, elapsed)

    def _by_kind(self, sql: str, elapsed: float) -> None:
        entry = self.sql.setdefault((self.current, statement_kind(sql)), [0, 0.0])
        entry[0] += 1
        entry[1] += elapsed

    @contextmanager
    def phase(self, target: Phase, name: str) -> Iterator[None]:
        profiler = self.profiles[name] if self.profiles else None
        queries, db = self.queries, self.db
        self.current = name
        start = time.perf_counter()
        if profiler:
            profiler.enable()
        try:
            yield
        finally:
            if profiler:
                profiler.disable()
            target.seconds += time.perf_counter() - start
            target.queries += self.queries - queries
            target.db += self.db - db
            self.current = ""


def run(
    *,
    players: int,
    rounds: int,
    deals: int,
    pool: int,
    user: Any,
    seed: int = 1,
    profile: bool = False,
    progress: Callable[[str], None] = lambda _line: None,
) -> tuple[list[RoundStats], Meter]:
    """Create and play the event in the configured database; return the measurements of every round."""
    from django.db import connection
    from django.utils import timezone

    from events.participants import participants_import
    from preferans.pulka.simulate import random_pulka
    from pulkas.models import PulkaTable
    from pulkas.services import rounds as round_services
    from pulkas.services.event import pulka_event_create
    from pulkas.services.sheet import enter_deal, event_of, table_setup
    from pulkas.services.standings import event_table
    from tournaments.participant_file import ImportLine

    now = timezone.now()
    tournament = pulka_event_create(
        name=f"Swiss bench, {players} players",
        form="swiss",
        user=user,
        now=now,
        players_per_table=4,
        settings={"pool": pool, "max_deals": deals, "rounds": rounds},
    )
    participants_import(
        now=now,
        tournament=tournament,
        user=user,
        lines=[
            ImportLine(line=n, number=n, name=f"Игрок {n}", club=f"Клуб {n % 23}")
            for n in range(1, players + 1)
        ],
    )
    event = event_of(tournament)
    rng = random.Random(seed)
    meter = Meter(profile)
    out: list[RoundStats] = []
    with connection.execute_wrapper(meter):
        for number in range(1, rounds + 1):
            draw = Phase()
            with meter.phase(draw, "draw"):
                pulka_round = round_services.draw_round(
                    tournament=tournament, user=user, now=now, seed=seed + number
                )
            tables = list(
                PulkaTable.objects.filter(round=pulka_round)
                .select_related("seat_n", "seat_e", "seat_s", "seat_w", "round__tournament")
                .order_by("number")
            )
            stats = RoundStats(number, pulka_round.drawn_by, len(tables), pulka_round.byes.count())
            stats.phases["draw"] = draw
            round_services.start_round(pulka_round=pulka_round, user=user, now=now)
            # The rows each table will write, drawn by the pure core before the clock runs.
            sheets = [(t, random_pulka(rng, table_setup(event, t), deals=deals)) for t in tables]
            enter = stats.phases["enter"]
            for k in range(max(len(rows) for _t, rows in sheets)):
                now += dt.timedelta(minutes=3)
                for table, rows in sheets:
                    if k >= len(rows):
                        continue
                    seats = table.seats()
                    writer, others = seats["N"], [p for s, p in seats.items() if s != "N"]
                    start = time.perf_counter()
                    with meter.phase(enter, "enter"):
                        enter_deal(
                            table=table, row=rows[k], participant=writer, confirmations=others, now=now
                        )
                    elapsed = time.perf_counter() - start
                    stats.latencies.append(elapsed)
                    stats.by_number.setdefault(k + 1, []).append(elapsed)
                    stats.deals += 1
            with meter.phase(stats.phases["end"], "end"):
                round_services.stop_round(pulka_round=pulka_round, user=user, now=now, reason="time limit")
                round_services.end_round(pulka_round=pulka_round, user=user, now=now)
            with meter.phase(stats.phases["standings"], "standings"):
                rating_table = event_table(tournament)
            assert len(rating_table.lines) == players
            assert all(len(line.ratings) == number for line in rating_table.lines)
            out.append(stats)
            progress(line_of(stats))
    return out, meter


HEADER = (
    "round seating tables deals |  draw s    q | enter s  db s q/deal | a deal ms: mean   p95    max |"
    " end s   q | standings s  q"
)


def line_of(s: RoundStats) -> str:
    mean, p95, top = s.per_deal()
    draw, enter, end, standings = (s.phases[p] for p in PHASES)
    per = enter.queries / s.deals if s.deals else 0
    return (
        f"{s.number:>5} {s.drawn_by:<7} {s.tables:>6} {s.deals:>5} | {draw.seconds:7.2f} {draw.queries:>4} |"
        f" {enter.seconds:7.1f} {enter.db:5.1f} {per:6.1f} |"
        f"           {mean * 1000:6.1f} {p95 * 1000:5.1f} {top * 1000:6.0f} |"
        f" {end.seconds:5.2f} {end.queries:>3} | {standings.seconds:11.2f} {standings.queries:>2}"
    )


def report(stats: list[RoundStats], meter: Meter, *, vendor: str, players: int, deals: int, pool: int) -> str:
    lines = [
        f"database: {vendor}; Swiss, {players} players, tables of 4, pool {pool}, deal limit {deals}",
        HEADER,
    ]
    lines += [line_of(s) for s in stats]
    total = {p: sum(s.phases[p].seconds for s in stats) for p in PHASES}
    all_deals = [x for s in stats for x in s.latencies]
    n = len(all_deals)
    ordered = sorted(all_deals)
    p95 = ordered[min(n - 1, int(0.95 * n))] if n else 0.0
    lines.append(
        f"total: {n} deals; enter {total['enter']:.1f} s ({1000 * total['enter'] / max(n, 1):.1f} ms a deal, "
        f"p95 {1000 * p95:.1f} ms, max {1000 * (ordered[-1] if n else 0):.0f} ms); draws {total['draw']:.2f} s; "
        f"end {total['end']:.2f} s; standings {total['standings']:.2f} s"
    )
    reseats = [s.phases["draw"].seconds for s in stats if s.drawn_by == "swiss"]
    if reseats:
        lines.append(f"re-seating by the Swiss (rounds 2…): worst {max(reseats):.2f} s (target < 2 s)")
    ends = [s.phases["end"].seconds + s.phases["standings"].seconds for s in stats]
    lines.append(f"end + standings: worst {max(ends):.2f} s (target < 2 s)")
    lines.append(
        f"a deal at every table at once ({stats[0].tables} deals at p95): {stats[0].tables * p95:.1f} s (target < 5 s)"
    )
    # How a deal's cost grows along the pulka (every deal reloads and replays the sheet before it).
    first = [x for s in stats for k, xs in s.by_number.items() if k <= 3 for x in xs]
    last = [x for s in stats for k, xs in s.by_number.items() if k > deals - 3 for x in xs]
    if first and last:
        lines.append(
            f"per deal by its number: deals 1–3 {1000 * statistics.fmean(first):.1f} ms, "
            f"deals {deals - 2}–{deals} {1000 * statistics.fmean(last):.1f} ms"
        )
    if meter.profiles:
        for name, profiler in meter.profiles.items():
            buffer = io.StringIO()
            pstats.Stats(profiler, stream=buffer).sort_stats("cumulative").print_stats(30)
            lines += [f"\n=== profile: {name} (all rounds) ===", buffer.getvalue()]
            lines.append(f"database time of {name}, by statement (count, seconds, ms each):")
            kinds = sorted(((k, v) for k, v in meter.sql.items() if k[0] == name), key=lambda kv: -kv[1][1])
            lines += [
                f"  {kind:<45} {int(n):>7} {t:8.2f} {1000 * t / n:7.2f}" for (_p, kind), (n, t) in kinds
            ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument(
        "--deals", type=int, default=30, help="the deal limit of a pulka (most last exactly this)"
    )
    parser.add_argument(
        "--pool", type=int, default=50, help="the pool target (50: about 55 deals without a limit)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--profile", action="store_true", help="cProfile each phase and print the top functions"
    )
    args = parser.parse_args()

    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        import psycopg

        base, _, _name = url.rpartition("/")
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("DROP DATABASE IF EXISTS bench_pulka")
            conn.execute("CREATE DATABASE bench_pulka")
        os.environ["DATABASE_URL"] = f"{base}/bench_pulka"
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
    os.environ.setdefault("PREFERANS_DEV", "1")  # a throw-away database on this machine: development settings
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("bench-director", password="bench-director-pw")
    print(HEADER, flush=True)
    stats, meter = run(
        players=args.players,
        rounds=args.rounds,
        deals=args.deals,
        pool=args.pool,
        user=user,
        seed=args.seed,
        profile=args.profile,
        progress=lambda line: print(line, flush=True),
    )
    print()
    print(
        report(stats, meter, vendor=connection.vendor, players=args.players, deals=args.deals, pool=args.pool)
    )


if __name__ == "__main__":
    main()
