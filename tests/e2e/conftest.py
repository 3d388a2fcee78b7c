"""Browser tests: Playwright drives Debian's Chromium (no browser download), headless, against live_server.

Screenshots go to ``test-artifacts/`` (kept by CI as artifacts; look at them).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import in_ci

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make are still synchronous.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    return os.environ.get("CHROMIUM_PATH") or shutil.which("chromium")


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    if not path:
        if in_ci():
            pytest.fail(
                "CI=true but Debian's chromium is not installed: .ci/run installs it (apt-get install chromium)"
            )
        pytest.skip("Debian's chromium is not installed")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(autouse=True)
def _no_browser_outlives_the_test(request, transactional_db):  # type: ignore[no-untyped-def]
    """Close every browser context a test opened (also when it failed) before its database is torn down: a page
    left open keeps polling (the dashboard, the projector, the phone's outbox) and its requests would reach the
    live server after the test, failing a later one."""
    yield
    if "browser" in request.fixturenames:
        for context in list(request.getfixturevalue("browser").contexts):
            context.close()


@pytest.fixture
def page(browser, live_server):  # type: ignore[no-untyped-def]
    """A fresh browser context (desktop size, Russian) whose base URL is the live server."""
    context = browser.new_context(
        base_url=live_server.url, locale="ru-RU", viewport={"width": 1280, "height": 900}
    )
    pg = context.new_page()
    pg.set_default_timeout(15000)
    yield pg
    context.close()


@pytest.fixture
def phone(browser, live_server):  # type: ignore[no-untyped-def]
    """A phone-sized context (390×844, touch), for the players' table-entry pages."""
    context = browser.new_context(
        base_url=live_server.url,
        locale="ru-RU",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    pg = context.new_page()
    pg.set_default_timeout(15000)
    yield pg
    context.close()


def screenshot(pg, name: str) -> Path:  # type: ignore[no-untyped-def]
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    pg.screenshot(path=str(path), full_page=True)
    return path


def login(pg, username: str, password: str) -> None:  # type: ignore[no-untyped-def]
    pg.goto("/accounts/login/")
    pg.fill("input[name=username]", username)
    pg.fill("input[name=password]", password)
    pg.click("main form button[type=submit]")
    pg.wait_for_url(lambda url: "/accounts/login/" not in url)


# What on the page is wider than the screen: the page itself, and every visible table (a results table inside a
# scrolling box counts too: the player would have to scroll it sideways).
OVERFLOW_JS = """() => {
  const w = document.documentElement.clientWidth, bad = [];
  if (document.documentElement.scrollWidth > w + 1) bad.push(`page ${document.documentElement.scrollWidth}px`);
  for (const t of document.querySelectorAll('table')) {
    const r = t.getBoundingClientRect();
    if (r.width && (r.right > w + 1 || r.left < -1)) bad.push(`table#${t.id || t.className} ${Math.round(r.right)}px`);
  }
  return bad;
}"""


def overflowing(pg) -> list[str]:  # type: ignore[no-untyped-def]
    return list(pg.evaluate(OVERFLOW_JS))
