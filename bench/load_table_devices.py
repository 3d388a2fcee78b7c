"""Load test: simulated table devices submitting and confirming protocol rows against gunicorn + PostgreSQL.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test .venv/bin/python bench/load_table_devices.py \
        [--tables 50] [--rounds 4] [--workers 2] [--threads 4]

What it does, all on loopback:
1. creates (dropping it first) a database ``bench_load`` beside the one DATABASE_URL names, migrates it, and
   imports an event: the basic movement on T tables of 4 (4T participants, each with a PIN), no results yet;
2. starts gunicorn (``--workers``, sync workers with ``--threads``) serving the product with production settings
   (DEBUG off) and Redis as the broker, plus one Celery worker for the (coalesced) rescores;
3. runs one device thread per table: for every board of the round the player at N POSTs the row to
   ``/api/results/`` with an ``Idempotency-Key`` (a failed request is retried with the same key).
   ``--mode device`` (default): the table's one device went round the table first, E, S and W typed their
   PINs on it, and the row goes once with their confirmations (how table terminals work in duplicate bridge).
   ``--mode phones``: E, S and W then each POST ``/confirm/`` with their own request.
   Between rounds the director ends the round and starts the next;
4. afterwards checks that every acknowledged row is stored exactly once, confirmed, and that no other row exists.

Prints rows/s (a row, submitted and confirmed by all four players), requests/s and latency percentiles.
Targets (issue 10): ≥ 200 rows/s sustained, p95 < 150 ms, every acknowledged row stored exactly once.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

from django.utils import timezone

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Device:
    """One table's phone: submits each board's row as N and has E, S, W confirm it."""

    def __init__(
        self, port: int, code: str, seats: dict[str, tuple[int, str]], stats: Stats, keepalive: bool = False
    ) -> None:
        self.port, self.code, self.seats, self.stats = port, code, seats, stats
        self.keepalive = keepalive
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def request(self, method: str, path: str, body: dict | None, seat: str, key: str | None = None):  # type: ignore[no-untyped-def]
        number, pin = self.seats[seat]
        headers = {
            "Authorization": f"Player {self.code}:{number}:{pin}",
            "Content-Type": "application/json",
            "Accept-Language": "en",
        }
        if key:
            headers["Idempotency-Key"] = key
        if not self.keepalive:
            # One connection per request, as from a reverse proxy (nginx does not keep upstream connections
            # alive by default): gunicorn's workers then share the requests instead of each keeping the
            # connections it happened to accept.
            headers["Connection"] = "close"
        payload = json.dumps(body) if body is not None else ""
        for attempt in range(8):
            start = time.perf_counter()
            try:
                self.conn.request(method, path, body=payload, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                if not self.keepalive:
                    self.conn.close()
            except (OSError, http.client.HTTPException):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                self.stats.retries += 1
                time.sleep(0.1 * (attempt + 1))
                continue
            elapsed = time.perf_counter() - start
            if response.status >= 500 or response.status == 429:
                self.stats.retries += 1
                time.sleep(0.1 * (attempt + 1))
                continue
            return response.status, json.loads(data or b"{}"), elapsed
        raise RuntimeError(f"{method} {path} failed 8 times")

    def play_round(self, rows: list[dict], mode: str, interval: float = 0.0) -> None:  # type: ignore[type-arg]
        """Each row as fast as possible (closed loop), or one every ``interval`` seconds (open loop)."""
        first = time.perf_counter() + random.uniform(0, interval)
        for k, row in enumerate(rows):
            due = first + k * interval
            if interval:
                time.sleep(max(0.0, due - time.perf_counter()))
            else:
                due = time.perf_counter()
            self.play_row(row, mode)
            self.stats.add("row", time.perf_counter() - due)  # from when it was due: a late device counts

    def play_row(self, row: dict, mode: str) -> None:  # type: ignore[type-arg]
        key = str(uuid.uuid4())
        if mode == "device":  # the device went round the table: E, S, W typed their PINs on it
            row = {
                **row,
                "confirmations": [
                    {"number": self.seats[s][0], "pin": self.seats[s][1]} for s in ("E", "S", "W")
                ],
            }
        status, body, elapsed = self.request("POST", "/api/results/", row, "N", key)
        self.stats.add("submit", elapsed)
        if status != 201:
            self.stats.errors.append(f"submit {status} {body}")
            return
        self.stats.acknowledged.append(body["id"])
        if mode == "device":
            if body.get("status") != "confirmed":
                self.stats.errors.append(f"submit with confirmations left the row {body.get('status')}")
            return
        for seat in ("E", "S", "W"):
            status, body2, elapsed = self.request("POST", f"/api/results/{body['id']}/confirm/", None, seat)
            self.stats.add("confirm", elapsed)
            if status not in (200, 201):
                self.stats.errors.append(f"confirm {status} {body2}")


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latency: dict[str, list[float]] = {"submit": [], "confirm": [], "row": []}
        self.acknowledged: list[int] = []
        self.errors: list[str] = []
        self.retries = 0

    measuring = True  # off during the warm-up round: its timings are not reported (its rows are checked)

    def add(self, kind: str, seconds: float) -> None:
        with self.lock:
            if self.measuring:
                self.latency[kind].append(seconds)


def restart_database(
    stats: Stats, after_rows: int, done: threading.Event, restarting: threading.Event
) -> None:
    """Fault injection: restart the PostgreSQL cluster in the middle of the submissions."""
    while len(stats.acknowledged) < after_rows:
        time.sleep(0.05)
    restarting.set()
    version = sorted(os.listdir("/etc/postgresql"))[-1]
    subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "restart", "-m", "fast"], check=True
    )
    done.set()


def close_old_connections_after_restart() -> None:
    """The load tool's own database connection may have died with a restart: open a fresh one."""
    from django.db import connection

    connection.close()


