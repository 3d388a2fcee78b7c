"""The pages the duplicate side's last partials change (issue 28), in Chromium at a phone's and a desktop's width:
the dashboard (proposed assigned results of missing rows, «only duplicate the boards», rows out of order, boards
to play later), a table's round (a board to play later), the director's row form and the phone page (written
bidding, §13.1), the public protocol (the bidding shown). Nothing wider than the screen, no English on the Russian
pages (screenshots in test-artifacts/)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from duplicate import at_table, table_rows
from duplicate.duplication import set_duplicating
from duplicate.gaps import round_gaps
from duplicate.late_boards import late_board_record
from duplicate.rounds import movement_choose, round_end, round_start
from events.settings import tournament_update
from tests.e2e.conftest import login, overflowing, screenshot
from tests.html import english_phrases
from tests.tournaments.conftest import legal_row
from tournaments.models import Participant, Table
from tournaments.services.event import tournament_create

pytestmark = pytest.mark.django_db(transaction=True)


def _event(d):  # type: ignore[no-untyped-def]
    now = timezone.now()
    t = tournament_create(name="Кубок дубликата", user=d, slug="dup28", players_per_table=4, now=now)
    Participant.objects.bulk_create(
        Participant(tournament=t, number=n, name=f"Игрок {n}", pin=f"{3000 + n}") for n in range(1, 21)
    )
    tournament_update(tournament=t, user=d, changes={"bidding_record": True}, now=now)
    t.refresh_from_db()
    session = t.sessions.get(number=1)
    movement_choose(session=session, user=d, spec={"scheme": "basic", "tables": 5}, now=now)
    set_duplicating(session=session, round=1, table=5, on=True, user=d, now=now)
    r1 = session.rounds.get(number=1)
    round_start(rnd=r1, user=d, now=now)
    state = at_table.table_state(Table.objects.get(session=session, number=1))
    boards = list(state.seating.set_boards())
    for b in (boards[1], boards[0], boards[2]):  # board 2 before board 1: out of order (§4)
        table_rows.table_submit(
            state=state,
            participant=state.seating.seat_n,
            board_number=b.number,
            row=legal_row(b.dealer),
            bidding="6♠ пас 7♣ пас пас",
            now=now,
        )
    r1.refresh_from_db()
    round_end(rnd=r1, user=d, now=now + dt.timedelta(minutes=25), acknowledged=round_gaps(r1).token)
    board4 = list(session.seatings.get(round_number=1, table_number=4).set_boards())[0]
    late_board_record(
        session=session, round=1, table=4, board=board4.number, reason="сыграли не ту сдачу", user=d, now=now
    )
    round_start(rnd=session.rounds.get(number=2), user=d, now=now + dt.timedelta(minutes=30))
    return t, boards[0].number


@pytest.mark.parametrize("width", [390, 1366])
def test_duplicate_partials_pages_fit_and_speak_russian(browser, live_server, django_user_model, width):  # type: ignore[no-untyped-def]
    d = django_user_model.objects.create_user("dir", password="pw-director-1")
    t, board = _event(d)
    code = Table.objects.get(session__tournament=t, number=1).code
    pages = [
        ("dashboard", "/director/dup28/s1/?round=1", "#proposals"),
        ("table-round", "/director/dup28/s1/r1/t4/", ".late-board"),
        ("board-entry", f"/director/dup28/s1/r1/t1/b{board}/", "input[name=bidding]"),
        ("protocol", f"/t/dup28/boards/{board}/", ".bidding"),
        ("settings", "/director/dup28/settings/", "#field-bidding_record input:checked"),
    ]
    ctx = browser.new_context(
        base_url=live_server.url, locale="ru-RU", viewport={"width": width, "height": 900}
    )
    pg = ctx.new_page()
    try:
        login(pg, "dir", "pw-director-1")
        for name, url, marker in pages:
            pg.goto(url)
            screenshot(pg, f"dup28-{name}-{width}")
            assert pg.locator(marker).count() >= 1, name
            assert overflowing(pg) == [], f"{name} at {width}px"
            text = pg.locator("main").inner_text()
            assert english_phrases(text, "Кубок дубликата") == [], f"{name}: {english_phrases(text)}"
        phone = browser.new_context(
            base_url=live_server.url, locale="ru-RU", viewport={"width": width, "height": 900}
        )
        pp = phone.new_page()
        pp.goto(f"/table/{code}/")
        pp.locator("details.tb-board").first.evaluate("d => d.open = true")
        screenshot(pp, f"dup28-phone-{width}")
        assert pp.locator("input[name=bidding]").count() >= 1
        assert overflowing(pp) == [], f"phone at {width}px"
        phone.close()
    finally:
        ctx.close()
