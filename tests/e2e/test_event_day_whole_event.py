"""Issue 17's acceptance: a whole small event run through the UI as the director and the players run it.

The director creates the event, imports a participants file whose headers the app has never seen, makes PINs, chooses
the movement and seats the field; two rounds are entered and confirmed on phones at the tables (one row disputed and
settled by the director from the dashboard's alert); the publication with a missing row is refused until the director
acknowledges it. Every page is photographed at phone and desktop widths (``test-artifacts/whole-event-*``), and the
test fails if any table on a page is wider than the screen.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import login as log_in
from tests.e2e.conftest import overflowing, screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTHS = (360, 1280)
PASSWORD = "pw-anna-12345"
# Thirteen players, as the Sochi event: three 4-player tables and one rests each round.
CSV = "№;Фамилия Имя;Город;Номер ФСП;Разряд\n" + "".join(
    f"{n};Игроков-{n} Игорь;Сочи;{7000 + n};КМС\n" for n in range(1, 14)
)


def look(pg, name: str) -> None:  # type: ignore[no-untyped-def]
    """The page at both widths: photographed, and nothing on it wider than the screen."""
    for width in WIDTHS:
        pg.set_viewport_size({"width": width, "height": 800 if width < 500 else 900})
        pg.wait_for_timeout(150)  # the layout settles (no reload: a page may be the answer to a POST)
        screenshot(pg, f"whole-event-{name}-{width}")
        assert overflowing(pg) == [], f"{name} at {width}px: {overflowing(pg)}"


def pick(pg, board: int, name: str, value: str | None = None) -> None:  # type: ignore[no-untyped-def]
    """Tap a choice of the phone form (the radio's label); value None: the first one offered."""
    radios = pg.locator(f"#board-{board} input[name={name}]")
    radio = (
        radios.first if value is None else pg.locator(f"#board-{board} input[name={name}][value='{value}']")
    )
    radio.locator("xpath=..").click()


def enter_row(pg, board: int, declarer_tricks: int, pin: str) -> None:  # type: ignore[no-untyped-def]
    """The player at N enters one deal: 6♠ by the first active seat, both defenders whist, closed."""
    if pg.locator(f"#board-{board}").get_attribute("open") is None:
        pg.locator(f"#board-{board} > summary").click()
    pick(pg, board, "contract", "6S")
    pick(pg, board, "declarer")
    pick(pg, board, "call1", "whist")
    pick(pg, board, "call2", "whist")
    pg.fill(f"#board-{board} input[name=t1]", str(declarer_tricks))
    pg.fill(f"#board-{board} input[name=t2]", "2")
    pg.wait_for_selector(f"#board-{board} .tb-preview table.tb-vists")
    pin_field = pg.locator(f"#board-{board} input[name=pin]")
    if pin_field.count():  # the first row of the round; then the phone knows the player at N
        pin_field.fill(pin)
    pg.click(f"#board-{board} [data-role=save]")
    pg.wait_for_selector(f"#board-{board} .tb-badge-wait")  # stored, waiting for the opponents
    assert pg.locator("[data-role=saved]").is_visible()


def confirm_all(pg, number: int, pin: str) -> None:  # type: ignore[no-untyped-def]
    form = pg.locator("form.tb-all")
    form.locator("select[name=number]").select_option(str(number))
    form.locator("input[name=pin]").fill(pin)
    form.locator("button[value=confirm_all]").click()
    pg.wait_for_load_state()


def play_round(browser, live_server, session, rnd: int, *, skip=(), dispute=None) -> None:  # type: ignore[no-untyped-def]
    """Each table's phone (a 360 px screen of its own) enters the round's boards and the table confirms them."""
    from boards.models import Board

    for seating in session.seatings.filter(round_number=rnd).order_by("table_number"):
        table = session.tables.get(number=seating.table_number)
        ctx = browser.new_context(
            base_url=live_server.url,
            locale="ru-RU",
            viewport={"width": 360, "height": 740},
            is_mobile=True,
            has_touch=True,
        )
        pg = ctx.new_page()
        pg.set_default_timeout(15000)
        pg.goto(f"/table/{table.code}/")
        boards = Board.objects.filter(session=session, set_number=seating.set_number).order_by("number")
        north, east = seating.seat_n, seating.seat_e
        for i, board in enumerate(boards):
            if (seating.table_number, board.number) in skip:
                continue
            enter_row(pg, board.number, 6 + (seating.table_number + i + rnd) % 2, north.pin)
            if i == 0 and rnd == 1:
                screenshot(pg, f"whole-event-phone-saved-t{seating.table_number}-360")
        if dispute and dispute[0] == seating.table_number:
            card = pg.locator(f"#board-{dispute[1]}")
            if card.get_attribute("open") is None:
                card.locator("> summary").click()
            form = card.locator("form.tb-confirm")
            form.locator("select[name=number]").select_option(str(east.number))
            form.locator("input[name=pin]").fill(east.pin)
            form.locator("details.tb-dispute > summary").click()
            form.locator("textarea[name=reason]").fill("Взяток у разыгрывающего было 7, не 6")
            form.locator("button[value=dispute]").click()
            pg.wait_for_load_state()
        if pg.locator("form.tb-all").count():
            screenshot(pg, f"whole-event-phone-confirm-all-r{rnd}-t{seating.table_number}-360")
            confirm_all(pg, east.number, east.pin)
            assert pg.locator("form.tb-all").count() == 0
        assert overflowing(pg) == []
        ctx.close()


def test_a_whole_small_event_through_the_ui(page, browser, live_server, django_user_model):
    from scoring.models import Result
    from tournaments.models import Publication, Tournament

    django_user_model.objects.create_user("anna", password=PASSWORD)
    log_in(page, "anna", PASSWORD)

    # The event: 4-player tables, two deals a set, one opponent's confirmation closes a row.
    page.goto("/director/new/")
    page.fill("input[name=name]", "Кубок Сочи")
    page.fill("input[name=venue]", "Сочи, клуб «Пуля»")
    page.fill("input[name=deals_per_set]", "2")
    page.select_option("select[name=confirmation]", "one")
    page.click("button[type=submit].btn")
    page.wait_for_url("**/participants/")
    t = Tournament.objects.get(name="Кубок Сочи")
    assert t.confirmation == "one" and t.deals_per_set == 2

    # Participants from a file with headers the app has never seen: the mapping says what is read and what is not.
    page.goto(f"/director/{t.slug}/participants/import/")
    page.set_input_files(
        "input[name=file]",
        files=[{"name": "участники.csv", "mimeType": "text/csv", "buffer": CSV.encode("cp1251")}],
    )
    page.click("form[enctype] button[type=submit]")
    assert "«Разряд»" in page.locator("#ignored").inner_text()
    look(page, "import-preview")
    page.click("button[name=confirm]")
    page.wait_for_url("**/participants/")
    assert t.participants.count() == 13
    assert t.participants.get(number=5).federation_id == "7005"
    page.click("form button.btn-secondary")  # PINs for everyone without one
    page.goto(f"/director/{t.slug}/participants/")
    look(page, "participants")
    page.goto(f"/director/{t.slug}/participants/pins/")
    look(page, "pins")

    # The movement: the planner's choice for 13 (the book's scheme: three tables, one rests each round); the seating
    # says who rests. The test plays its first two rounds and publishes provisional results after them.
    page.goto(f"/director/{t.slug}/")
    page.click(".d-tabs a[href$='/movement/']")
    page.check("input[name=scheme][value=auto]")
    page.click("form.dform button[type=submit]")
    page.wait_for_url("**/seating/")
    assert "Отдыха" in page.locator("main").inner_text()
    look(page, "seating")
    session = t.sessions.get(number=1)

    # Round 1: started from the dashboard, played on the phones, one row disputed.
    page.goto(f"/director/{t.slug}/")
    page.click(".d-next button[type=submit]")
    page.wait_for_selector(".countdown")
    look(page, "dashboard-round1")
    table2 = session.seatings.get(round_number=1, table_number=2)
    disputed_board = session.boards.filter(set_number=table2.set_number).order_by("number").first().number
    play_round(browser, live_server, session, 1, dispute=(2, disputed_board))
    row = Result.objects.get(session=session, round_number=1, table_number=2, board_number=disputed_board)
    assert row.status == "disputed"
    assert Result.objects.filter(session=session, round_number=1, status="confirmed").count() == 5

    # From the alert to a settled dispute: two clicks.
    page.goto(f"/director/{t.slug}/")
    alert = page.locator(".alerts li", has_text="Взяток у разыгрывающего было 7")
    look(page, "dashboard-dispute")
    alert.locator("a").click()  # 1
    page.locator(f"#board-{disputed_board} button", has_text="Принять как записано").click()  # 2
    page.wait_for_load_state()
    row.refresh_from_db()
    assert row.status == "confirmed"
    look(page, "table-round-after-dispute")

    # Round 1 is complete: it ends without a question; the hand-over names the resting player's return.
    page.goto(f"/director/{t.slug}/")
    assert page.locator(".d-next input[name=acknowledged]").count() == 0
    page.click(".d-next button[type=submit]")
    page.wait_for_url("**/handover/")
    look(page, "handover")

    # Round 2 with one row never entered (table 3's last board): ending it asks first.
    page.goto(f"/director/{t.slug}/")
    page.click(".d-next button[type=submit]")
    page.wait_for_selector(".countdown")
    last = session.seatings.get(round_number=2, table_number=3)
    missing = session.boards.filter(set_number=last.set_number).order_by("number").last().number
    play_round(browser, live_server, session, 2, skip={(3, missing)})
    assert Result.objects.filter(session=session, round_number=2).count() == 5
    page.goto(f"/director/{t.slug}/")
    assert "не введено: 1" in page.locator(".gaps").inner_text()
    look(page, "dashboard-round2-gap")
    page.check(".d-next input[name=acknowledged]")
    page.click(".d-next button[type=submit]")
    page.wait_for_url("**/handover/")

    # Publication with the missing row: refused until the director says he knows.
    page.goto(f"/director/{t.slug}/publication/")
    assert "не введено: 1" in page.locator(".gaps").inner_text()
    look(page, "publication-gap")
    page.evaluate("document.querySelector('input[name=acknowledged]').removeAttribute('required')")
    page.click("button[name=action][value=provisional]")
    page.wait_for_load_state()
    t.refresh_from_db()
    assert t.publication == Publication.DRAFT
    assert page.locator(".gaps").count() == 1
    page.check("input[name=acknowledged]")
    page.click("button[name=action][value=provisional]")
    page.wait_for_load_state()
    t.refresh_from_db()
    assert t.publication == Publication.PROVISIONAL

    # Every results page, the director's and the public ones, at both widths.
    for path, name in (
        ("standings/", "director-standings"),
        (f"s/1/boards/{missing - 1}/", "director-board"),
        ("audit/", "audit"),
    ):
        page.goto(f"/director/{t.slug}/{path}")
        look(page, name)
    for path, name in (
        ("standings/", "standings"),
        ("boards/", "boards"),
        (f"boards/{disputed_board}/", "protocol"),
        (f"players/{table2.seat_e.number}/", "personal-card"),
        ("frequencies/", "frequencies"),
    ):
        page.goto(f"/t/{t.slug}/{path}")
        assert page.locator("table").count() >= (name != "boards"), name  # the board list is a list of links
        look(page, name)
