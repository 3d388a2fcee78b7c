"""Double-dummy analysis in the background (issue 19, brief dd-records §1–2, §4): one Celery task per board,
idempotent, skipping boards already analysed for their layout and re-analysing stale ones; the director's
progress page (directors only, POST with CSRF) and the session's hand records with the makeable tables.

The search itself is mocked with a precomputed analysis (``boards.analysis.analyse_board``): what is tested is
the storage and the flow, not the solver (that is ``tests/preferans/dd``)."""

from __future__ import annotations

import subprocess
from fractions import Fraction
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from boards import analysis as ba
from boards.models import Board, BoardAnalysis
from boards.pdf.hand_records import hand_records_pdf
from boards.tasks import analyse_board_task, queue_session
from events.bundles import import_bundle
from preferans.game import make_rules
from tests.html import english_phrases, visible_text
from tests.results.conftest import three_player_bundle
from tournaments.models import Session, Tournament


def fake_seats(given: Any) -> dict[str, dict[str, Any]]:
    """A precomputed analysis that depends on the board's number (to tell boards apart)."""
    n = given.number or 0
    out = {}
    for i, seat in enumerate(given.seats):
        tricks = {"S": (n + i) % 11, "C": 6, "D": 5, "H": 4, "NT": (n * 3 + i) % 11, "misere": (n + i) % 3}
        out[seat] = tricks | {"discards": {k: ["S7", "S8"] for k in tricks}}
    return out


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    made: list[int] = []

    def analyse_board(given: Any, factory: Any, progress: Any = None) -> Any:
        made.append(given.number)
        return given

    monkeypatch.setattr(ba, "analyse_board", analyse_board)
    monkeypatch.setattr(ba, "analysis_json", lambda given, result: {"seats": fake_seats(result)})
    return made


@pytest.fixture
def event(db, director) -> Tournament:
    data = three_player_bundle()
    data["sessions"] = data["sessions"][:1]
    t = import_bundle(data=data, user=director, slug="dd-event", now=timezone.now())
    Session.objects.filter(tournament=t).update(status=Session.Status.FINISHED)
    return t


def session_of(t: Tournament) -> Session:
    return t.sessions.get(number=1)


def test_one_task_per_board_stores_one_analysis_each(event: Tournament, calls: list[int]) -> None:
    session = session_of(event)
    boards = list(Board.objects.filter(session=session))
    assert queue_session(session) == len(boards) == 15
    assert sorted(calls) == [b.number for b in boards]
    assert BoardAnalysis.objects.filter(board__session=session).count() == 15
    board = boards[0]
    assert ba.stored_analysis(board) == fake_seats(ba.board_input(board))


def test_task_is_idempotent_and_skips_a_current_analysis(event: Tournament, calls: list[int]) -> None:
    board = Board.objects.filter(session=session_of(event)).first()
    assert analyse_board_task.delay(board.pk).get() == "analysed"
    # A retried task and a second click: nothing is searched again, nothing is duplicated.
    assert analyse_board_task.delay(board.pk).get() == "skipped"
    assert queue_session(session_of(event)) == 14
    assert calls.count(board.number) == 1
    # "Again" searches once more and replaces the one analysis.
    assert analyse_board_task.delay(board.pk, True).get() == "analysed"
    assert calls.count(board.number) == 2
    assert BoardAnalysis.objects.filter(board=board).count() == 1


def test_stale_layout_is_reanalysed(event: Tournament, calls: list[int]) -> None:
    session = session_of(event)
    queue_session(session)
    board = Board.objects.filter(session=session).first()
    first = BoardAnalysis.objects.get(board=board).made_at
    # The director corrects the layout: two cards change hands, the stored analysis is stale.
    hands = dict(board.hands)
    seats = sorted(hands)
    a, b = hands[seats[0]].split(), hands[seats[1]].split()
    hands[seats[0]], hands[seats[1]] = " ".join(b), " ".join(a)
    Board.objects.filter(pk=board.pk).update(hands=hands)
    board.refresh_from_db()
    assert ba.stored_analysis(board) is None
    state = ba.session_analysis(session)
    assert [x.number for x in state.stale] == [board.number] and len(state.done) == 14
    calls.clear()
    assert queue_session(session) == 1 and calls == [board.number]
    fresh = BoardAnalysis.objects.get(board=board)
    assert fresh.layout == ba.layout_of(board) and fresh.made_at >= first
    assert ba.session_analysis(session).complete


def test_board_without_layout_is_not_queued(event: Tournament, calls: list[int]) -> None:
    session = session_of(event)
    Board.objects.filter(session=session, number=1).update(hands={}, prikup=[])
    assert queue_session(session) == 14 and 1 not in calls
    state = ba.session_analysis(session)
    assert [b.number for b in state.no_layout] == [1] and state.total == 14 and state.complete


