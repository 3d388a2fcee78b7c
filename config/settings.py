"""Settings for the duplicate preferans project.

One module for every environment: each knob comes from an environment variable, with a default that
runs the embedded set-up (SQLite file in the project, Celery tasks executed in-process).

Production is the default: ``DEBUG`` is off and ``SECRET_KEY`` must be given. Development is asked for
explicitly with ``PREFERANS_DEV=1`` (``python3 dev.py run`` and the test settings do), and is refused unless it
can serve only this machine (see ``_refuse_unsafe_start``; docs/deployment.md, «Security settings»).
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import sys
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    return raw.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# Development mode: DEBUG on by default, the committed development key, the demo's published passwords.
PREFERANS_DEV = env_bool("PREFERANS_DEV", False)
DEBUG = env_bool("DEBUG", PREFERANS_DEV)

# Published in this file: it signs nothing outside development (anyone could forge sessions and cookies with it).
_DEV_SECRET = "dev-insecure-secret-key-change-me-in-production-0123456789abcdef"
SECRET_KEY = os.environ.get("SECRET_KEY", "") or (_DEV_SECRET if PREFERANS_DEV else "")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver" if PREFERANS_DEV else "")

# The programs development mode runs under (allowed, not a list of servers refused): manage.py (runserver, held to
# loopback below, and the other commands), pytest (its workers too) and a Celery worker. Anything else — gunicorn
# however started (``python -m gunicorn.app.wsgiapp``), another server, a script, ``python -c`` — is refused.
_DEV_PROGRAMS = frozenset({"manage.py", "django-admin", "django-admin.py", "pytest", "py.test", "celery"})


def _is_loopback(host: str) -> bool:
    host = host.strip().strip("[]").lower()
    if host in {"localhost", "testserver"} or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _runserver_host(argv: list[str]) -> str | None:
    """The address ``manage.py runserver [addr:]port`` listens on, or None for any other command."""
    if len(argv) < 2 or argv[1] != "runserver":
        return None
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("addrport", nargs="?", default="")
    parser.add_argument("-6", "--ipv6", action="store_true")
    for option in ("--settings", "--pythonpath", "-v", "--verbosity"):
        parser.add_argument(option)
    known, _ = parser.parse_known_args(argv[2:])
    host, _, _port = known.addrport.rpartition(":")
    return host or ("::1" if known.ipv6 else "127.0.0.1")


def _program(argv: list[str]) -> str:
    path = Path(argv[0]) if argv and argv[0] else Path()
    return path.parent.name if path.name == "__main__.py" else path.name


def _bench_script(argv: list[str]) -> bool:
    """One of the project's benchmarks (``python bench/bench_rescore.py``): a throw-away database on this machine."""
    if not argv or not argv[0].endswith(".py"):
        return False
    return Path(argv[0]).resolve().parent == BASE_DIR / "bench"


def _refuse_unsafe_start() -> None:
    """Refuse every configuration in which a published secret or the debug pages could reach the network."""
    fix = "For a server: DEBUG=0 and SECRET_KEY=<50 random characters>, kept secret (docs/deployment.md)."
    if DEBUG and not PREFERANS_DEV:
        raise ImproperlyConfigured(
            "DEBUG is on but development was not asked for: DEBUG=1 shows settings and code to every visitor. "
            "For development on this machine set PREFERANS_DEV=1 as well (python3 dev.py run does). " + fix
        )
    if not SECRET_KEY:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set in the environment when DEBUG is off. For development on this machine set "
            "PREFERANS_DEV=1 (python3 dev.py run does). " + fix
        )
    if SECRET_KEY == _DEV_SECRET and not PREFERANS_DEV:
        raise ImproperlyConfigured(
            "SECRET_KEY is the development key published in config/settings.py: anyone can forge sessions "
            "and cookies with it. " + fix
        )
    if not PREFERANS_DEV:
        return
    remote = [host for host in ALLOWED_HOSTS if not _is_loopback(host)]
    if remote:
        raise ImproperlyConfigured(
            f"Development mode (PREFERANS_DEV=1) serves this machine only, but ALLOWED_HOSTS names "
            f"{', '.join(remote)}. " + fix
        )
    listen = _runserver_host(sys.argv)
    if listen is not None and not _is_loopback(listen):
        raise ImproperlyConfigured(
            f"Development mode (PREFERANS_DEV=1) serves this machine only, but runserver would listen on "
            f"{listen}: use 127.0.0.1:PORT. " + fix
        )
    program = _program(sys.argv)
    under_pytest = "_pytest" in sys.modules  # pytest's own process and its xdist workers (argv «-c»)
    if program not in _DEV_PROGRAMS and not under_pytest and not _bench_script(sys.argv):
        raise ImproperlyConfigured(
            f"Development mode (PREFERANS_DEV=1) runs only under manage.py (runserver on 127.0.0.1 and the other "
            f"commands), pytest, a Celery worker or the project's bench/ scripts, not under {program or 'this program'!r}. "
            + fix
        )


