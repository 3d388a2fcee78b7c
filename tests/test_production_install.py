"""The production install (issue 29, N1): a virtualenv made from ``requirements.txt`` alone runs the product's
background work through a real Redis broker and a real Celery worker.

``.ci/run`` builds that virtualenv and names its interpreter in ``PRODUCTION_PYTHON``; every process here — the
commands that hand tasks to the broker as the web process does, and the worker — runs from it, with production's
settings (no development mode, ``DEBUG`` off, a secret key of its own). The test itself runs from the
development virtualenv and only reads the database.
"""

from __future__ import annotations

import os
import secrets
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
import redis

from tests import golden
from tests.test_celery_redis import stop_worker

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = golden.path("small_bundle.json")
PRODUCTION_PYTHON = os.environ.get("PRODUCTION_PYTHON", "")

pytestmark = [
    pytest.mark.redis,
    pytest.mark.skipif(
        not PRODUCTION_PYTHON,
        reason="set PRODUCTION_PYTHON (a virtualenv from requirements.txt alone): .ci/run",
    ),
]

# The product's own paths, run in the production virtualenv: a rescore requested as a saved row requests it, and
# an export started as the exports page starts it.
REQUEST_RESCORE = """
from scoring.rescore import request_rescore
from tournaments.models import Tournament
print(request_rescore(Tournament.objects.get(slug={slug!r}).pk))
"""
START_EXPORT = """
from results.services import start_export
from tournaments.models import Tournament
print(start_export(tournament=Tournament.objects.get(slug={slug!r}), kind="standings", fmt="xlsx").pk)
"""


def _production_env(tmp_path: Path) -> dict[str, str]:
    """Production's settings: only what a deployment sets (docs/deployment.md), nothing from the test run."""
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "PIP_CONFIG_FILE")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env.update(
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=f"sqlite:///{tmp_path / 'production.sqlite3'}",
        CELERY_BROKER_URL=os.environ["TEST_REDIS_URL"],
        MEDIA_ROOT=str(tmp_path / "media"),
        RESCORE_DELAY="0",
    )
    return env


def _run(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [PRODUCTION_PYTHON, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _wait(read, *, seconds: float = 90):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = read()
        if value:
            return value
        time.sleep(0.3)
    return read()


def test_the_production_virtualenv_has_no_development_packages():
    """The interpreter really is the one made from requirements.txt alone (no pytest in it)."""
    done = subprocess.run(
        [PRODUCTION_PYTHON, "-c", "import pytest"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode != 0


def test_a_worker_from_requirements_txt_alone_rescores_and_exports(tmp_path):
    env = _production_env(tmp_path)
    _run(env, "manage.py", "migrate", "--noinput")
    _run(env, "manage.py", "check", "--deploy", "--fail-level", "ERROR")
    slug = _run(env, "manage.py", "import_bundle", str(FIXTURE)).strip().splitlines()[-1]
    db = sqlite3.connect(tmp_path / "production.sqlite3", timeout=30)
    expected = db.execute("select participant_id, percent from scoring_standing order by position").fetchall()
    assert expected
    # Throw the computed numbers away: only the worker can bring them back.
    db.execute("delete from scoring_standing")
    db.execute("update scoring_result set matchpoints = null, top = null")
    db.commit()
    redis.Redis.from_url(os.environ["TEST_REDIS_URL"]).flushdb()
    worker = subprocess.Popen(
        [PRODUCTION_PYTHON, "-m", "celery", "-A", "config", "worker", "--pool=solo", "--loglevel=INFO"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        # Handed to the broker (not computed in the requesting process), then computed by the worker.
        assert (
            _run(env, "manage.py", "shell", "-c", REQUEST_RESCORE.format(slug=slug)).split()[-1] == "queued"
        )
        got = _wait(
            lambda: db.execute(
                "select participant_id, percent from scoring_standing order by position"
            ).fetchall()
        )
        assert got == expected
        assert _wait(
            lambda: db.execute("select rescore_queued_at is null from tournaments_tournament").fetchone()[0]
        )
        job = int(_run(env, "manage.py", "shell", "-c", START_EXPORT.format(slug=slug)).split()[-1])
        status = _wait(
            lambda: db.execute(
                "select status from scoring_exportjob where id = ? and status in ('done', 'failed')", [job]
            ).fetchone()
        )
        assert status == ("done",)
        (name,) = db.execute("select file from scoring_exportjob where id = ?", [job]).fetchone()
        stored = tmp_path / "media" / name
        assert stored.is_file() and stored.read_bytes()[:2] == b"PK"  # an xlsx is a zip
    finally:
        out = stop_worker(worker)
        db.close()
    assert "rescore_tournament_task" in out and "generate_export" in out, out[-3000:]
    assert " succeeded in " in out, out[-3000:]
