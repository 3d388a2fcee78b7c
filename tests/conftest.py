"""Shared fixtures."""

from __future__ import annotations

import os
import shutil

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from tests.publishing import publish_to
from tournaments.models import Participant, Publication, Tournament


@pytest.fixture(autouse=True)
def _english_outside_requests():
    """Services called directly speak English in tests; pages still choose by request (Russian by default)."""
    from django.utils import translation

    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Wrong PINs and unknown table codes are counted in the cache per client (127.0.0.1 for every test): each
    test starts with none, so one test's deliberate misses never lock out the next test in the same process."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture
def director(db):
    return get_user_model().objects.create_user("director", password="pw-director-1")


@pytest.fixture
def other_user(db):
    return get_user_model().objects.create_user("someone", password="pw-someone-1")


@pytest.fixture
def tournament(db, director):
    t = Tournament.objects.create(name="Кубок клуба", slug="club-cup", variant="sochi")
    t.directors.add(director)
    for n, name in enumerate(["Иванов", "Петров", "Сидоров", "Кузнецов"], start=1):
        Participant.objects.create(tournament=t, number=n, name=name)
    return t


@pytest.fixture
def published(tournament, director):
    """The club cup with provisional results, published by its director."""
    return publish_to(tournament, Publication.PROVISIONAL, director, timezone.now())


def pytest_collection_modifyitems(config, items):
    """Tests that need real services or a browser run only where those exist (CI provides them)."""

    skip_redis = pytest.mark.skip(
        reason="set TEST_REDIS_URL (redis://127.0.0.1:6379/15) to run the Redis/Celery tests"
    )
    skip_e2e = pytest.mark.skip(reason="Debian's chromium is not installed (apt-get install chromium)")
    has_chromium = bool(os.environ.get("CHROMIUM_PATH") or shutil.which("chromium"))
    for item in items:
        if "redis" in item.keywords and not os.environ.get("TEST_REDIS_URL"):
            item.add_marker(skip_redis)
        # In CI a browser test that cannot run is a failure (tests/e2e/conftest.py's ``browser``), not a skip.
        if "e2e" in item.keywords and not has_chromium and not in_ci():
            item.add_marker(skip_e2e)


def in_ci() -> bool:
    """CI sets CI=true (.ci/run installs what the tests need there)."""
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")
