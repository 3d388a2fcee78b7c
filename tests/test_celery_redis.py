"""The rescore task through a real Redis broker and a real Celery worker process (run by .ci/run)."""

from __future__ import annotations

import os
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

pytestmark = pytest.mark.redis


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG"}}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'celery.sqlite3'}"
    env["CELERY_BROKER_URL"] = os.environ["TEST_REDIS_URL"]
    return env


def stop_worker(worker: subprocess.Popen[str]) -> str:
    """Stop a worker started by a test; what it printed."""
    worker.terminate()
    try:
        out, _ = worker.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        worker.kill()
        out, _ = worker.communicate()
    return out


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_rescore_runs_in_a_real_worker(tmp_path):
    env = _env(tmp_path)
    _manage(env, "migrate", "--noinput")
    slug = _manage(env, "import_bundle", str(FIXTURE)).strip().splitlines()[-1]
    db = sqlite3.connect(tmp_path / "celery.sqlite3")
    expected = db.execute("select participant_id, percent from scoring_standing order by position").fetchall()
    assert expected
    # Throw the computed numbers away: only the worker can bring them back.
    db.execute("delete from scoring_standing")
    db.execute("update scoring_result set matchpoints = null, top = null")
    db.commit()
    redis.Redis.from_url(os.environ["TEST_REDIS_URL"]).flushdb()  # no task left over from an earlier run
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "--loglevel=INFO"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        queued = _manage(env, "rescore", slug, "--background")
        assert queued.startswith("queued ")
        deadline = time.monotonic() + 90
        got: list[tuple[int, str]] = []
        while time.monotonic() < deadline:
            got = db.execute(
                "select participant_id, percent from scoring_standing order by position"
            ).fetchall()
            if got:
                break
            time.sleep(0.3)
        assert got == expected
        nulls = db.execute("select count(*) from scoring_result where matchpoints is null").fetchone()[0]
        assert nulls == 0
    finally:
        out = stop_worker(worker)
        db.close()
    assert "rescore_tournament_task" in out
