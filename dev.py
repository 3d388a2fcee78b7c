#!/usr/bin/env python3
"""Set up and run the project with nothing but Python 3.11+.

    python3 dev.py run     # virtualenv, install, migrate, demo tournament, serve http://127.0.0.1:8000
    python3 dev.py test    # virtualenv, install dev dependencies, lint, checks and the whole test suite

``run`` is for development only (Django's runserver on 127.0.0.1, DEBUG on, the demo's known passwords): it asks
for development mode explicitly (``PREFERANS_DEV=1`` for the commands it starts), which the settings refuse on any
address but this machine's. Without it the settings are production's (DEBUG off, SECRET_KEY required);
production is described in README.md and docs/deployment.md.

Extra arguments after ``test`` go to pytest (``python3 dev.py test -k movements``).
The database is the embedded SQLite file unless DATABASE_URL says otherwise.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = Path(os.environ.get("VENV_DIR", ROOT / ".venv"))
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")


def sh(*args: str | Path, check: bool = True) -> int:
    print("+", " ".join(str(a) for a in args), flush=True)
    return subprocess.run([str(a) for a in args], cwd=ROOT, check=check).returncode


def ensure_venv(requirements: str) -> None:
    if not PY.exists():
        print(f"Creating a virtualenv in {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    stamp = VENV / f".installed-{requirements}"
    req = ROOT / requirements
    wanted = req.read_text() + (ROOT / "requirements.txt").read_text()
    if not stamp.exists() or stamp.read_text() != wanted:
        sh(PY, "-m", "pip", "install", "--disable-pip-version-check", "-q", "-r", req)
        stamp.write_text(wanted)


def manage(*args: str) -> None:
    sh(PY, "manage.py", *args)


def development() -> None:
    """The commands started from here run in development mode (config/settings.py): DEBUG on, loopback only."""
    os.environ["PREFERANS_DEV"] = "1"


def run() -> None:
    development()
    ensure_venv("requirements.txt")
    manage("migrate", "--noinput")
    manage("seed_demo")
    manage("seed_pulka_demo")
    manage("seed_players_demo")
    print("\nServing on http://127.0.0.1:8000  (director login: demo / demo-director)\n", flush=True)
    manage("runserver", "127.0.0.1:8000")


def test(pytest_args: list[str]) -> None:
    development()
    ensure_venv("requirements-dev.txt")
    sh(BIN / "ruff", "check", ".")
    manage("check", "--fail-level", "WARNING")
    manage("makemigrations", "--check", "--dry-run")
    sh(BIN / "mypy", "--strict", "preferans")
    sh(BIN / "lint-imports")
    # Two processes (or as many as there are cores) unless the caller chose: the suite is parallel-safe.
    parallel = (
        []
        if any(a == "-n" or a.startswith(("-n", "--numprocesses")) for a in pytest_args)
        else ["-n", "auto"]
    )
    code = sh(PY, "-m", "pytest", *parallel, *pytest_args, check=False)
    if code == 5:
        print("pytest collected no tests: that is a failure here.", file=sys.stderr)
    sys.exit(code)


def main() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - this file is what tells an old Python so
        sys.exit("Python 3.11 or newer is needed (this is {}.{}).".format(*sys.version_info[:2]))
    if len(sys.argv) < 2 or sys.argv[1] not in {"run", "test"}:
        sys.exit(__doc__)
    try:
        if sys.argv[1] == "run":
            run()
        else:
            test(sys.argv[2:])
    except subprocess.CalledProcessError as exc:
        sys.exit(exc.returncode or 1)
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
