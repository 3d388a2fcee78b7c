"""Issue 29, N14: development mode (``PREFERANS_DEV=1``: DEBUG's pages, the committed key) is allowed positively —
under ``manage.py`` (runserver on loopback, and the other commands), pytest and a Celery worker — and refused
under anything else: ``python -m gunicorn.app.wsgiapp``, any other server or script, ``python -c``.

Each process is a fresh interpreter with an environment of its own, as an operator would start it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.hostile.test_production import _env, _manage, _run

REFUSED = "Development mode (PREFERANS_DEV=1) runs only under"


def _as(argv0: str, tmp_path: Path) -> tuple[int, str, str]:
    """Import the settings in a process whose ``sys.argv[0]`` is ``argv0``, as that program would."""
    code = (
        f"import sys; sys.argv = [{argv0!r}]; import django; django.setup(); "
        "from django.conf import settings as s; print(s.DEBUG)"
    )
    out = _run([sys.executable, "-c", code], _env(tmp_path, PREFERANS_DEV="1"))
    return out.returncode, out.stdout, out.stderr


def test_gunicorn_started_as_a_module_is_refused(tmp_path):
    out = _run(
        [sys.executable, "-m", "gunicorn.app.wsgiapp", "config.wsgi", "--preload", "--bind", "127.0.0.1:0"],
        _env(tmp_path, PREFERANS_DEV="1"),
    )
    assert out.returncode != 0
    assert REFUSED in out.stderr, out.stderr[-2000:]


@pytest.mark.parametrize(
    "argv0",
    [
        "/srv/venv/lib/python3.12/site-packages/gunicorn/app/wsgiapp.py",
        "/srv/venv/lib/python3.12/site-packages/gunicorn/__main__.py",
        "/srv/venv/bin/gunicorn",
        "/srv/venv/bin/waitress-serve",
        "/srv/venv/bin/granian",
        "/srv/serve.py",
        "/srv/bench/bench_rescore.py",
        "-c",
        "",
    ],
)
def test_any_other_program_is_refused(tmp_path, argv0):
    code, out, err = _as(argv0, tmp_path)
    assert code != 0, out
    assert REFUSED in err, err[-2000:]


@pytest.mark.parametrize(
    "argv0",
    [
        "manage.py",
        "/srv/app/manage.py",
        "/srv/venv/bin/django-admin",
        "/srv/venv/bin/pytest",
        "/srv/venv/lib/python3.12/site-packages/pytest/__main__.py",
        "/srv/venv/bin/celery",
        "/srv/venv/lib/python3.12/site-packages/celery/__main__.py",
        str(Path(__file__).resolve().parents[2] / "bench" / "bench_rescore.py"),
    ],
)
def test_manage_py_pytest_and_celery_run_in_development(tmp_path, argv0):
    code, out, err = _as(argv0, tmp_path)
    assert code == 0, err[-2000:]
    assert out.split() == ["True"]


def test_manage_py_commands_run_in_development(tmp_path):
    out = _manage(
        _env(tmp_path, PREFERANS_DEV="1"),
        "shell",
        "-c",
        "from django.conf import settings; print(settings.DEBUG)",
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split()[-1:] == ["True"]
