"""Issue 30: another event run as a new director would run it, in English (the browser asks for en-US).

A duplicate event of 24 players in two rooms (2 rooms × 3 tables of 4, the basic movement on the same boards,
shortened to 2 rounds, one deal a set), then a compensation event of 7 (a table of 4 and one of 3, one round).
Everything the director does is a click from the home page, no address typed; the players open their table from the
home page by its code on a phone (390×844) and enter and confirm their rows with their PINs. The pages are
photographed at 390 and 1366 px (``test-artifacts/english-*``); every page must be English (no Cyrillic: the
players' names are Latin) and no table on it wider than the screen.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import overflowing, screenshot
from tests.e2e.test_event_day_whole_event import enter_row
from tests.e2e.test_pulka_events import write_deal

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTHS = (390, 1366)
PASSWORD = "pw-emma-12345"
NAMES = [
    "Alice Archer", "Ben Brooks", "Carol Carter", "Dan Dixon", "Eve Evans", "Frank Foster", "Grace Gray",
    "Hugo Hall", "Iris Irving", "Jack Jones", "Kate King", "Liam Lowe", "Mia Moore", "Noah Nash",
    "Olga Orlova", "Paul Price", "Quinn Quaid", "Rose Reed", "Sam Stone", "Tara Todd", "Uma Underwood",
    "Victor Vance", "Wendy West", "Xavier Young",
]  # fmt: skip
CYRILLIC = re.compile(r"[А-Яа-яЁё]+")
WRONG_PLURAL = re.compile(r"\b1 (rounds|tables|boards|deals|players|participants|results|sets)\b")


# The page's text but what is marked as another language (the language switch names «Русский» in Russian).
VISIBLE_ENGLISH_JS = """() => {
  let text = document.body.innerText;
  for (const el of document.body.querySelectorAll('[lang]:not([lang^="en"])')) {
    if (el.innerText) text = text.split(el.innerText).join(' ');
  }
  return text;
}"""


def english_only(pg, name: str) -> None:  # type: ignore[no-untyped-def]
    """The page speaks English: no Russian word, no «1 rounds»."""
    pg.wait_for_load_state("load")  # a click may still be on its way to the next page
    pg.wait_for_selector("body footer")
    text = pg.evaluate(VISIBLE_ENGLISH_JS)
    assert not CYRILLIC.findall(text), (
        f"{name}: Russian on an English page: {sorted(set(CYRILLIC.findall(text)))}"
    )
    assert not WRONG_PLURAL.findall(text), f"{name}: {WRONG_PLURAL.findall(text)}"


def look(pg, name: str) -> None:  # type: ignore[no-untyped-def]
    """The page at both widths: photographed, English, and nothing on it wider than the screen."""
    english_only(pg, name)
    size = pg.viewport_size
    for width in WIDTHS:
        pg.set_viewport_size({"width": width, "height": 844 if width < 500 else 900})
        pg.wait_for_timeout(100)  # the layout settles (no reload: the page may be the answer to a POST)
        screenshot(pg, f"english-{name}-{width}")
        assert overflowing(pg) == [], f"{name} at {width}px: {overflowing(pg)}"
    pg.set_viewport_size(size)


def english(browser, live_server, width: int = 1366, height: int = 900, *, phone: bool = False):  # type: ignore[no-untyped-def]
    ctx = browser.new_context(
        base_url=live_server.url,
        locale="en-US",
        viewport={"width": width, "height": height},
        is_mobile=phone,
        has_touch=phone,
    )
    pg = ctx.new_page()
    pg.set_default_timeout(15000)
    return pg


def open_table(pg, code: str) -> None:  # type: ignore[no-untyped-def]
    """A player at the table: the home page's «Open a table by its code», the code from the table card."""
    pg.goto("/")
    pg.click("#home-table a")
    pg.fill("input[name=code]", code)
    with pg.expect_navigation():
        pg.click("main form button[type=submit]")


def log_in_from_home(page) -> None:  # type: ignore[no-untyped-def]
    page.goto("/")
    look(page, "home")
    page.click("header a[href^='/accounts/login/']")
    page.fill("input[name=username]", "emma")
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.click("main form button[type=submit]")
    assert page.url.endswith("/director/")


