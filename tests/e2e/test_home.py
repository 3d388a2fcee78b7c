"""The public home page in a real browser."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_home_lists_the_demo_tournament(page):
    from io import StringIO

    from django.core.management import call_command

    call_command("seed_demo", stdout=StringIO())
    page.goto("/")
    assert page.locator("html").get_attribute("lang") == "ru"  # Russian by default
    assert page.locator("h1").count() == 1
    page.click("text=Демонстрационный турнир")
    expect(page.locator("h1")).to_contain_text("Демонстрационный турнир")  # the event's page, loaded
    assert page.locator("table.data").first.is_visible()
    screenshot(page, "home-demo-standings")