def test_par_rule() -> None:
    """Par (brief §3): the highest level L ≤ tricks (6–10) in each strain, misère when held to 0 tricks, valued
    by the variant's pool price; ties go up the bidding ladder; the board's par is the best seat's."""
    sochi = make_rules("sochi")
    seats = {
        "N": {"S": 7, "C": 7, "D": 2, "H": 3, "NT": 5, "misere": 1},
        "E": {"S": 0, "C": 1, "D": 1, "H": 0, "NT": 0, "misere": 0},
        "S": {"S": 5, "C": 5, "D": 4, "H": 3, "NT": 11 - 1, "misere": 4},
    }
    table = ba.makeable(seats, sochi)
    pars = {r.seat: r.par for r in table.rows}
    assert pars["N"] is not None and pars["N"].code == "7C" and pars["N"].value == sochi.price(7)
    assert pars["E"] is not None and pars["E"].code == "MIS" and pars["E"].value == sochi.misere_price
    assert pars["S"] is not None and pars["S"].code == "10NT" and pars["S"].value == sochi.price(10)
    # Sochi: a ten and a misère are both worth 10 in the pool; the ten is higher on the ladder.
    assert sochi.price(10) == sochi.misere_price
    assert [(p.seat, p.code) for p in table.par] == [("S", "10NT")]
    assert [r.tricks for r in table.rows][0] == (7, 7, 2, 3, 5, 1)
    nothing = ba.seat_par("W", {"S": 5, "C": 0, "D": 0, "H": 0, "NT": 0, "misere": 1}, sochi)
    assert nothing is None
    # Values follow the event's variant, exactly (overridden prices included).
    custom = make_rules("sochi", {"price_7": "9/2"})
    assert ba.makeable(seats, custom).rows[0].par.value == Fraction(9, 2)


def test_progress_page_directors_only(
    event: Tournament, calls: list[int], client, director, other_user
) -> None:
    url = reverse("director:analysis", args=[event.slug, 1])
    client.force_login(other_user)
    assert client.get(url).status_code == 403
    assert client.post(url).status_code == 403 and not calls
    client.logout()
    assert client.get(url).status_code == 302
    client.force_login(director)
    response = client.get(url)
    page = response.content.decode()
    assert "Проанализировано сдач: 0 из 15" in page and 'id="analysis-start"' in page
    assert english_phrases(visible_text(response), event.name, "Player", "Club") == []  # a Russian page
    client.post(url, {"action": "start"})  # without a worker: a few boards per click (issue 29, N11)
    assert "Проанализировано сдач: 8 из 15" in client.get(url).content.decode()
    client.post(url, {"action": "start"})
    page = client.get(url).content.decode()
    assert "Проанализировано сдач: 15 из 15" in page and 'id="analysis-start"' not in page
    # The progress part alone, as director.js fetches it.
    part = client.get(url, headers={"X-Requested-With": "fetch"}).content.decode()
    assert "15 из 15" in part and "<html" not in part
    # The boards page links to it.
    boards = client.get(reverse("director:boards", args=[event.slug, 1])).content.decode()
    assert url in boards


def test_progress_page_requires_csrf(event: Tournament, calls: list[int], director) -> None:
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(director)
    assert (
        strict.post(reverse("director:analysis", args=[event.slug, 1]), {"action": "start"}).status_code
        == 403
    )
    assert not calls


def test_hand_records_pdf_carries_the_table(event: Tournament, calls: list[int], client, director) -> None:
    session = session_of(event)
    queue_session(session)
    board = Board.objects.filter(session=session).order_by("number").first()
    table = ba.board_makeable(board)
    assert table is not None
    client.force_login(director)
    response = client.get(reverse("director:analysis", args=[event.slug, 1]) + "?pdf=1")
    assert response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    assert text.count("Пар сдачи") == 15
    # Board 1's line for each seat: the seat, its six numbers and its par, as stored.
    lines = [" ".join(line.split()) for line in text.splitlines()]
    for row in table.rows:
        numbers = " ".join(str(t) for t in row.tricks)
        assert any(line.startswith(f"{row.seat} {numbers}") for line in lines), (row, lines[:40])


def test_hand_records_without_analysis_have_no_table(event: Tournament) -> None:
    board = Board.objects.filter(session=session_of(event)).first()
    text = pdf_text(hand_records_pdf([board.deal()], lang="en"))
    assert "Par of the board" not in text and f"Board {board.number}" in text


def pdf_text(data: bytes) -> str:
    try:
        done = subprocess.run(["pdftotext", "-layout", "-", "-"], input=data, capture_output=True, check=True)
        return done.stdout.decode()
    except FileNotFoundError:
        from io import BytesIO

        from pypdf import PdfReader

        return "\n".join(page.extract_text() for page in PdfReader(BytesIO(data)).pages)


def test_an_impossible_layout_is_reported_not_raised(event: Tournament) -> None:
    """A layout that is not a whole deck (two copies of a card) cannot be analysed: the task says so and the other
    boards go on (in the embedded default one failing task would otherwise break the director's request)."""
    board = Board.objects.filter(session=session_of(event)).first()
    hands = dict(board.hands)
    seats = sorted(hands)
    hands[seats[0]] = hands[seats[1]]
    Board.objects.filter(pk=board.pk).update(hands=hands)
    assert analyse_board_task.delay(board.pk).get() == "invalid layout"
    assert not BoardAnalysis.objects.filter(board=board).exists()


def test_one_board_from_its_page(event: Tournament, calls: list[int], client, director) -> None:
    """The button on the director's board page analyses that board only, then returns to it; a second press
    finds it current and searches nothing."""
    client.force_login(director)
    page_url = reverse("director:board_detail", args=[event.slug, 1, 4])
    assert 'id="makeable-missing"' in client.get(page_url).content.decode()
    url = reverse("director:analysis", args=[event.slug, 1])
    response = client.post(url, {"action": "start", "board": "4"})
    assert response.status_code == 302 and response["Location"] == page_url
    assert calls == [4] and BoardAnalysis.objects.count() == 1
    client.post(url, {"action": "start", "board": "4"})
    assert calls == [4]
    assert client.post(url, {"action": "start", "board": "99"}).status_code == 404
    assert 'id="makeable-table"' in client.get(page_url).content.decode()
