"""The 16-player printout says that its route corrects the book's misprint.

Seed 004 §5, procedure 4, the scheme for 16: «3W-3N-4N-4S-4E-4W-4S; № 16 постоянно на позиции 3E» — the printed
route of group 2 names 4S twice and never 3S. The software plays 3W-3N-4N-3S-4E-4W-4S (the 8-player route moved to
tables 3–4 with No. 16 fixed at 3E, docs/rules/movements.md §3), and a director comparing the card with the book
must be told why they differ.
"""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from preferans.movements import basic_movement, book_correction, book_movement
from results.pdf_movement import correction_note, row_of_sets_pdf, table_cards_pdf


def _pages(body: bytes) -> list[str]:
    return [re.sub(r"\s+", " ", page.extract_text()) for page in PdfReader(io.BytesIO(body)).pages]


# (language, words that must be on the printout)
LANGS = [
    ("ru", ["исправляет опечатку книги", "3W-3N-4N-4S-4E-4W-4S", "3W-3N-4N-3S-4E-4W-4S"]),
    ("en", ["corrects a misprint of the book", "3W-3N-4N-4S-4E-4W-4S", "3W-3N-4N-3S-4E-4W-4S"]),
]


@pytest.mark.parametrize(("lang", "words"), LANGS)
def test_rule_5_procedure_4_16_player_printout_says_its_route_corrects_the_books_misprint(lang, words):
    m = book_movement(16)
    row = " ".join(_pages(row_of_sets_pdf(m, tournament="T", session=1, lang=lang)))
    for word in words:
        assert word in row
    cards = _pages(table_cards_pdf(m, tournament="T", publication="", session=1, lang=lang))
    assert len(cards) == 4
    for table, page in enumerate(cards, start=1):
        # tables 3–4 follow the corrected route; tables 1–2 (the 8-player route) carry no such note
        assert (words[0] in page) is (table in (3, 4)), (table, page)


def test_rule_5_procedure_4_the_route_played_is_the_corrected_one():
    """The printed note must be true: group 2 really follows 3W → 3N → 4N → 3S → 4E → 4W → 4S."""
    m = book_movement(16)
    where = {p: f"{ta.table}{line}" for ta in m.rounds[0].tables for line, p in ta.seats}
    after = {p: f"{ta.table}{line}" for ta in m.rounds[1].tables for line, p in ta.seats}
    route = ["3W", "3N", "4N", "3S", "4E", "4W", "4S"]
    for p, seat in where.items():
        if seat in route:
            assert after[p] == route[(route.index(seat) + 1) % len(route)]
    assert where[16] == after[16] == "3E"


@pytest.mark.parametrize(
    "m", [book_movement(8), book_movement(24), basic_movement(5, 4)], ids=["8", "24", "basic"]
)
def test_rule_5_other_movements_carry_no_misprint_note(m):
    assert book_correction(m) is None and correction_note(m, "ru") is None
    assert "опечат" not in " ".join(_pages(row_of_sets_pdf(m, tournament="T", session=1, lang="ru")))


def _command(*args: str) -> str:
    from django.core.management import call_command

    out = io.StringIO()
    call_command("movement", *args, stdout=out)
    return out.getvalue()


def test_rule_5_procedure_4_the_movement_command_prints_the_same_misprint_note():
    """«3W-3N-4N-4S-4E-4W-4S; № 16 постоянно на позиции 3E»: ``manage.py movement --participants 16 --format
    text`` tells the director what the PDFs tell him — the book's route is misprinted and which one is played."""
    text = _command("--participants", "16", "--format", "text")
    note = str(book_correction(book_movement(16))[0])  # type: ignore[index]
    assert "Note on the book (tables 3, 4):" in text and note in text
    assert "corrects a misprint of the book" in text and "3W-3N-4N-3S-4E-4W-4S" in text


@pytest.mark.parametrize("n", ["8", "24"])
def test_rule_5_the_movement_command_prints_no_misprint_note_for_other_schemes(n):
    assert "misprint" not in _command("--participants", n, "--format", "text")
