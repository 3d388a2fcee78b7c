#!/usr/bin/env python3
"""Set up and run the project with nothing but Python 3.11+.

    python3 dev.py run     # virtualenv, install, migrate, demo tournament, serve http://127.0.0.1:8000
    python3 dev.py test    # virtualenv, install dev dependencies, lint, checks and the whole test suite
                           # (the checks: ruff, no Python file over 500 lines, Django's checks and migrations,
                           # mypy on the pure library, import-linter)

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


LINES_MAX = 500
"""No Python file of the project is longer (docs/architecture.md, «No file over 500 lines»)."""
UNCOUNTED_DIRS = frozenset({".venv", "migrations", "tests", ".git"})
"""Directories whose files are not the project's code: the virtualenv, migrations (written by Django), tests,
and git's own (it holds no Python source)."""


def long_python_files(root: Path, limit: int = LINES_MAX) -> list[tuple[Path, int]]:
    """Every ``*.py`` under ``root`` with more than ``limit`` lines, counted as ``wc -l`` counts them (line
    breaks), outside :data:`UNCOUNTED_DIRS` and the virtualenv; paths relative to ``root``, longest first."""
    found: list[tuple[Path, int]] = []
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        dirs[:] = sorted(d for d in dirs if d not in UNCOUNTED_DIRS and here / d != VENV)
        for name in files:
            if name.endswith(".py"):
                lines = (here / name).read_bytes().count(b"\n")
                if lines > limit:
                    found.append(((here / name).relative_to(root), lines))
    return sorted(found, key=lambda item: (-item[1], str(item[0])))


def check_file_sizes(root: Path) -> None:
    """Stop with the list of Python files over :data:`LINES_MAX` lines, if there is one."""
    print(f"+ no Python file over {LINES_MAX} lines (migrations and tests aside)", flush=True)
    long_files = long_python_files(root)
    if long_files:
        print(
            f"These Python files have more than {LINES_MAX} lines; split each by responsibility "
            "(docs/architecture.md, «No file over 500 lines»):",
            file=sys.stderr,
        )
        for path, lines in long_files:
            print(f"  {path.as_posix()}: {lines} lines", file=sys.stderr)
        sys.exit(1)


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
    sh(BIN / "ruff", "format", "--check", ".")
    check_file_sizes(ROOT)
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
