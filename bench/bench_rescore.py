"""Benchmark: rescore a ~9,000-row event from the database (issue 10 target: < 3 s on PostgreSQL).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/bench_rescore.py [--tables 47]

Creates a throw-away database ``bench_rescore`` next to the one DATABASE_URL names (SQLite: a temporary file),
imports a simulated event (basic movement, T tables × T rounds × 4 boards, T = 47 → 188 participants, 8,836
rows), then times ``rescore_tournament`` — load every row, score through the core, write every result's cache
and the standings — three times and prints the best and the median.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from django.utils import timezone

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=47)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        import psycopg

        base, _, _name = url.rpartition("/")
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("DROP DATABASE IF EXISTS bench_rescore")
            conn.execute("CREATE DATABASE bench_rescore")
        os.environ["DATABASE_URL"] = f"{base}/bench_rescore"
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
    os.environ.setdefault("PREFERANS_DEV", "1")  # a throw-away database on this machine: development settings
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from events.bundles import import_bundle
    from preferans.simulate import simulated_bundle
    from scoring.models import Result
    from scoring.rescore import rescore_tournament

    call_command("migrate", verbosity=0)
    t0 = time.perf_counter()
    bundle = simulated_bundle(name="Bench", movement={"scheme": "basic", "tables": args.tables}, seed=7)
    t1 = time.perf_counter()
    tournament = import_bundle(data=bundle, now=timezone.now())
    t2 = time.perf_counter()
    rows = Result.objects.filter(session__tournament=tournament).count()
    worst, typical = [], []
    results = Result.objects.filter(session__tournament=tournament)
    for i in range(args.repeat):
        # Worst case: every cached number is stale, every row is written back.
        results.update(vists=None, matchpoints=None, top=None)
        start = time.perf_counter()
        rescore_tournament(tournament_id=tournament.pk)
        worst.append(time.perf_counter() - start)
        # Typical during an event: one row changed (a director's correction), its board's rows rewritten.
        one = results.filter(adjusted__isnull=True, assigned__isnull=True).order_by("id")[i]
        one.adjusted = {"N": "A", "E": "A", "S": "A", "W": "A"}
        one.row = {}
        one.save(update_fields=["adjusted", "row"])
        start = time.perf_counter()
        rescore_tournament(tournament_id=tournament.pk)
        typical.append(time.perf_counter() - start)
    engine = django.db.connection.vendor
    print(f"database: {engine}; participants: {tournament.participants.count()}; rows: {rows}")
    print(f"generate bundle: {t1 - t0:.2f} s; import (validate, score, store): {t2 - t1:.2f} s")
    for label, times in (("every row stale", worst), ("one row changed", typical)):
        print(
            f"rescore from the database, {label}: best {min(times):.2f} s, median {statistics.median(times):.2f} s"
            " (target < 3 s)"
        )


if __name__ == "__main__":
    main()
