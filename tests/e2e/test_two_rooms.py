"""A two-room event in a real browser (seed 004 §2, §5 procedure 2): two rooms play the same boards
and are compared as one field.

The director registers 88 participants; the planner offers 2 rooms × 11 tables of 4, and seats everyone. Round 1
starts; the table cards and the dashboard are per room. Table 1 of room 1 and table 1 of room 2 enter board 1 at
their tables' pages — the same board, table number and round in both rooms. The standings compare the two rows
as one field: a room-2 player earns his matchpoints against room 1.
"""

from __future__ import annotations

import io

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import login as log_in
from tests.e2e.conftest import screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def pick(pg, board: int, name: str, value: str) -> None:  # type: ignore[no-untyped-def]
    pg.locator(f"#board-{board} input[name={name}][value='{value}']").locator("xpath=..").click()


def enter_at_table(pg, code, *, board, declarer, tricks, pin) -> None:  # type: ignore[no-untyped-def]
    """A player enters a 6♠ with both defenders whisting on his table's page (the defenders split the rest)."""
    pg.goto(f"/table/{code}/")
    pick(pg, board, "contract", "6S")
    pick(pg, board, "declarer", declarer)
    pick(pg, board, "call1", "whist")
    pick(pg, board, "call2", "whist")
    pg.fill(f"#board-{board} input[name=t1]", str(tricks))
    pg.fill(f"#board-{board} input[name=t2]", str((10 - tricks) // 2))
    pg.wait_for_selector(f"#board-{board} .tb-preview table.tb-vists")
    pg.fill(f"#board-{board} input[name=pin]", pin)
    pg.click(f"#board-{board} [data-role=save]")
    pg.wait_for_selector(f"#board-{board} .tb-badge-wait")


def test_rule_2_two_rooms_run_end_to_end_as_one_field(page, phone, django_user_model):
    """Seed 004 §2: «При игре в нескольких комнатах … полагается скопировать игранную сдачу в аналогичные коробки,
    передающиеся затем в другие комнаты, чтобы там играли на тех же раскладах»; §5, procedure 2: «Разбить игроков
    на несколько комнат с простым числом столов». The rooms' results of a board are compared together (one field,
    formats.md §2.1), not room by room."""
    from pypdf import PdfReader

    from results.models import ExportJob
    from scoring.models import Result, Standing
    from tournaments.models import Participant, Seating, Table, Tournament

    django_user_model.objects.create_user("rita", password="pw-rita-12345")
    log_in(page, "rita", "pw-rita-12345")
    page.goto("/director/new/")
    page.fill("input[name=name]", "Турнир в двух залах")
    page.click("button[type=submit].btn")
    page.wait_for_url("**/participants/")
    t = Tournament.objects.get(name="Турнир в двух залах")

    lines = "№;ФИО\n" + "".join(f"{n};Игрок {n}\n" for n in range(1, 89))
    page.set_input_files(
        "input[name=file]",
        files=[{"name": "players.csv", "mimeType": "text/csv", "buffer": lines.encode("utf-8")}],
    )
    page.click("form[enctype] button[type=submit]")
    page.click("button[name=confirm]")
    page.wait_for_url("**/participants/")
    assert t.participants.count() == 88
    Participant.objects.filter(tournament=t).update(pin="4321")

    # The planner offers two rooms on the same boards; the director takes its suggestion.
    page.click(".d-tabs a[href$='/movement/']")
    assert "2" in page.locator(".suggestion").inner_text()
    page.check("input[name=scheme][value=auto]")
    page.click("form.dform button[type=submit]")
    page.wait_for_url("**/seating/")
    session = t.sessions.get(number=1)
    assert sorted(Table.objects.filter(session=session).values_list("room", "number")) == [
        (room, table) for room in (1, 2) for table in range(1, 12)
    ]
    assert page.locator(".codechip").count() == 22
    screenshot(page, "two-rooms-seating")

    # The table cards: one page per table of each room, the room in the heading.
    page.goto(f"/t/{t.slug}/exports/")
    page.locator('form[data-kind="table_cards"] button[value="pdf"]').click()
    page.wait_for_selector("tr[data-status=done] a.btn")
    job = ExportJob.objects.get(kind="table_cards")
    with job.file.open("rb") as pdf:
        text = pdf.read()
    job.file.delete(save=False)  # keep the project's media/ clean
    pages = PdfReader(io.BytesIO(text)).pages
    assert len(pages) == 22
    headings = [page_.extract_text().split("\n") for page_ in pages]
    assert sum(any("Стол 1 · Зал 2" in line for line in lines) for lines in headings) == 1
    assert sum(any("Зал 1" in line for line in lines) for lines in headings) == 11

    # Round 1; the dashboard shows each room's tables under the room's heading.
    page.goto(f"/director/{t.slug}/")
    page.click(".d-next button[type=submit]")
    page.wait_for_selector(".countdown")
    assert page.locator(".room-tables").count() == 2
    assert page.locator(".room-tables[data-room='2'] .tcard").count() == 11
    screenshot(page, "two-rooms-dashboard")

    # The same board, table number and round in both rooms, entered at each table's own page.
    one = Seating.objects.get(session=session, room=1, round_number=1, table_number=1)
    two = Seating.objects.get(session=session, room=2, round_number=1, table_number=1)
    assert one.set_number == two.set_number  # the rooms play the same boards
    board = 4 * (one.set_number - 1) + 1
    dealer = session.boards.get(number=board).dealer
    declarer = next(s for s in ("N", "E", "S", "W") if s != dealer)
    code1 = Table.objects.get(session=session, room=1, number=1).code
    code2 = Table.objects.get(session=session, room=2, number=1).code
    enter_at_table(phone, code1, board=board, declarer=declarer, tricks=6, pin="4321")
    enter_at_table(phone, code2, board=board, declarer=declarer, tricks=8, pin="4321")
    assert "2" in phone.locator(".tb-head h1").inner_text()
    screenshot(phone, "two-rooms-table-page-room2")
    rows = Result.objects.filter(session=session, board_number=board, round_number=1, table_number=1)
    assert sorted(rows.values_list("room", flat=True)) == [1, 2]

    # Standings across rooms: room 2's declarer made two overtricks and beats room 1's on the board (2 of 2
    # matchpoints); compared room by room each row would be alone (top 0, nothing earned).
    page.click(".d-tabs a[href$='/standings/']")
    expect(page.locator("#standings-state .dot-ok")).to_have_count(1)
    winner = getattr(two, f"seat_{declarer.lower()}")
    loser = getattr(one, f"seat_{declarer.lower()}")
    won = Standing.objects.get(tournament=t, participant=winner)
    lost = Standing.objects.get(tournament=t, participant=loser)
    assert (won.matchpoints, won.max) == ("2", "2")
    assert (lost.matchpoints, lost.max) == ("0", "2")
    assert rows.get(room=2).matchpoints[declarer] == "2" and rows.get(room=2).top[declarer] == "2"
    assert page.locator("#standings tbody tr").count() == 88
    screenshot(page, "two-rooms-standings")