def import_players(page, names: list[str], *, shot: str = "") -> None:  # type: ignore[no-untyped-def]
    lines = "No;Name;Club\n" + "".join(f"{n};{name};Club {n % 3}\n" for n, name in enumerate(names, 1))
    page.set_input_files(
        "input[name=file]",
        files=[{"name": "players.csv", "mimeType": "text/csv", "buffer": lines.encode("utf-8")}],
    )
    page.click("form[enctype] button[type=submit]")
    expect(page.locator("#preview tbody tr")).to_have_count(len(names))
    if shot:
        look(page, shot)
    page.click("button[name=confirm]")
    page.wait_for_url("**/participants/")


def play_round(browser, live_server, session, rnd: int, phones: dict) -> None:  # type: ignore[no-untyped-def]
    """Each table's phone (one a table, kept for the session) enters the round's boards; an opponent confirms them
    all with his PIN. The first phone opens its table from the home page by the code; the others scan the table
    card's QR code (its address)."""
    from boards.models import Board

    for seating in session.seatings.filter(round_number=rnd).order_by("room", "table_number"):
        table = session.tables.get(room=seating.room, number=seating.table_number)
        pg = phones.get(table.pk)
        if pg is None:
            pg = phones[table.pk] = english(browser, live_server, 390, 844, phone=True)
            if len(phones) == 1:
                open_table(pg, table.code)
            else:
                pg.goto(f"/table/{table.code}/")
        else:
            pg.reload()
        shots = rnd == 1 and (seating.room, seating.table_number) == (2, 1)
        if shots:
            assert "room 2" in pg.locator("h1").inner_text()
            look(pg, "phone-table")
        boards = Board.objects.filter(session=session, set_number=seating.set_number).order_by("number")
        for i, board in enumerate(boards):
            tricks = 6 + (seating.room + seating.table_number + i + rnd) % 3
            enter_row(pg, board.number, tricks, seating.seat_n.pin)
        if shots:
            look(pg, "phone-entered")
        form = pg.locator("form.tb-all")
        form.locator("select[name=number]").select_option(str(seating.seat_e.number))
        form.locator("input[name=pin]").fill(seating.seat_e.pin)
        with pg.expect_navigation():
            form.locator("button[value=confirm_all]").click()
        expect(pg.locator("form.tb-all")).to_have_count(0)
        english_only(pg, "phone-confirmed")


def test_a_new_director_runs_a_two_room_event_in_english(browser, live_server, django_user_model):
    from scoring.models import Result
    from tournaments.models import Publication, Tournament

    django_user_model.objects.create_user("emma", password=PASSWORD)
    page = english(browser, live_server)
    log_in_from_home(page)
    look(page, "director-index")
    page.click("header a[href='/director/new/']")
    look(page, "create")
    page.fill("input[name=name]", "Autumn Pairs Cup")
    page.fill("input[name=venue]", "London, The Grand Slam club")
    page.fill("input[name=deals_per_set]", "1")
    page.select_option("select[name=confirmation]", "one")
    page.click("button[type=submit].btn")
    page.wait_for_url("**/participants/")
    t = Tournament.objects.get(name="Autumn Pairs Cup")
    assert t.language == "en"  # its printed results speak the director's language

    import_players(page, NAMES, shot="import-preview")
    look(page, "participants")
    assert t.participants.count() == 24 and all(p.pin for p in t.participants.all())
    page.click("a[href$='/participants/pins/']")
    english_only(page, "pins")

    # Two rooms on the same boards: the basic movement on 3 tables a room, shortened to 2 rounds.
    page.click(".d-tabs a[href$='/movement/']")
    look(page, "movement")
    page.check("input[name=scheme][value=basic]")
    page.fill("input[name=tables]", "3")
    page.fill("input[name=rooms]", "2")
    page.fill("input[name=rounds]", "2")
    page.click("form.dform button[type=submit]")
    page.wait_for_url("**/seating/")
    look(page, "seating")
    session = t.sessions.get(number=1)
    assert sorted(session.tables.values_list("room", "number")) == [(r, n) for r in (1, 2) for n in (1, 2, 3)]

    phones: dict = {}
    for rnd in (1, 2):
        page.click(".d-tabs a >> nth=0")
        page.click(".d-next button[type=submit]")  # Start round N
        expect(page.locator(".countdown")).to_have_count(1)
        if rnd == 1:
            look(page, "dashboard-round1")
        play_round(browser, live_server, session, rnd, phones)
        page.reload()
        assert "All results of round" in page.locator(".d-next").inner_text()
        with page.expect_navigation():
            page.click(".d-next button[type=submit]")  # End round N
        if rnd == 1:  # the hand-over names each table's room
            look(page, "handover")
            assert page.locator("table.handover thead th").first.inner_text() == "Room"
            assert page.locator("table.handover tbody tr").count() == 6
    assert Result.objects.filter(session=session, status="confirmed").count() == 12
    english_only(page, "dashboard-over")

    page.click(".d-tabs a[href$='/standings/']")
    expect(page.locator("#standings-state .dot-ok")).to_have_count(1)
    look(page, "director-standings")
    page.click(".d-tabs a[href$='/publication/']")
    with page.expect_navigation():
        page.click("button[name=action][value=provisional]")
    with page.expect_navigation():
        page.click("button[name=action][value=official]")
    look(page, "published")
    t.refresh_from_db()
    assert t.publication == Publication.OFFICIAL
    page.click(f"main a[href='/t/{t.slug}/']")
    assert page.locator("#event-standings tbody tr").count() == 24
    look(page, "public-event")


