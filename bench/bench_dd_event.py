"""Benchmark: the double-dummy analysis of every board of a 188-board event, as the director starts it (issue 19
target: under 3 minutes, one Celery task per board).

    .venv/bin/python bench/bench_dd_event.py [--tables 47] [--workers 2] [--broker redis://127.0.0.1:6379/15]

Creates a throw-away SQLite database, imports a simulated event (basic movement, 47 tables → 188 boards with their
layouts), then queues the session's analysis exactly as the director's «Analyse» button does
(``boards.tasks.queue_session``) and waits until every board's analysis is stored, printing the progress the
director's page shows (``boards.analysis.session_analysis``).

- Without ``--broker`` the tasks run in-process, one after another (the embedded default, no Celery worker).
- With ``--broker`` it starts ``--workers`` real Celery worker processes (``celery -A config worker --pool=solo``)
  on that Redis database, so the boards are analysed in parallel; the wall time then includes the workers'
  start-up.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=47)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--broker", default="", help="a Redis URL: run real Celery workers")
    parser.add_argument("--limit", type=float, default=180.0, help="the target, seconds")
    args = parser.parse_args()

    os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
    os.environ.setdefault("PREFERANS_DEV", "1")  # a throw-away database on this machine: development settings
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if args.broker:
        os.environ["CELERY_BROKER_URL"] = args.broker
    import django

    django.setup()
    from django.core.management import call_command
    from django.utils import timezone

    from boards.analysis import session_analysis
    from boards.tasks import queue_session
    from events.bundles import import_bundle
    from preferans.simulate import simulated_bundle

    call_command("migrate", verbosity=0)
    bundle = simulated_bundle(name="Bench", movement={"scheme": "basic", "tables": args.tables}, seed=7)
    tournament = import_bundle(data=bundle, now=timezone.now())
    session = tournament.sessions.get(number=1)
    total = session.boards.count()
    print(f"event: {total} boards, {tournament.participants.count()} participants")

    workers: list[subprocess.Popen[bytes]] = []
    if args.broker:
        from config.celery import app

        app.control.purge()
        for _ in range(args.workers):
            workers.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "celery",
                        "-A",
                        "config",
                        "worker",
                        "--pool=solo",
                        "--loglevel=WARNING",
                    ],
                    cwd=ROOT,
                    env=os.environ.copy(),
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
    try:
        start = time.perf_counter()
        queued = queue_session(session)
        shown = -1
        while True:
            done = len(session_analysis(session).done)
            if done != shown:
                print(
                    f"  {time.perf_counter() - start:6.1f} s: {done} of {total} boards analysed", flush=True
                )
                shown = done
            if done >= queued:
                break
            time.sleep(0.5)
        wall = time.perf_counter() - start
    finally:
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait(timeout=30)
    mode = f"{args.workers} Celery workers" if args.broker else "in-process (embedded default)"
    print(f"{queued} boards analysed in {wall:.1f} s, {mode} (target: under {args.limit:.0f} s)")
    return 0 if wall < args.limit else 1


if __name__ == "__main__":
    sys.exit(main())
