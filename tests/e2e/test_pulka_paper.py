"""A pulka event's paper and links through the browser: a player's phone opens his own link (the QR code of his
PIN slip) and lands at his table's sheet; without a table it reads when to come back; a broken link says so;
the public round and player pages link each table's sheet once published; the director's rounds page offers the
round's table cards. Every page at phone width (390 px) without sideways scrolling, and the director's pages at a
desk's width. Screenshots go to test-artifacts/ (pulka-paper-*.png)."""

from __future__ import annotations

import random

import pytest
from django.utils import timezone

from tests.e2e.conftest import OVERFLOW_JS, screenshot
from tests.e2e.conftest import login as log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def make_event(director):  # type: ignore[no-untyped-def]
    """A compensation event of 5 at a table of 4: round 1 played and ended, round 2 drawn (one has a bye each round)."""
    from pulkas.services import rounds
    from tests.pulkas.factory import play_to_the_end, pulka_event

    names = [f"Константинопольская {n}" for n in range(1, 6)]
    t = pulka_event(
        director,
        "compensation",
        5,
        4,
        name="Кубок Невы по преферансу",
        slug="neva",
        names=names,
        pool=4,
        rounds=3,
    )
    first = rounds.draw_round(tournament=t, user=director, now=timezone.now())
    play_to_the_end(t, director, first, random.Random(7), deals=3)
    rounds.draw_round(tournament=t, user=director, now=timezone.now())
    return t


def no_overflow(pg) -> None:  # type: ignore[no-untyped-def]
    assert pg.evaluate(OVERFLOW_JS) == []


def test_own_link_on_a_phone_and_the_public_sheet_links(phone, page, director) -> None:  # type: ignore[no-untyped-def]
    from events.publication import publish
    from pulkas.models import PulkaBye, PulkaTable
    from tournaments.models import Publication
    from tournaments.personal_links import personal_token

    director.set_password("pw-director-1")
    director.save()
    t = make_event(director)
    bye = PulkaBye.objects.get(round__tournament=t, round__number=2).participant
    first_bye = PulkaBye.objects.get(round__tournament=t, round__number=1).participant
    seated = t.participants.exclude(pk__in=[bye.pk, first_bye.pk]).first()
    phone.goto(f"/p/{personal_token(seated)}/")
    table = next(
        x
        for x in PulkaTable.objects.filter(round__tournament=t, round__number=2)
        if seated.pk in x.seat_ids().values()
    )
    assert phone.url.endswith(f"/pulka/{table.code}/")
    assert phone.locator("#unlock input[name=pin]").count() == 1  # the PIN is still needed
    phone.goto(f"/p/{personal_token(bye)}/")
    assert phone.locator("#personal").get_attribute("data-why") == "bye"
    no_overflow(phone)
    screenshot(phone, "pulka-paper-own-link-bye-phone")
    phone.goto("/p/1-1.forgedforgedforgedforged/")
    assert "Ссылка недействительна" in phone.locator("h1").inner_text()
    no_overflow(phone)
    screenshot(phone, "pulka-paper-own-link-invalid-phone")

    publish(tournament=t, to=Publication.PROVISIONAL, user=director, now=timezone.now())
    phone.goto(f"/t/{t.slug}/pulka/round/1/")
    links = phone.locator("a[data-sheet]")
    assert links.count() == 1
    no_overflow(phone)
    screenshot(phone, "pulka-paper-round-phone")
    links.first.click()
    phone.wait_for_url("**/pulka/*/")
    assert phone.locator("#unlock").count() == 0  # published: the sheet is there for anybody
    phone.goto(f"/t/{t.slug}/pulka/player/{seated.number}/")
    assert phone.locator("a[data-sheet='1']").count() == 1
    no_overflow(phone)
    screenshot(phone, "pulka-paper-player-phone")
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"/t/{t.slug}/pulka/round/1/")
    screenshot(page, "pulka-paper-round-desktop")
    page.goto(f"/t/{t.slug}/pulka/player/{seated.number}/")
    screenshot(page, "pulka-paper-player-desktop")
    page.goto(f"/p/{personal_token(bye)}/")
    screenshot(page, "pulka-paper-own-link-bye-desktop")

    log_in(phone, "director", "pw-director-1")
    phone.goto(f"/director/{t.slug}/pulka/?round=2")
    assert phone.locator("#round-files button[data-pdf]").count() == 3
    no_overflow(phone)
    screenshot(phone, "pulka-paper-rounds-phone")
    log_in(page, "director", "pw-director-1")
    page.goto(f"/director/{t.slug}/pulka/?round=2")
    bar = page.locator("#round-files")
    assert bar.locator("button[data-pdf=pulka_table_cards]").count() == 1
    screenshot(page, "pulka-paper-rounds-desktop")
    bar.locator("button[data-pdf=pulka_table_cards]").click()
    page.wait_for_url("**/exports/**")
    page.wait_for_selector("#jobs tr[data-status=done]", timeout=30000)
    screenshot(page, "pulka-paper-exports-desktop")
