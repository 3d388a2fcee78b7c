"""The settings module is driven by the environment (checked in fresh interpreters)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _settings(env: dict[str, str], expr: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k
        not in {"DEBUG", "PREFERANS_DEV", "SECRET_KEY", "DATABASE_URL", "CELERY_BROKER_URL", "ALLOWED_HOSTS"}
    }
    clean.update(env, DJANGO_SETTINGS_MODULE="config.settings")
    # As manage.py imports them: development mode runs under manage.py, pytest or Celery, never ``python -c``.
    code = f"import sys; sys.argv = ['manage.py']; import django; django.setup(); from django.conf import settings as s; print({expr})"
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True)


def test_defaults_are_embedded_sqlite_and_eager_celery():
    out = _settings(
        {"PREFERANS_DEV": "1"},
        "s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER, s.LANGUAGE_CODE",
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "django.db.backends.sqlite3 True ru"


def test_database_url_and_broker_are_read_from_the_environment():
    out = _settings(
        {
            "PREFERANS_DEV": "1",
            "DATABASE_URL": "postgres://u@127.0.0.1:5432/x",
            "CELERY_BROKER_URL": "redis://127.0.0.1:6379/3",
        },
        "s.DATABASES['default']['ENGINE'], s.DATABASES['default']['NAME'], s.CELERY_TASK_ALWAYS_EAGER",
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "django.db.backends.postgresql x False"


def test_secret_key_is_required_when_debug_is_off():
    out = _settings({"DEBUG": "0"}, "s.SECRET_KEY")
    assert out.returncode != 0
    assert "SECRET_KEY must be set" in out.stderr
    ok = _settings(
        {"DEBUG": "0", "SECRET_KEY": "x" * 60, "ALLOWED_HOSTS": "example.org"},
        "s.SECRET_KEY == 'x' * 60, s.ALLOWED_HOSTS",
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.strip() == "True ['example.org']"
