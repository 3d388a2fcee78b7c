"""Issue 19: "the personal card after the session: tricks taken against tricks possible on each board played as
declarer or whister" (docs/double-dummy.md: the declarer against his strain's analysis, a whister the defence's
tricks against 10 minus it; a passer, raspasy and a board without analysis: nothing)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from boards.analysis import layout_of
from boards.models import Board, BoardAnalysis
from scoring.models import Result
from tests.html import english_phrases, parse, visible_text
from tournaments.models import Session, Tournament

pytestmark = pytest.mark.django_db
RU = {"accept-language": "ru"}
EN = {"accept-language": "en"}
SEATS = {s: {"S": 5, "C": 5, "D": 5, "H": 5, "NT": 5, "misere": 3, "discards": {}} for s in ("N", "E", "S")}
ROW = {
    "contract": "6S",
    "declarer": ["N", 6],
    "w1": ["E", 3],
    "w2": ["S", 1],
    "calls": {"E": "whist", "S": "pass"},
    "play": "closed",
}


def _played(three: Tournament, *, analysed: bool = True) -> Result:
    """Session 2, board 2, its first row made a six in spades with one whister (E) and a passer (S)."""
    board = Board.objects.get(session__tournament=three, session__number=2, number=2)
    if analysed:
        BoardAnalysis.objects.create(
            board=board,
            layout=layout_of(board),
            seats=SEATS,
            solver="test",
            seconds=Decimal("0.1"),
            made_at=timezone.now(),
        )
    result = Result.objects.filter(session=board.session, board_number=2).order_by("round_number").first()
    Result.objects.filter(pk=result.pk).update(row=ROW, adjusted=None, assigned=None, version="A")
    result.refresh_from_db()
    return result


def _line(client, three: Tournament, participant: int, headers=EN) -> str | None:
    page = client.get(
        reverse("results:player", kwargs={"slug": three.slug, "number": participant}), headers=headers
    )
    assert page.status_code == 200
    doc = parse(page)
    for row in doc.find_all("tr"):
        link = row.find(
            "a", href=reverse("results:board", kwargs={"slug": three.slug, "number": 2}) + "?session=2"
        )
        if link is not None:
            line = row.find(class_="dd-card")
            return " ".join(line.text().split()) if line is not None else None
    raise AssertionError("board 2 of session 2 is not on the card")


def test_declarer_and_whister_see_taken_against_possible(three, client):
    result = _played(three)
    assert _line(client, three, result.seat_n.number) == "taken 6, possible 5"
    assert _line(client, three, result.seat_e.number) == "defence: taken 4, possible 5"
    assert _line(client, three, result.seat_s.number) is None  # passed: no whister


def test_russian_card_has_the_line_in_russian(three, client):
    three.language = "ru"
    three.save(update_fields=["language"])
    result = _played(three)
    assert _line(client, three, result.seat_n.number, RU) == "взято 6, возможно 5"
    page = client.get(
        reverse("results:player", kwargs={"slug": three.slug, "number": result.seat_n.number}), headers=RU
    )
    assert english_phrases(visible_text(page)) == []


def test_no_line_without_analysis_or_before_the_board_is_public(three, client):
    result = _played(three, analysed=False)
    assert _line(client, three, result.seat_n.number) is None
    BoardAnalysis.objects.create(
        board=Board.objects.get(session=result.session, number=2),
        layout={},
        seats=SEATS,
        solver="test",
        seconds=Decimal("0.1"),
        made_at=timezone.now(),
    )
    # a stale analysis (made for another layout) is never used
    assert _line(client, three, result.seat_n.number) is None
    BoardAnalysis.objects.all().delete()
    _played(three)
    Session.objects.filter(pk=result.session_id).update(status=Session.Status.RUNNING)
    Result.objects.filter(session=result.session, board_number=2).exclude(pk=result.pk).delete()
    Result.objects.filter(session=result.session, board_number=3).delete()  # board 3 keeps the expected count
    page = client.get(
        reverse("results:player", kwargs={"slug": three.slug, "number": result.seat_n.number}), headers=EN
    )
    assert "dd-card" not in page.content.decode()  # board 2 is still in play at other tables
