"""An Olympic and a compensation event from creation to final and locked results, as a new director and the players
would run them: the director creates the event and registers the players on his pages, draws, starts, stops and
ends the rounds, publishes provisional, official and final results and locks the event; the players write their
deals on their phones and read the sheet; the public reads the final standings. Screenshots (test-artifacts/
pulka-final-*.png) at phone (390 px) and desktop (1366 px) widths."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import OVERFLOW_JS, screenshot
from tests.e2e.conftest import login as log_in
from tests.e2e.test_pulka_events import round_action, settings, tables_of, write_deal

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1366, "height": 900}


def create(page, name: str, form: str, per_table: int) -> str:  # type: ignore[no-untyped-def]
    """The director's «New tournament» page; corrections accepted for 0 minutes after the official results (the
    organisers' choice: the event closes the same evening)."""
    page.goto("/director/new/")
    page.fill("input[name=name]", name)
    page.select_option("select[name=form]", form)
    page.select_option("select[name=players_per_table]", str(per_table))
    page.fill("input[name=correction_minutes]", "0")
    page.click("main form button[type=submit].btn")
    page.wait_for_url("**/participants/")
    return page.url.rstrip("/").split("/")[-2]


def register(page, slug: str, count: int) -> None:  # type: ignore[no-untyped-def]
    """Each player typed into the participants page, one after the other."""
    for n in range(1, count + 1):
        page.goto(f"/director/{slug}/participants/")
        page.fill("input[name=number]", str(n))
        page.fill("input[name=name]", f"Игрок {n}")
        page.click("form:has(input[name=number]) button[type=submit]")
        page.wait_for_load_state()
    from tournaments.models import Tournament

    assert Tournament.objects.get(slug=slug).participants.count() == count


def publish(page, slug: str, step: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"/director/{slug}/publication/")
    confirm = page.locator(f"details#confirm-{step}")
    if confirm.count():  # a step that cannot be undone: open the confirmation, say why, confirm
        confirm.locator("summary").click()
        confirm.locator("textarea[name=reason]").fill("Итоги утверждены судейской коллегией")
    with page.expect_navigation():
        page.click(f"button[name=action][value={step}]")
    assert page.locator("ul.messages li.error").count() == 0, page.locator("ul.messages").inner_text()


def look_at(page, slug: str, name: str) -> None:  # type: ignore[no-untyped-def]
    """The publication page at both widths: nothing wider than the screen."""
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        page.goto(f"/director/{slug}/publication/")
        assert page.evaluate(OVERFLOW_JS) == [], label
        screenshot(page, f"pulka-final-{name}-{label}")
    page.set_viewport_size(DESKTOP)


def play(page, phone, slug: str, number: int, contracts: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    """Draw, start; every table writes its deals on a phone (the deal limit ends the pulka); end the round."""
    round_action(page, slug, "draw")
    round_action(page, slug, "start")
    for table in tables_of(slug, number):
        for contract in contracts:
            write_deal(phone, table, contract)
    round_action(page, slug, "end")


def finish_publishing(page, phone, slug: str, name: str) -> None:  # type: ignore[no-untyped-def]
    from tournaments.models import Tournament

    publish(page, slug, "official")
    look_at(page, slug, f"{name}-official")
    publish(page, slug, "final")
    publish(page, slug, "lock")
    look_at(page, slug, f"{name}-locked")
    t = Tournament.objects.get(slug=slug)
    assert (t.publication, t.is_locked) == ("final", True)
    assert page.locator("button[name=action]").count() == 0  # a locked event offers nothing to press
    # The public reads the final standings on a phone; a player's sheet is open to all now.
    phone.goto(f"/t/{slug}/pulka/")
    assert "Окончательные" in phone.content() and phone.evaluate(OVERFLOW_JS) == []
    screenshot(phone, f"pulka-final-{name}-public-standings-phone")
    table = tables_of(slug, 1)[0]
    phone.context.clear_cookies()  # a stranger's phone, not a player's
    phone.goto(f"/pulka/{table.code}/")
    assert phone.locator("svg").count() >= 1 and phone.evaluate(OVERFLOW_JS) == []
    screenshot(phone, f"pulka-final-{name}-sheet-phone")


def test_a_compensation_event_from_creation_to_final_and_locked(page, phone, django_user_model):
    django_user_model.objects.create_user("kira", password="pw-kira-12345")
    log_in(page, "kira", "pw-kira-12345")
    slug = create(page, "Компенсационный вечер", "compensation", 4)
    register(page, slug, 8)
    settings(page, slug, pool="10", max_deals="1", rounds="2", round_minutes="60")
    play(page, phone, slug, 1, ("7S",))
    publish(page, slug, "provisional")
    # One round of two: official results must wait, and the page says so.
    page.goto(f"/director/{slug}/publication/")
    assert page.locator("button[name=action][value=official]").is_disabled()
    assert "все туры турнира" in page.content()
    look_at(page, slug, "compensation-provisional")
    play(page, phone, slug, 2, ("6H",))
    finish_publishing(page, phone, slug, "compensation")


def test_an_olympic_event_from_creation_to_final_and_locked(page, phone, django_user_model):
    django_user_model.objects.create_user("oleg", password="pw-oleg-12345")
    log_in(page, "oleg", "pw-oleg-12345")
    slug = create(page, "Олимпийский вечер", "olympic", 3)
    register(page, slug, 9)
    settings(page, slug, pool="10", max_deals="2", round_minutes="60")
    play(page, phone, slug, 1, ("7S", "6S"))
    publish(page, slug, "provisional")
    page.goto(f"/director/{slug}/publication/")
    assert page.locator("button[name=action][value=official]").is_disabled()
    assert "финал сыгран" in page.content()
    play(page, phone, slug, 2, ("6H", "7C"))  # the final
    finish_publishing(page, phone, slug, "olympic")
