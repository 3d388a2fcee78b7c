"""Issue 19: "suspicious rows, for the director only … flagged on the dashboard as a probable entry error or a
fouled board — never shown to players while the board is still in play" (docs/double-dummy.md)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from appeals.services.layouts import board_layout_record
from boards.analysis import layout_of
from boards.models import Board, BoardAnalysis
from preferans.cards.board_form import board_to_dict
from preferans.cards.deal import Seat, deal_board, seeded_rng
from preferans.dd.checks import MADE_UNMAKEABLE
from scoring.dd_flags import session_flags
from scoring.models import Result
from scoring.row_command import PlayedRow, RowAuthor, RowCommand, RowPlace
from scoring.rows import result_save
from tests.html import english_phrases, parse
from tests.publishing import publish_to
from tournaments.models import Publication, Table

from .conftest import legal_row

pytestmark = pytest.mark.django_db
EN = {"accept-language": "en"}
RU = {"accept-language": "ru"}
# What the flag shows on the dashboard, in both languages, and its marker: none of it may reach a player.
MARKERS = (
    "dd-flags",
    "Check: a probable entry error",
    "Проверьте: вероятная ошибка записи",
    "best defence",
    "лучшей защите",
    "double-dummy",
    "в открытую",
)


def _analysed_board(session, director) -> Board:
    """The board table 1 plays in round 1, with a layout and a precomputed analysis (never the real search):
    every active seat makes 5 in every strain, misère costs 3."""
    seating = session.seatings.get(round_number=1, table_number=1, room=1)
    board = Board.objects.filter(session=session, set_number=seating.set_number).order_by("number").first()
    dealt = board_to_dict(
        deal_board(
            seeded_rng(7),
            number=board.number,
            set_number=board.set_number,
            dealer=Seat(board.dealer),
            players=4,
        )
    )
    board_layout_record(
        board=board, hands=dealt["hands"], prikup=dealt["prikup"], user=director, now=timezone.now()
    )
    board.refresh_from_db()
    active = [s for s in "NESW" if s != board.dealer]
    seats = {s: {"S": 5, "C": 5, "D": 5, "H": 5, "NT": 5, "misere": 3, "discards": {}} for s in active}
    BoardAnalysis.objects.create(
        board=board, layout=layout_of(board), seats=seats, solver="test", seconds=0, made_at=timezone.now()
    )
    return board


@pytest.fixture
def flagged(seated, session, director, dclient):
    """Round 1 running; table 1 recorded a six made on a board whose analysis allows 5: the board is still in
    play at the other tables."""
    dclient.post(reverse("director:start_round", kwargs={"slug": seated.slug, "session": 1, "number": 1}))
    board = _analysed_board(session, director)
    result_save(
        RowCommand(
            RowPlace(session=session, board=board.number, round=1, table=1),
            PlayedRow(row=legal_row(board.dealer)),
            author=RowAuthor(user=director),
        ),
        now=timezone.now(),
    )
    publish_to(seated, Publication.PROVISIONAL, director, timezone.now())
    return board


def test_the_dashboard_lists_the_row_for_the_director(flagged, seated, dclient):
    (flag,) = session_flags(seated.sessions.get(number=1))
    assert (flag.board, flag.round, flag.table) == (flagged.number, 1, 1)
    assert (flag.finding.code, flag.finding.taken, flag.finding.possible) == (MADE_UNMAKEABLE, 6, 5)
    dash = reverse("director:dashboard", kwargs={"slug": seated.slug})
    ru = dclient.get(dash, headers=RU)
    box = parse(ru).find(class_="dd-flags")
    assert box is not None and box.get("data-dd-flags") == "1"
    text = " ".join(box.text().split())
    assert "Проверьте: вероятная ошибка записи или перепутанная раздача" in text
    assert "6♠" in text and "лучшей защите" in text and f"Сдача {flagged.number}, тур 1, стол 1" in text
    entry = reverse(
        "director:board_entry",
        kwargs={"slug": seated.slug, "session": 1, "round": 1, "table": 1, "board": flagged.number},
    )
    assert box.find("a", href=entry) is not None
    assert english_phrases(" ".join(box.text().split())) == []
    en = dclient.get(dash, headers=EN).content.decode()
    assert "Check: a probable entry error or a fouled board" in en


def test_never_on_a_players_page_while_the_board_is_in_play(flagged, seated, session, client):
    code = Table.objects.get(session=session, number=1, room=1).code
    result = Result.objects.get(session=session, board_number=flagged.number)
    player = result.seat_n.number
    pages = [
        reverse("table:entry", kwargs={"code": code}),
        reverse("results:board", kwargs={"slug": seated.slug, "number": flagged.number}),
        reverse("results:standings", kwargs={"slug": seated.slug}),
        reverse("results:player", kwargs={"slug": seated.slug, "number": player}),
        reverse("results:projector", kwargs={"slug": seated.slug}),
        reverse("results:projector-data", kwargs={"slug": seated.slug}),
    ]
    for url in pages:
        for headers in (RU, EN):
            response = client.get(url, headers=headers)
            assert response.status_code == 200, url
            body = response.content.decode()
            assert not [m for m in MARKERS if m in body], url
            # nor the personal card's tricks possible, before the board is public
            assert "dd-card" not in body, url


def test_no_flag_for_another_version_or_a_stale_analysis(flagged, seated, session, director):
    result = Result.objects.get(session=session, board_number=flagged.number)
    Result.objects.filter(pk=result.pk).update(version="B")  # played in another layout of a fouled board
    assert session_flags(session) == []
    Result.objects.filter(pk=result.pk).update(version="A")
    assert len(session_flags(session)) == 1
    hands = dict(flagged.hands)
    first, second = [s for s in "NESW" if s in hands][:2]
    hands[first], hands[second] = hands[second], hands[first]  # the layout changed since the analysis
    Board.objects.filter(pk=flagged.pk).update(hands=hands)
    assert session_flags(session) == []


def test_a_row_that_fits_the_layout_is_not_flagged(seated, session, director):
    board = _analysed_board(session, director)
    row = legal_row(board.dealer) | {"contract": "6H"}
    row["declarer"] = [row["declarer"][0], 5]
    row["w1"] = [row["w1"][0], 3]
    result_save(
        RowCommand(
            RowPlace(session=session, board=board.number, round=1, table=1),
            PlayedRow(row=row),
            author=RowAuthor(user=director),
        ),
        now=timezone.now(),
    )
    assert session_flags(session) == []


# -- fouled-board help: "when a table's typed layout differs, show what the difference changes" (issue 19) --------
def test_fouled_board_page_compares_the_makeable_tables_on_request(
    flagged, seated, session, dclient, monkeypatch
):
    from director import dd_fouled
    from preferans.cards.deck import format_hand, parse_hand

    result = Result.objects.get(session=session, board_number=flagged.number)
    hands = {seat: list(parse_hand(text)) for seat, text in flagged.hands.items()}
    a, b = list(hands)[:2]
    hands[a][0], hands[b][0] = hands[b][0], hands[a][0]
    fields = {"N": "hand_n", "E": "hand_e", "S": "hand_s", "W": "hand_w"}
    data = {fields[s]: format_hand(c) for s, c in hands.items()} | {"result": result.pk}
    data["prikup_top"], data["prikup_bottom"] = flagged.prikup
    target = reverse(
        "director:board_fouled", kwargs={"slug": seated.slug, "session": 1, "board": flagged.number}
    )
    searched: list[dict] = []
    played_seats = {s: {"S": 5, "C": 5, "D": 5, "H": 5, "NT": 5, "misere": 3} for s in hands}
    played_seats[a] = played_seats[a] | {"S": 6, "misere": 1}

    def fake(layout):  # the precomputed analysis of the played layout: the real search is not the point here
        searched.append(dict(layout))
        return played_seats

    monkeypatch.setattr(dd_fouled, "analyse_layout", fake)
    compared = dclient.post(target, data | {"action": "compare"}, headers=EN)
    box = parse(compared).find(id="dd-fouled")
    assert box is not None and box.find("button", value="dd") is not None and box.find("table") is None
    assert searched == []  # never on the comparison itself
    analysed = dclient.post(target, data | {"action": "dd"}, headers=RU)
    assert [layout["hands"][a] for layout in searched] == [format_hand(hands[a])]  # the played layout only
    row = parse(analysed).find("tr", data_seat=a)
    cells = [" ".join(td.text().split()) for td in row.find_all("td")]
    assert cells == [a, "65", "5", "5", "5", "5", "13"]  # as played, and as dealt struck out below
    assert [" ".join(d.text().split()) for d in row.find_all("del")] == ["5", "3"]
    assert "2 значения меняются" in visible_text_of(analysed)
    assert english_phrases(" ".join(parse(analysed).one(id="dd-fouled").text().split())) == []
    assert Board.objects.get(pk=flagged.pk).fouled is False  # analysing applies nothing


def visible_text_of(response) -> str:
    from tests.html import visible_text

    return " ".join(visible_text(response).split())
