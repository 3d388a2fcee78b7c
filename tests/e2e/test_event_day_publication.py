"""The end-round prompt and the publication page with gaps, in a real browser at phone and desktop widths, in
Russian: the «I know» box stops the button until it is ticked, and nothing needs sideways scrolling."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import login as log_in
from tests.e2e.conftest import screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTHS = (360, 1280)


def no_sideways_scroll(pg) -> None:  # type: ignore[no-untyped-def]
    wide = pg.evaluate("document.documentElement.scrollWidth")
    assert wide <= pg.viewport_size["width"], f"the page is {wide}px wide at {pg.viewport_size['width']}px"


def test_end_round_prompt_and_publication_with_gaps(page, django_user_model):
    from django.utils import timezone

    from boards.models import Board
    from duplicate.gaps import round_gaps
    from duplicate.rounds import movement_choose, round_end, round_start
    from events.publication import publish
    from scoring.row_command import PlayedRow, RowAuthor, RowCommand, RowPlace
    from scoring.rows import result_save
    from tests.tournaments.conftest import legal_row
    from tournaments.models import Participant, Publication, Round
    from tournaments.services.event import tournament_create

    director = django_user_model.objects.create_user("anna", password="pw-anna-12345")
    t = tournament_create(name="Кубок Сочи", user=director, slug="sochi", now=timezone.now())
    Participant.objects.bulk_create(
        Participant(tournament=t, number=n, name=f"Игрок {n}", pin=f"{1000 + n}") for n in range(1, 21)
    )
    session = t.sessions.get(number=1)
    movement_choose(session=session, user=director, spec={"scheme": "basic", "tables": 5}, now=timezone.now())
    r1 = session.rounds.get(number=1)
    round_start(rnd=r1, user=director, now=timezone.now())
    set_number = session.seatings.get(round_number=1, table_number=1).set_number
    for board in Board.objects.filter(session=session, set_number=set_number):
        result_save(
            RowCommand(
                RowPlace(session=session, board=board.number, round=1, table=1),
                PlayedRow(row=legal_row(board.dealer)),
                author=RowAuthor(user=director),
            ),
            now=timezone.now(),
        )

    log_in(page, "anna", "pw-anna-12345")
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"/director/{t.slug}/")
        assert "В туре 1 не все результаты: не введено: 16." in page.locator(".gaps").inner_text()
        no_sideways_scroll(page)
        screenshot(page, f"event-day-end-round-prompt-{width}")
    page.click(".d-next button[type=submit]")  # not ticked: the browser asks for the box, nothing is posted
    assert Round.objects.get(pk=r1.pk).status == Round.Status.RUNNING
    page.check(".d-next input[name=acknowledged]")
    page.click(".d-next button[type=submit]")
    page.wait_for_url("**/handover/")
    assert Round.objects.get(pk=r1.pk).status == Round.Status.ENDED

    for rnd in session.rounds.exclude(number=1).order_by("number"):
        round_start(rnd=rnd, user=director, now=timezone.now())
        round_end(rnd=rnd, user=director, now=timezone.now(), acknowledged=round_gaps(rnd).token)
    t.refresh_from_db()
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"/director/{t.slug}/publication/")
        assert "В законченных турах не всё готово:" in page.locator(".gaps").inner_text()
        no_sideways_scroll(page)
        screenshot(page, f"event-day-publication-gaps-{width}")
    page.check("input[name=acknowledged]")
    page.click("button[name=action][value=provisional]")
    page.wait_for_load_state()
    t.refresh_from_db()
    assert t.publication == Publication.PROVISIONAL

    from duplicate.gaps import publication_gaps

    publish(
        tournament=t,
        to=Publication.OFFICIAL,
        user=director,
        now=timezone.now(),
        acknowledged=publication_gaps(t).token,
    )
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"/director/{t.slug}/publication/")
        page.click('summary:has-text("Снять официальные результаты")')
        assert page.locator("#final-blockers").inner_text().startswith("Исправления принимаются до")
        no_sideways_scroll(page)
        screenshot(page, f"event-day-publication-official-{width}")
