"""Faults survived, with real services: a Celery worker killed in the middle of a task.

Tasks are acknowledged late, so a task whose worker dies is delivered again and runs to the end on
another worker: nothing is lost. Run by .ci/run with Redis (TEST_REDIS_URL).
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from tests import golden

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = golden.path("small_bundle.json")

pytestmark = [pytest.mark.redis, pytest.mark.slow]


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG"}}
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'faults.sqlite3'}",
        CELERY_BROKER_URL=os.environ["TEST_REDIS_URL"],
        CELERY_VISIBILITY_TIMEOUT="3",
        # A worker killed while it held the restore mutex must not block redelivery for the default 5 minutes.
        CELERY_UNACKED_MUTEX_EXPIRE="5",
        **extra,
    )
    return env


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _worker(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:  # the child keeps its own copy of the descriptor
        return subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "--loglevel=INFO"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _received(log: Path) -> str:
    return "\n".join(line for line in log.read_text(errors="replace").splitlines() if "received" in line)


def _wait_for(predicate, seconds: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.3)
    return False


def test_a_task_whose_worker_is_killed_runs_again_and_nothing_is_lost(tmp_path):
    env = _env(tmp_path)
    _manage(env, "migrate", "--noinput")
    slug = _manage(env, "import_bundle", str(FIXTURE)).strip().splitlines()[-1]
    db = sqlite3.connect(tmp_path / "faults.sqlite3")
    expected = db.execute("select participant_id, percent from scoring_standing order by position").fetchall()
    db.execute("delete from scoring_standing")
    db.commit()
    redis.Redis.from_url(os.environ["TEST_REDIS_URL"]).flushdb()  # no task left over from an earlier run

    # Worker 1 takes the task and holds it open (fault injection) — then it is killed with SIGKILL.
    log1 = tmp_path / "worker1.log"
    first = _worker(_env(tmp_path, FAULT_INJECT_TASK_DELAY="60"), log1)
    try:
        _manage(env, "rescore", slug, "--background")
        # "received" is logged when the worker has taken the task (the banner names the task too: not enough).
        assert _wait_for(lambda: "rescore_tournament_task" in _received(log1), 90), log1.read_text()
        time.sleep(1)
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
    finally:
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)
    assert db.execute("select count(*) from scoring_standing").fetchone()[0] == 0, (
        "the killed task did not finish"
    )

    # Worker 2 gets the same task again once the visibility timeout passes, and completes it. (Kombu looks for
    # overdue tasks when a worker starts and then only every ~100 s: start it after the 3 s timeout has passed.)
    time.sleep(5)
    log2 = tmp_path / "worker2.log"
    second = _worker(env, log2)
    try:
        done = _wait_for(lambda: db.execute("select count(*) from scoring_standing").fetchone()[0] > 0, 90)
        assert done, log2.read_text(errors="replace")
    finally:
        os.killpg(second.pid, signal.SIGTERM)
        second.wait(timeout=20)
        db.close()
    db = sqlite3.connect(tmp_path / "faults.sqlite3")
    got = db.execute("select participant_id, percent from scoring_standing order by position").fetchall()
    db.close()
    assert got == expected
    assert "succeeded" in log2.read_text(errors="replace")
