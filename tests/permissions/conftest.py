"""The data of the permission tests, built once a test module (``world.build``) and removed after it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import override_settings

from tests.permissions.pages_admin import ADMIN_MODELS
from tests.permissions.world import World, build, counts, snapshot, tear_down


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[World]:
    media = override_settings(MEDIA_ROOT=tmp_path_factory.mktemp("media"))
    media.enable()
    try:
        with django_db_blocker.unblock():
            before = counts()
            try:
                built = build(ADMIN_MODELS)
            except BaseException:
                tear_down(before)
                raise
        yield built
    finally:
        with django_db_blocker.unblock():
            tear_down(before)
        media.disable()


@pytest.fixture(scope="module")
def baseline(world, django_db_blocker) -> dict[str, list[tuple[Any, ...]]]:
    """The database as every test starts with it (each test is rolled back)."""
    with django_db_blocker.unblock():
        return snapshot()


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Rate limits (table codes, PINs) count in the cache: every test starts with none."""
    cache.clear()
    yield
    cache.clear()
