"""Production safety (issue 18): the settings refuse to start in every unsafe configuration, the demo commands
refuse a server, and every response carries the security headers.

Each configuration is started in a fresh interpreter with an environment of its own (nothing inherited from the
test suite's development mode), the way an operator would start it.
"""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
KEY = "k" * 10 + "-a-real-secret-for-this-test-only-0123456789abcdef"
DEV_KEY = (
    "dev-insecure-secret-key-change-me-in-production-0123456789abcdef"  # committed in config/settings.py
)
PRODUCTION = {"DEBUG": "0", "SECRET_KEY": KEY, "ALLOWED_HOSTS": "scores.example.org"}
OWN = {"DEBUG", "PREFERANS_DEV", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "TRUSTED_PROXIES"}
SETUP = (
    "import django; django.setup(); from django.conf import settings as s; print(s.DEBUG, s.SECRET_KEY[:8])"
)


def _env(tmp_path: Path, **env: str) -> dict[str, str]:
    clean = {k: v for k, v in os.environ.items() if k not in OWN and not k.startswith("DJANGO_")}
    clean.update(DJANGO_SETTINGS_MODULE="config.settings", DATABASE_URL=f"sqlite:///{tmp_path / 'p.sqlite3'}")
    clean.update(env)
    return clean


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    # A configuration that is wrongly accepted and starts a server runs into the timeout: the test fails then too.
    return subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def _python(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The settings imported as manage.py imports them (development mode runs under manage.py, not ``python -c``)."""
    return _run([sys.executable, "-c", f"import sys; sys.argv = ['manage.py']; {SETUP}"], env)


def _manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return _run([sys.executable, "manage.py", *args], env)


UNSAFE = {
    "nothing set: DEBUG off by default, no key": ({}, "SECRET_KEY must be set"),
    "DEBUG off with the committed development key": (
        {"DEBUG": "0", "SECRET_KEY": DEV_KEY, "ALLOWED_HOSTS": "scores.example.org"},
        "development key published",
    ),
    "the committed key, DEBUG unset": ({"SECRET_KEY": DEV_KEY}, "development key published"),
    "DEBUG on without asking for development": ({"DEBUG": "1"}, "development was not asked for"),
    "DEBUG on with a real key, without asking for development": (
        {"DEBUG": "1", "SECRET_KEY": KEY, "ALLOWED_HOSTS": "scores.example.org"},
        "development was not asked for",
    ),
    "development with a public host": (
        {"PREFERANS_DEV": "1", "ALLOWED_HOSTS": "scores.example.org"},
        "ALLOWED_HOSTS names scores.example.org",
    ),
    "development with every host": ({"PREFERANS_DEV": "1", "ALLOWED_HOSTS": "*"}, "ALLOWED_HOSTS names *"),
    "development with a LAN address among loopback ones": (
        {"PREFERANS_DEV": "1", "ALLOWED_HOSTS": "localhost,192.168.1.20"},
        "ALLOWED_HOSTS names 192.168.1.20",
    ),
    "a trusted proxy that is no address": (
        {**PRODUCTION, "TRUSTED_PROXIES": "10.0.0.1,proxy.example.org"},
        "'proxy.example.org' is not an address",
    ),
}


@pytest.mark.parametrize("name", list(UNSAFE))
def test_the_settings_refuse_an_unsafe_configuration(tmp_path, name):
    env, why = UNSAFE[name]
    out = _python(_env(tmp_path, **env))
    assert out.returncode != 0, f"{name}: started ({out.stdout.strip()})"
    assert "ImproperlyConfigured" in out.stderr and why in out.stderr, out.stderr[-2000:]


@pytest.mark.parametrize("addrport", ["0.0.0.0:8135", "0:8135", "[::]:8135", "192.168.1.20:8135"])
def test_development_refuses_runserver_on_the_network(tmp_path, addrport):
    out = _manage(_env(tmp_path, PREFERANS_DEV="1"), "runserver", "--noreload", addrport)
    assert out.returncode != 0
    assert "serves this machine only, but runserver would listen on" in out.stderr, out.stderr[-2000:]


def test_development_refuses_gunicorn(tmp_path):
    gunicorn = Path(sys.executable).with_name("gunicorn")
    out = _run(
        [str(gunicorn), "config.wsgi", "--preload", "--bind", "127.0.0.1:0", "--workers", "1"],
        _env(tmp_path, PREFERANS_DEV="1"),
    )
    assert out.returncode != 0
    assert "Development mode (PREFERANS_DEV=1) runs only under" in out.stderr, out.stderr[-2000:]


def test_the_safe_configurations_start(tmp_path):
    dev = _python(_env(tmp_path, PREFERANS_DEV="1"))
    assert dev.returncode == 0, dev.stderr
    assert dev.stdout.split() == ["True", DEV_KEY[:8]]  # development: DEBUG on, the committed key
    quiet = _python(_env(tmp_path, PREFERANS_DEV="1", DEBUG="0", ALLOWED_HOSTS="localhost,127.0.0.2,[::1]"))
    assert quiet.returncode == 0, quiet.stderr
    prod = _python(_env(tmp_path, **PRODUCTION, TRUSTED_PROXIES="10.0.0.1,192.168.0.0/24"))
    assert prod.returncode == 0, prod.stderr
    assert prod.stdout.split() == ["False", KEY[:8]]
    # Django's own production check finds nothing to warn about in the production settings.
    deploy = _manage(_env(tmp_path, **PRODUCTION), "check", "--deploy", "--fail-level", "WARNING")
    assert deploy.returncode == 0, deploy.stdout + deploy.stderr


def _users(db: Path) -> dict[str, str]:
    with sqlite3.connect(db) as conn:
        return dict(conn.execute("select username, password from auth_user").fetchall())


@pytest.mark.slow
def test_the_demo_commands_refuse_a_server_unless_told(tmp_path):
    env = _env(tmp_path, **PRODUCTION)
    assert _manage(env, "migrate", "--noinput").returncode == 0
    for command in ("seed_demo", "seed_pulka_demo"):
        refused = _manage(env, command)
        assert refused.returncode != 0
        assert "is for development" in refused.stderr and "--production" in refused.stderr, refused.stderr
    assert _users(tmp_path / "p.sqlite3") == {}  # no account with the README's password
    shown = _manage(env, "seed_demo", "--production")
    assert shown.returncode == 0, shown.stderr
    assert "demo-director" not in shown.stdout and "changepassword demo" in shown.stdout
    password = _users(tmp_path / "p.sqlite3")["demo"]
    assert password.startswith("!")  # unusable: nobody logs in with the published password
    with sqlite3.connect(tmp_path / "p.sqlite3") as conn:
        assert conn.execute("select is_superuser, is_staff from auth_user").fetchall() == [(0, 0)]
        assert conn.execute("select count(*) from tournaments_tournament where slug = 'demo'").fetchone() == (
            1,
        )


@pytest.mark.slow
def test_a_development_database_on_a_server_loses_the_published_password(tmp_path):
    assert _manage(_env(tmp_path, PREFERANS_DEV="1"), "migrate", "--noinput").returncode == 0
    made = _manage(_env(tmp_path, PREFERANS_DEV="1"), "seed_demo")
    assert made.returncode == 0, made.stderr
    assert "demo / demo-director" in made.stdout
    assert not _users(tmp_path / "p.sqlite3")["demo"].startswith("!")
    again = _manage(_env(tmp_path, **PRODUCTION), "seed_pulka_demo", "--production")
    assert again.returncode == 0, again.stderr
    assert _users(tmp_path / "p.sqlite3")["demo"].startswith("!")


HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'; "
    "frame-ancestors 'none'; form-action 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'",
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Opener-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "url", ["/", "/accounts/login/", "/api/docs/", "/api/tournaments/", "/admin/login/", "/nope/"]
)
def test_every_response_carries_the_security_headers(client, url):
    response = client.get(url)
    for name, value in HEADERS.items():
        assert response.headers.get(name) == value, (url, name)
    assert "camera=()" in response.headers["Permissions-Policy"]


INLINE = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>|\son[a-z]+\s*=|javascript:", re.IGNORECASE)


def test_no_template_holds_an_inline_script_or_handler():
    """The policy allows scripts only from our static files: an inline one would silently not run."""
    found = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in sorted((ROOT / "templates").rglob("*.html"))
        for match in INLINE.finditer(path.read_text())
    ]
    assert found == []


def _audit():  # type: ignore[no-untyped-def]
    import importlib.util

    spec = importlib.util.spec_from_file_location("ci_audit", ROOT / ".ci" / "audit.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_dependency_audit_fails_on_a_finding_and_skips_when_unreachable():
    audit = _audit()
    pins = audit.runtime_pins(ROOT / "requirements.txt")
    assert {"django", "sqlparse", "asgiref", "psycopg-binary", "kombu"} <= set(
        pins
    )  # what the pins pull in too
    assert "pytest" not in pins  # test tools are not what production installs
    found = {
        "dependencies": [
            {"name": "django", "version": "5.2.0", "vulns": [{"id": "PYSEC-1", "fix_versions": ["5.2.1"]}]}
        ]
    }
    code, message = audit.verdict(found)
    assert code == 1 and "django 5.2.0: PYSEC-1 (fixed in 5.2.1)" in message
    clean = {
        "dependencies": [
            {"name": "django", "version": "5.2.19", "vulns": []},
            {"name": "x", "skip_reason": "?"},
        ]
    }
    assert audit.verdict(clean) == (
        0,
        "dependency audit: no known vulnerability in 1 package; WARNING: not audited: x",
    )
    unreachable = {"dependencies": [{"name": "django", "skip_reason": "Dependency not found on PyPI"}]}
    for report in (unreachable, None):
        code, message = audit.verdict(report, "ConnectionError: api.osv.dev")
        assert code == 0 and message.startswith("WARNING: dependency audit skipped")
