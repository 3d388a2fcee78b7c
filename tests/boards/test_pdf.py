"""Hand records, duplication sheets and protocol forms, read back with pypdf."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from boards.pdf.fonts import FONT, FONT_BOLD, register_fonts
from boards.pdf.hand_records import duplication_sheets_pdf, hand_records_pdf
from boards.pdf.protocol_form import protocol_forms_pdf
from preferans.cards.deal import DealtBoard, deal_boards, seeded_rng

BOARDS4 = deal_boards(seeded_rng(11), sets=4, per_set=4, players=4)  # 16 boards: 3 pages of 6
BOARDS3 = deal_boards(seeded_rng(12), sets=2, per_set=3, players=3)


def _pages(data: bytes) -> list[str]:
    assert data.startswith(b"%PDF")
    reader = PdfReader(io.BytesIO(data))
    return [page.extract_text() for page in reader.pages]


def _fonts(data: bytes) -> set[str]:
    reader = PdfReader(io.BytesIO(data))
    names: set[str] = set()
    for page in reader.pages:
        fonts = page["/Resources"]["/Font"]
        for ref in fonts.values():
            names.add(str(ref.get_object()["/BaseFont"]))
    return names


def _flat(text: str) -> str:
    return " ".join(text.split())


def _page_of(pages: list[str], board: DealtBoard, per_page: int) -> str:
    return _flat(pages[(board.number - 1) // per_page])


def test_register_fonts_is_idempotent() -> None:
    register_fonts()
    register_fonts()
    from reportlab.pdfbase import pdfmetrics

    assert {FONT, FONT_BOLD} <= set(pdfmetrics.getRegisteredFontNames())


@pytest.mark.parametrize("boards", [BOARDS4, BOARDS3], ids=["4 players", "3 players"])
def test_hand_records_name_every_board_in_russian(boards: tuple[DealtBoard, ...]) -> None:
    data = hand_records_pdf(boards)
    pages = _pages(data)
    assert len(pages) == -(-len(boards) // 6)
    for board in boards:
        text = _page_of(pages, board, 6)
        assert f"Сдача {board.number}" in text
        assert f"Комплект {board.set_number}" in text
        assert f"Сдающий: {board.dealer.value}" in text
        for card in board.prikup:
            assert card.suit.symbol in text and card.rank.text in text
    first = _flat(pages[0])
    for heading in ("Расклады сдач", "Прикуп", "верхняя", "нижняя"):
        assert heading in first
    for symbol in "♠♣♦♥":
        assert symbol in first
    assert all("DejaVuSans" in name for name in _fonts(data))


def test_three_player_records_say_first_hand() -> None:
    text = _flat(_pages(hand_records_pdf(BOARDS3))[0])
    assert "Сдающий: N (первая рука)" in text
    assert "прикуп в кармане W" in text


def test_hand_records_in_english() -> None:
    pages = _pages(hand_records_pdf(BOARDS4[:4], lang="en", title="Club cup", room="B"))
    text = _flat(pages[0])
    for words in (
        "Club cup",
        "Room: B",
        "Board 1",
        "Set 1",
        "Dealer: N",
        "Board 4",
        "Dealer: W",
        "Prikup",
        "top",
    ):
        assert words in text


def test_bad_lang_is_refused() -> None:
    with pytest.raises(ValueError, match="'ru' or 'en'"):
        hand_records_pdf(BOARDS4, lang="de")


def test_duplication_sheets_repeat_the_boards_per_room() -> None:
    boards = BOARDS4[:8]
    pages = _pages(duplication_sheets_pdf(boards, rooms=["2", "3"]))
    assert len(pages) == 4  # 2 pages per room
    for i, room in enumerate(("2", "3")):
        for page in pages[2 * i : 2 * i + 2]:
            text = _flat(page)
            assert "Копия для дублирования коробок" in text
            assert f"Зал: {room}" in text
        both = _flat(" ".join(pages[2 * i : 2 * i + 2]))
        for board in boards:
            assert f"Сдача {board.number}" in both
    with pytest.raises(ValueError):
        duplication_sheets_pdf(boards, rooms=[])


def test_protocol_form_one_page_per_board() -> None:
    boards = BOARDS4[:4]
    data = protocol_forms_pdf(boards, tournament="Кубок клуба", rows=10)
    pages = _pages(data)
    assert len(pages) == len(boards)
    for board, page in zip(boards, pages, strict=True):
        text = _flat(page)
        assert f"№ комплекта: {board.set_number}" in text
        assert f"№ сдачи: {board.number}" in text
        assert f"Сдающий: {board.dealer.value}" in text
        for heading in ("ПРОТОКОЛ", "Турнир: Кубок клуба", "Организатор", "Гл. судья", "Готовил сдачу"):
            assert heading in text
        for column in ("Разыгрывающий", "Первый вистующий", "Второй вистующий", "Висты"):
            assert column in text
        assert text.count("МП") == 4 + 1  # N, E, S, W columns and the note
        assert "верхняя" in text and "нижняя" in text
    assert all("DejaVuSans" in name for name in _fonts(data))


def test_protocol_form_three_players_has_no_w_columns() -> None:
    pages = _pages(protocol_forms_pdf(BOARDS3[:1]))
    text = _flat(pages[0])
    assert text.count("МП") == 3 + 1
    assert "первая рука" in text


def test_protocol_form_in_english() -> None:
    text = _flat(_pages(protocol_forms_pdf(BOARDS4[:1], lang="en"))[0])
    for words in (
        "PROTOCOL",
        "Tournament",
        "Set No.: 1",
        "Board No.: 1",
        "Declarer",
        "First whister",
        "Vists",
        "MP",
    ):
        assert words in text


def test_protocol_form_rows_limit() -> None:
    with pytest.raises(ValueError, match="1 to 16 lines"):
        protocol_forms_pdf(BOARDS4[:1], rows=0)
