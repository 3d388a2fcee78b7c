"""The makeable contracts and the par on the board pages (issue 19; brief dd-records §3): the table shows the
stored analysis' numbers, the par by its rule and the event's prices; on the public page only where the layout is
public (after the session), on the director's board page always; Russian without English words."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from boards.analysis import board_makeable, layout_of
from boards.models import Board, BoardAnalysis
from tests.html import english_phrases, parse, visible_text
from tournaments.models import Session, Tournament

pytestmark = pytest.mark.django_db

TRICKS = {  # N: a seven in clubs; E: misère; S: eight no-trumps, the board's par.
    "N": {"S": 4, "C": 7, "D": 3, "H": 2, "NT": 5, "misere": 3},
    "E": {"S": 1, "C": 2, "D": 0, "H": 3, "NT": 1, "misere": 0},
    "S": {"S": 6, "C": 5, "D": 5, "H": 6, "NT": 8, "misere": 2},
}


def store(board: Board, tricks: dict[str, dict[str, int]] = TRICKS) -> None:
    seats = {s: t | {"discards": {k: ["S7", "S8"] for k in t}} for s, t in tricks.items()}
    BoardAnalysis.objects.create(
        board=board,
        layout=layout_of(board),
        seats=seats,
        solver="test",
        seconds=Decimal("0.1"),
        made_at=timezone.now(),
    )


@pytest.fixture
def board(three: Tournament) -> Board:
    b = Board.objects.get(session__tournament=three, session__number=2, number=2)
    store(b)
    return b


def public(client: Client, t: Tournament, number: int = 2) -> Any:
    return client.get(reverse("results:board", kwargs={"slug": t.slug, "number": number}) + "?session=2")


def director_page(client: Client, t: Tournament, number: int = 2) -> Any:
    return client.get(reverse("director:board_detail", args=[t.slug, 2, number]))


def table_cells(html: str) -> dict[str, list[str]]:
    """Per seat: its row of the table (seat, six numbers), then its par as the page writes it."""
    doc = parse(html)
    table = doc.one("table", id="makeable-table")
    rows = {
        tr.get("data-seat"): [td.text().strip() for td in tr.find_all("td")]
        for tr in table.find("tbody").find_all("tr")
    }
    for span in doc.one(id="seat-pars").find_all("span", class_="nobr"):
        rows[span.get("data-seat")].append(" ".join(span.text().split()[1:]))
    return rows


def test_public_table_shows_the_stored_values_and_the_par(three: Tournament, board: Board) -> None:
    html = public(Client(HTTP_ACCEPT_LANGUAGE="en"), three).content.decode()
    cells = table_cells(html)
    assert list(cells) == ["N", "E", "S"]
    for seat, tricks in TRICKS.items():
        assert cells[seat][1:7] == [str(tricks[k]) for k in ("S", "C", "D", "H", "NT", "misere")]
    rules = three.rules  # Leningrad: the value is the variant's pool price, from the core
    assert cells["N"][7] == f"7♣ ({rules.price(7)})"
    assert cells["E"][7] == f"misère ({rules.misere_price})"
    assert cells["S"][7] == f"8NT ({rules.price(8)})"
    par = parse(html).one(id="board-par").text()
    best = max(
        [("N", rules.price(7), 1), ("E", rules.misere_price, 2), ("S", rules.price(8), 1)],
        key=lambda x: (x[1], x[2]),
    )  # misère ranks above every eight on the ladder
    assert f"{best[0]} " in par and ("misère" if best[0] == "E" else "8NT") in par


def test_public_page_hides_the_table_while_the_board_is_in_play(
    three: Tournament, board: Board, director
) -> None:
    Session.objects.filter(tournament=three, number=2).update(status=Session.Status.RUNNING)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    html = public(client, three).content.decode()
    assert 'id="makeable' not in html and "compass" not in html  # as hidden as the layout itself
    # The director sees it on both pages while the session runs.
    client.force_login(director)
    assert 'id="makeable-table"' in public(client, three).content.decode()
    assert table_cells(director_page(client, three).content.decode())["S"][5] == "8"


def test_stale_or_missing_analysis_shows_no_table(three: Tournament, board: Board, director) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert 'id="makeable-table"' not in public(client, three, number=3).content.decode()  # never analysed
    hands = dict(board.hands)
    a, b = sorted(hands)[:2]
    hands[a], hands[b] = hands[b], hands[a]
    Board.objects.filter(pk=board.pk).update(hands=hands)  # the layout corrected: the analysis is stale
    assert board_makeable(Board.objects.get(pk=board.pk)) is None
    assert 'id="makeable-table"' not in public(client, three).content.decode()
    client.force_login(director)
    assert 'id="makeable-missing"' in director_page(client, three).content.decode()


def test_russian_page_has_no_english_words(three: Tournament, board: Board) -> None:
    three.language = "ru"
    three.save(update_fields=["language"])
    response = public(Client(), three)
    section = parse(response.content.decode()).one(id="makeable")
    words = section.text()
    assert "Выполнимые контракты" in words and "Пар сдачи" in words and "БК" in words and "мизер" in words
    assert english_phrases(" ".join(words.split())) == []
    assert english_phrases(visible_text(response), three.name, "Player", "Club") == []