_refuse_unsafe_start()
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    # The ground: an event's facts, errors, audit, permissions, PINs.
    "tournaments",
    # The duplicate form: boards, the rows and their scores, sessions' movements and rounds.
    "boards",
    "scoring",
    "duplicate",
    # The pulka form: Olympic, compensation and Swiss events.
    "pulkas",
    # Across both forms: rulings and appeals, players across events, the whole event's workflows.
    "appeals",
    "players",
    "events",
    # What the channels show alike; then the channels.
    "ui",
    "director",
    "table",
    "results",
    "api",
    "demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.middleware.SecurityHeadersMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.middleware.EventTimeZoneMiddleware",
    "config.unavailable.DatabaseUnavailableMiddleware",  # last: a view's database failure is a 503
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

# Database: DATABASE_URL, default an SQLite file inside the project.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
        # A persistent connection is checked before reuse: after a database restart the next request reconnects.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "DB_PREPARED_STATEMENTS", False
):
    # Server-side parameters and prepared statements with generic plans: PostgreSQL plans each hot query of
    # table entry once per connection instead of on every request (about half its work per request). Not
    # behind a transaction-mode PgBouncer, which cannot keep prepared statements (docs/deployment.md).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True, prepare_threshold=2, options="-c plan_cache_mode=force_generic_plan"
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Wait up to 20 s for a concurrent writer instead of failing at once ("database is locked"); a transaction
    # takes the write lock when it begins, so two writers queue instead of one failing when it upgrades its lock.
    DATABASES["default"].setdefault("OPTIONS", {}).update(timeout=20, transaction_mode="IMMEDIATE")

# Request bodies (forms, API, uploads) over 2.5 MB are refused before they are read whole; the participants
# import refuses files over 2 MB with its own message.
DATA_UPLOAD_MAX_MEMORY_SIZE = FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440

# Reverse proxies whose X-Forwarded-For is believed (addresses or networks, comma-separated): the rate limits
# then count the client's real address. Empty: the connecting address is the client's.
TRUSTED_PROXIES = tuple(env_list("TRUSTED_PROXIES", ""))
for _proxy in TRUSTED_PROXIES:
    try:
        ipaddress.ip_network(_proxy, strict=False)
    except ValueError:
        raise ImproperlyConfigured(
            f"TRUSTED_PROXIES: {_proxy!r} is not an address or a network (e.g. 10.0.0.5,192.168.0.0/24)."
        ) from None

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Internationalisation: Russian by default, English available.
LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
# The main catalogue, then one catalogue per area of the product (locale/parts/<area>/ru/LC_MESSAGES), so that
# work on separate areas never edits the same file; the first catalogue that has a message wins.
LOCALE_PATHS = [BASE_DIR / "locale", *sorted((BASE_DIR / "locale" / "parts").glob("*"))]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Moscow")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

# In development WhiteNoise serves straight from the apps' static folders (no collectstatic needed).
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "director:index"  # a director lands on his events (issue 30)
LOGOUT_REDIRECT_URL = "home"

# Cache (rate limits, throttling): Redis when REDIS_CACHE_URL is set (shared by every web process),
# else process-local memory, which needs nothing installed.
REDIS_CACHE_URL = os.environ.get("REDIS_CACHE_URL", "")
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_CACHE_URL}
    if REDIS_CACHE_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "preferans"}
}

# Celery: without a broker, tasks run in-process (eagerly) and need nothing installed.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Publishing gives up quickly when the broker is down: the caller then rescores in-process.
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
}
# With a broker, a rescore starts this many seconds after the first change it covers; changes meanwhile ride
# on it, so the standings trail the rows by about this much and a burst costs one rescore, not many.
RESCORE_DELAY = float(os.environ.get("RESCORE_DELAY", "3"))
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 2,
    "socket_timeout": 5,
    # A task taken by a worker that died is handed out again after this many seconds (acks are late).
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "600")),
    # How long the lock that guards that redelivery may be held by a worker that died holding it.
    "unacked_mutex_expire": int(os.environ.get("CELERY_UNACKED_MUTEX_EXPIRE", "60")),
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # One error shape for every 4xx: {"error": {"code", "message", "details": [...]}} (docs/api.md).
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_RATE_ANON", "300/min"),
        "user": os.environ.get("API_RATE_USER", "3000/min"),
        "player": os.environ.get("API_RATE_PLAYER", "120/min"),
    },
    "PAGE_SIZE": None,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Duplicate preferans API",
    "DESCRIPTION": "Tournaments, sessions, seating, protocol rows, confirmations, standings, adjustments and "
    "penalties. Errors: one shape (see /api/docs/).",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # One name for the set of seats, whichever field offers it (a pulka row's `dealt_by`, a seat elsewhere).
    "ENUM_NAME_OVERRIDES": {"SeatEnum": ["N", "E", "S", "W"]},
}

# Headers on every response, in development too (docs/deployment.md, «Security settings»). Scripts come only
# from our own static files: no inline script or handler anywhere (tests/e2e/test_csp.py).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; "
    "form-action 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'"
)
PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# Production hardening: on whenever DEBUG is off.
if not DEBUG:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