def test_a_compensation_event_in_english(browser, live_server, django_user_model):
    from pulkas.models import PulkaTable
    from tournaments.models import Publication, Tournament

    django_user_model.objects.create_user("emma", password=PASSWORD)
    page = english(browser, live_server)
    log_in_from_home(page)
    page.click("header a[href='/director/new/']")
    page.fill("input[name=name]", "Winter Pulka Evening")
    page.select_option("select[name=form]", "compensation")
    page.click("button[type=submit].btn")
    page.wait_for_url("**/participants/")
    t = Tournament.objects.get(name="Winter Pulka Evening")
    assert t.language == "en"
    import_players(page, NAMES[:7])
    page.click(".d-tabs a >> nth=0")
    look(page, "pulka-rounds-empty")
    page.click(".d-standings a[href$='/pulka/settings/']")
    look(page, "pulka-settings")
    page.fill("input[name=pool]", "10")
    page.fill("input[name=rounds]", "1")
    page.fill("input[name=round_minutes]", "45")
    with page.expect_navigation():
        page.click("main form button[type=submit].btn")
    page.click(".d-tabs a >> nth=0")
    with page.expect_navigation():
        page.click("#draw-form button[type=submit]")
    with page.expect_navigation():
        page.click("button[name=action][value=start]")
    look(page, "pulka-running")
    tables = list(PulkaTable.objects.filter(round__tournament=t).order_by("number"))
    assert sorted(table.players for table in tables) == [3, 4]
    for i, table in enumerate(tables):
        pg = english(browser, live_server, 390, 844, phone=True)
        open_table(pg, table.code)
        write_deal(pg, table, "7S", open_page=False)
        if i == 0:
            english_only(pg, "pulka-phone")
            screenshot(pg, "english-pulka-phone-390")
        pg.context.close()
    page.locator("details#confirm-stop summary").click()
    with page.expect_navigation():
        page.click("button[name=action][value=stop]")
    with page.expect_navigation():
        page.click("button[name=action][value=end]")
    look(page, "pulka-ended")
    assert "The only round has been played." in page.locator(".d-next").inner_text()
    page.click(".d-tabs a[href$='/pulka/standings/']")
    look(page, "pulka-standings")
    assert page.locator("#standings tbody tr").count() == 7
    page.click(".d-tabs a[href$='/publication/']")
    with page.expect_navigation():
        page.click("button[name=action][value=provisional]")
    with page.expect_navigation():
        page.click("button[name=action][value=official]")
    t.refresh_from_db()
    assert t.publication == Publication.OFFICIAL
    page.click(f"main a[href='/t/{t.slug}/']")
    look(page, "pulka-public-event")
