"""The director's row form in Chromium: the third trick count appears as soon as the other two are chosen (as on the
players' phones), not at 4-player Sochi raspasy where all three are written; a raspasy left on «авто» is written on
the sheet; nothing needs sideways scrolling on a phone. Screenshots: test-artifacts/director-row-*.png."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.e2e.conftest import login, overflowing, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def pulka_table(director, per_table: int):  # type: ignore[no-untyped-def]
    from pulkas.services import rounds
    from tests.pulkas.factory import pulka_event

    t = pulka_event(director, "compensation", per_table, per_table, name=f"Кубок {per_table}")
    r = rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=5)
    rounds.start_round(pulka_round=r, user=director, now=timezone.now())
    return t, r.tables.get()


def test_the_third_count_follows_on_the_directors_sheet(page, phone, django_user_model):
    from pulkas.models import PulkaDeal

    director = django_user_model.objects.create_user("anna", password="pw-anna-12345")
    t3, table3 = pulka_table(director, 3)
    t4, _table4 = pulka_table(director, 4)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    login(page, "anna", "pw-anna-12345")
    page.goto(f"/director/{t3.slug}/pulka/r1/t1/")
    form = "#enter-form"
    assert page.locator(f"{form} select[name=enter-declarer_seat]").input_value() == ""  # «авто»
    page.select_option(f"{form} select[name=enter-contract]", "-")
    page.select_option(f"{form} select[name=enter-declarer_tricks]", "5")
    page.select_option(f"{form} select[name=enter-w1_tricks]", "1")
    third = page.locator(f"{form} select[name=enter-w2_tricks]")
    assert third.input_value() == "4"
    page.select_option(f"{form} select[name=enter-w1_tricks]", "3")
    assert third.input_value() == "2"  # follows while the director has not chosen it himself
    page.select_option(f"{form} select[name=enter-w1_tricks]", "6")
    assert third.input_value() == ""  # 5 + 6 is more than 10: nothing to show
    page.select_option(f"{form} select[name=enter-w1_tricks]", "2")
    screenshot(page, "director-row-sheet-1280")
    page.click(f"{form} button[type=submit]")
    page.wait_for_load_state()
    row = PulkaDeal.objects.get(table=table3, number=1).row
    assert [row[c][1] for c in ("declarer", "w1", "w2")] == [5, 2, 3] and row["declarer"][0] == "N"
    # a number chosen by hand stays
    page.select_option(f"{form} select[name=enter-contract]", "6S")
    page.select_option(f"{form} select[name=enter-w2_tricks]", "1")
    page.select_option(f"{form} select[name=enter-declarer_tricks]", "6")
    page.select_option(f"{form} select[name=enter-w1_tricks]", "2")
    assert third.input_value() == "1"
    # 4-player Sochi raspasy: all three are written, nothing follows
    page.goto(f"/director/{t4.slug}/pulka/r1/t1/")
    page.select_option(f"{form} select[name=enter-contract]", "-")
    page.select_option(f"{form} select[name=enter-declarer_tricks]", "3")
    page.select_option(f"{form} select[name=enter-w1_tricks]", "4")
    assert third.input_value() == ""
    page.select_option(f"{form} select[name=enter-contract]", "7S")
    assert third.input_value() == "3"
    page.select_option(f"{form} select[name=enter-contract]", "-")
    assert third.input_value() == ""  # the number it showed goes: at raspasy it is written by hand
    assert errors == []
    # on a phone: nothing cut off, nothing to scroll sideways
    login(phone, "anna", "pw-anna-12345")
    for slug in (t3.slug, t4.slug):
        phone.goto(f"/director/{slug}/pulka/r1/t1/")
        assert overflowing(phone) == []
    screenshot(phone, "director-row-sheet-390")
