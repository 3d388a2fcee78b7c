"""Issue 17 in a real browser: the director prints the seating from Chromium and downloads its PDF.

Chromium prints the page with the print media (``page.pdf()``); poppler reads the PDF back. On paper every seat
of every table of every round is in its column (N E S W, names too), the resting player's line is there, and
nothing of the navigation, the tabs or the buttons. The «Рассадка, PDF» button makes the seating PDF through
the exports page, and that file has every seat too.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import login, screenshot
from tests.results.test_event_day_print import assert_every_seat, pdf_lines, seated_event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_printed_seating_has_every_seat_and_no_navigation(page, django_user_model):
    from results.models import ExportJob

    director = django_user_model.objects.create_user("vera", password="pw-vera-12345")
    t = seated_event(
        director, name="Кубок Сочи", slug="print13", count=13, spec={"scheme": "book", "participants": 13}
    )
    session = t.sessions.get(number=1)
    login(page, "vera", "pw-vera-12345")
    page.goto("/director/print13/s1/seating/")
    assert page.locator(".print-bar button", has_text="Печать").is_visible()

    page.emulate_media(media="print")
    assert not page.locator(".d-tabs").is_visible() and not page.locator(".topbar").is_visible()
    assert not page.locator(".print-bar").is_visible()
    assert page.locator(".print-head").is_visible()
    lines = pdf_lines(page.pdf(format="A4"))
    printed = "\n".join(lines)
    assert_every_seat(lines, t, session)
    assert "Кубок Сочи · сессия 1" in printed  # the heading paper carries
    assert "Отдыхает:" in printed  # each round's resting player
    for word in ("Пульт", "Участники", "Движение", "Настройки", "Печать", "Выйти", "Рассадка, PDF"):
        assert word not in printed, word
    page.emulate_media(media="screen")

    # The seating PDF, from the page's own button: made on the exports page, which carries the director's tabs.
    page.click("button[data-pdf=seating]")
    page.wait_for_selector("tr[data-status=done] a.btn")
    assert page.locator(".d-tabs a", has_text="Рассадка").count() == 1
    screenshot(page, "event-day-print-exports")
    job = ExportJob.objects.get(kind="seating")
    with job.file.open("rb") as pdf:
        body = pdf.read()
    job.file.delete(save=False)  # keep the project's media/ clean
    assert_every_seat(pdf_lines(body), t, session)
