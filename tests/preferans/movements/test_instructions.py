"""Table cards («3S–2W») and the director's row of sets."""

from __future__ import annotations

from preferans.movements import basic_movement, book_movement, director_rows, render_text, table_cards


def test_book_thirteen_cards_follow_the_route() -> None:
    cards = table_cards(book_movement(13))
    table1 = cards[0]
    assert (table1.room, table1.table) == (1, 1)
    # route P-2W-3W-1W-2S-1E-2E-2N-1S-3E-3S-3N-1N: 1N goes to P, 1E to 2E, 1S to 3E, 1W to 2S
    assert table1.rounds[0].moves == ("1N–P", "1E–2E", "1S–3E", "1W–2S")
    assert table1.rounds[-1].moves == ()
    assert [e.place for e in table1.rounds] == [1] * 13
    assert [e.place for e in cards[1].rounds] == [4] * 13


def test_book_row_is_the_books_row() -> None:
    rows = director_rows(book_movement(13))
    assert {r.text for r in rows} == {"1-Z-Z-2-3-Z-Z-Z-Z-Z-Z-Z-Z"}
    assert rows[0].returning == ("No. 1: P–2W",)
    assert {r.text for r in director_rows(book_movement(8))} == {"/1,2/-Z-Z-Z-Z-Z-Z"}
    assert {r.text for r in director_rows(book_movement(24))} == {"1-4-Z-Z-2-5-Z-3-6-Z-Z"}


def test_basic_cards() -> None:
    m = basic_movement(5)
    card = table_cards(m)[2]  # table 3
    assert card.rounds[0].moves == ("3N stays", "3E–4E", "3S–5S", "3W–1W")
    assert {r.text for r in director_rows(m)} == {"1-2-3-4-5"}


def test_text_names_everything_a_director_needs() -> None:
    text = render_text(book_movement(9), ("because",))
    for needle in (
        "because",
        "SEATING BY ROUND",
        "TABLE CARDS",
        "DIRECTOR'S ROW OF SETS",
        "/1,2/-Z",
        "Resting",
    ):
        assert needle in text


def test_rooms_are_named() -> None:
    text = render_text(basic_movement(5, rooms=2))
    assert "Room 2, Table 5" in text and "compared across all rooms" in text
