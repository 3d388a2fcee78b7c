"""Smoke test: the run command's steps (migrate, seed_demo, runserver) serve the home page over HTTP."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_runserver_serves_the_demo_tournament(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"CELERY_BROKER_URL", "DEBUG"}}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'smoke.sqlite3'}"
    manage = [sys.executable, str(ROOT / "manage.py")]
    for args in (["migrate", "--noinput"], ["seed_demo"]):
        done = subprocess.run(manage + args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
    port = _free_port()
    server = subprocess.Popen(
        manage + ["runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        body = ""
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    assert response.status == 200
                    body = response.read().decode()
                break
            except OSError:
                time.sleep(0.2)
        assert "Турниры" in body
        assert "Демонстрационный турнир" in body
    finally:
        server.terminate()
        server.communicate(timeout=10)