def with_database(action, restarted: threading.Event, restarting: threading.Event):  # type: ignore[no-untyped-def]
    """Run the tool's own database work (ending and starting rounds), waiting out a restart it caused."""
    from django.db import OperationalError

    if restarting.is_set():
        restarted.wait(120)
    for attempt in range(60):
        close_old_connections_after_restart()
        try:
            return action()
        except OperationalError:
            if attempt == 59:
                raise
            time.sleep(0.5)
    return None


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--redis", default=os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/13"))
    parser.add_argument(
        "--rate",
        type=float,
        default=0.0,
        metavar="ROWS_PER_S",
        help="open loop: the devices together send this many rows per second, evenly (default: closed loop, "
        "every device sends its next row as soon as the last is answered: the server's capacity)",
    )
    parser.add_argument(
        "--no-warmup",
        dest="warmup",
        action="store_false",
        help="time the first round too (by default it warms the fresh server up and is not timed; its rows "
        "are still checked)",
    )
    parser.add_argument(
        "--no-prepared", action="store_true", help="without DB_PREPARED_STATEMENTS (docs/deployment.md)"
    )
    parser.add_argument(
        "--keepalive",
        action="store_true",
        help="keep each device's connection open (by default every request has its own, as behind a proxy)",
    )
    parser.add_argument(
        "--mode",
        choices=["device", "phones"],
        default="device",
        help="device: one table device, the row sent once with E, S and W's confirmations (their PINs typed "
        "on it); phones: N submits, then E, S and W each confirm with a request of their own",
    )
    parser.add_argument(
        "--restart-db-after",
        type=int,
        default=0,
        metavar="ROWS",
        help="fault test: restart PostgreSQL once this many rows are acknowledged (needs pg_ctlcluster)",
    )
    args = parser.parse_args()

    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL server (the load test runs against PostgreSQL)")
    import psycopg

    base = url.rpartition("/")[0]
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS bench_load WITH (FORCE)")
        conn.execute("CREATE DATABASE bench_load")
    env = {k: v for k, v in os.environ.items()}
    env.update(
        DATABASE_URL=f"{base}/bench_load",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",
        DB_CONN_MAX_AGE="60",
        CELERY_BROKER_URL=args.redis,
        REDIS_CACHE_URL=args.redis,
        DB_PREPARED_STATEMENTS="0" if args.no_prepared else "1",
        API_RATE_PLAYER="100000/min",
        API_RATE_ANON="100000/min",
        LOG_LEVEL="WARNING",
        STATIC_ROOT=tempfile.mkdtemp(prefix="load-static-"),
    )
    os.environ.update(
        {
            k: env[k]
            for k in (
                "DATABASE_URL",
                "DEBUG",
                "SECRET_KEY",
                "ALLOWED_HOSTS",
                "SECURE_SSL_REDIRECT",
                "CELERY_BROKER_URL",
                "STATIC_ROOT",
            )
        }
    )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from duplicate.gaps import round_gaps
    from duplicate.rounds import round_end, round_start
    from events.bundles import import_bundle
    from preferans.game import make_rules
    from preferans.game.simulate import random_row
    from preferans.simulate import simulated_bundle
    from scoring.models import Result
    from tournaments.models import Round, Table

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    bundle = simulated_bundle(
        name="Load", movement={"scheme": "basic", "tables": args.tables}, played_rounds=0, seed=3
    )
    tournament = import_bundle(data=bundle, now=timezone.now())
    for p in tournament.participants.all():
        p.pin = str(1000 + p.number)
        p.save(update_fields=["pin"])
    session = tournament.sessions.get()
    codes = dict(Table.objects.filter(session=session).values_list("number", "code"))
    dealers = dict(session.boards.values_list("number", "dealer"))
    rules = make_rules(tournament.variant)
    rng = random.Random(11)

    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            "--workers",
            str(args.workers),
            "--threads",
            str(args.threads),
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "--loglevel=WARNING"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        stats = Stats()
        restarted, restarting = threading.Event(), threading.Event()
        if args.restart_db_after:
            threading.Thread(
                target=restart_database,
                args=(stats, args.restart_db_after, restarted, restarting),
                daemon=True,
            ).start()
        rounds = list(Round.objects.filter(session=session).order_by("number"))[: args.rounds]
        if args.warmup and len(rounds) < 2:
            sys.exit("with a warm-up round, play at least two rounds (--rounds)")
        played = 0.0
        measured_rows = 0
        for index, rnd in enumerate(rounds):
            stats.measuring = not (args.warmup and index == 0)
            with_database(
                lambda rnd=rnd: round_start(rnd=rnd, user=None, now=timezone.now()), restarted, restarting
            )
            plans = []
            for seating in session.seatings.filter(round_number=rnd.number).select_related(
                "seat_n", "seat_e", "seat_s", "seat_w"
            ):
                seats = {k: (p.number, p.pin) for k, p in seating.seats().items()}
                boards = [
                    b
                    for b in sorted(dealers)
                    if (b - 1) // tournament.deals_per_set + 1 == seating.set_number
                ]
                rows = [
                    {"board": b, **random_row(rng, rules=rules, players=4, dealer=dealers[b])} for b in boards
                ]
                plans.append((Device(port, codes[seating.table_number], seats, stats, args.keepalive), rows))
            interval = args.tables / args.rate if args.rate else 0.0
            acknowledged_before = len(stats.acknowledged)
            start = time.perf_counter()
            threads = [
                threading.Thread(target=d.play_round, args=(rows, args.mode, interval)) for d, rows in plans
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            if stats.measuring:
                played += time.perf_counter() - start
                measured_rows += len(stats.acknowledged) - acknowledged_before

            def end_round(rnd: Round = rnd) -> None:
                rnd.refresh_from_db()
                # the simulated tables may leave rows unconfirmed: the bench ends the round knowingly
                round_end(rnd=rnd, user=None, now=timezone.now(), acknowledged=round_gaps(rnd).token)

            with_database(end_round, restarted, restarting)
        if args.restart_db_after and not restarted.is_set():
            sys.exit("the database was never restarted: lower --restart-db-after")
        close_old_connections_after_restart()
        rows_total = measured_rows
        requests_total = len(stats.latency["submit"]) + len(stats.latency["confirm"])
        stored = with_database(
            lambda: list(Result.objects.filter(session=session).values_list("id", "status")),
            restarted,
            restarting,
        )
        ids = [i for i, _ in stored]
        exactly_once = sorted(ids) == sorted(stats.acknowledged) and len(set(ids)) == len(ids)
        confirmed = sum(1 for _, s in stored if s == "confirmed")
        all_lat = stats.latency["submit"] + stats.latency["confirm"]
        offered = f"open loop at {args.rate:g} rows/s offered" if args.rate else "closed loop"
        print(
            f"mode: {args.mode}, {offered}; tables: {args.tables} ({4 * args.tables} participants); rounds: {len(rounds)}; gunicorn "
            f"{args.workers} workers × {args.threads} threads; PostgreSQL; Redis broker + 1 Celery worker"
        )
        print(
            f"rows acknowledged: {len(stats.acknowledged)} ({rows_total} measured, after "
            f"{'a warm-up round' if args.warmup else 'no warm-up'}); requests measured: {requests_total}; "
            f"time playing (measured): {played:.1f} s"
        )
        shape = "1 request with 3 confirmations" if args.mode == "device" else "1 submit + 3 confirms"
        print(
            f"throughput: {rows_total / played:.0f} rows/s (each row = {shape}), "
            f"{requests_total / played:.0f} requests/s"
        )
        for kind, values in (
            ("submit", stats.latency["submit"]),
            ("confirm", stats.latency["confirm"]),
            ("all", all_lat),
            ("row", stats.latency["row"]),
        ):
            if not values:
                continue
            print(
                f"latency {kind:8s} p50 {pct(values, 50):6.1f} ms  p95 {pct(values, 95):6.1f} ms  "
                f"p99 {pct(values, 99):6.1f} ms  mean {statistics.mean(values) * 1000:6.1f} ms"
            )
        print(
            f"retries: {stats.retries}; errors: {len(stats.errors)} {stats.errors[:3]}"
            + ("; PostgreSQL restarted during the submissions" if restarted.is_set() else "")
        )
        print(f"stored rows: {len(ids)}; exactly once: {exactly_once}; confirmed: {confirmed}/{len(ids)}")
        if not exactly_once or stats.errors:
            sys.exit(1)
    finally:
        server.terminate()
        worker.terminate()
        server.wait(timeout=30)
        worker.wait(timeout=30)


if __name__ == "__main__":
    main()
