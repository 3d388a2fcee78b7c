"""Every player's name is printed whole in the Olympic bracket's PDF, on two lines (or in smaller type) when it
is long, never cut short with an ellipsis, and no text runs out of its box or off the page (issue 30, «Names
are cut»)."""

from __future__ import annotations

import io
import os
import random
import re
from pathlib import Path

import pytest
from django.utils import timezone
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth  # type: ignore[import-untyped]

from boards.pdf.fonts import FONT, FONT_BOLD, register_fonts
from pulkas.services import rounds
from results.pdf_common import MARGIN
from results.pulka_exports.pdf import GAP_X, NAME_SIZES, name_lines
from results.services import build_file
from tests.pulkas.factory import play_to_the_end, pulka_event

pytestmark = pytest.mark.django_db

NAMES = (
    "Константинопольский Александр",
    "Жукова-Калинина Анастасия",
    "Петропавловская-Камчатская Елизавета",
    "Новомосковский Вячеслав Вячеславович",
    "Преображенская Валентина",
    "Ли Ян",
    "Черноморский-Приазовский Святослав",
    "Добровольская-Милославская Екатерина Александровна",
    "Вознесенский Ростислав",
    "Рождественская Маргарита",
    "Благовещенский Мстислав",
    "Святополк-Четвертинская Ксения",
    "Гольденвейзер Иннокентий",
    "Ю Ким",
    "Щербатова-Оболенская Елизавета Владимировна",
)
HUGE = "Константинопольская-Византийская " * 3 + "Анастасия"


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


def olympic_event(director):
    """15 players with long names at tables of 3, played through the director's services: five winners (a
    table of 4 and a bye), then a final of 3 with a lucky loser."""
    t = pulka_event(director, "olympic", 15, 3, slug="long-names", names=NAMES, pool=4, olympic_refill=True)
    rng = random.Random(11)
    for _ in range(3):
        play_to_the_end(
            t, director, rounds.draw_round(tournament=t, user=director, now=timezone.now(), seed=11), rng
        )
    return t


def pieces(pdf: bytes) -> list[tuple[int, str, float, float, float]]:
    """Every piece of text drawn: its page, text, x, baseline and right end (measured in its face)."""
    register_fonts()
    out: list[tuple[int, str, float, float, float]] = []
    for number, page in enumerate(PdfReader(io.BytesIO(pdf)).pages):

        def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
            if not text.strip():
                return
            x = cm[0] * tm[4] + cm[2] * tm[5] + cm[4]
            y = cm[1] * tm[4] + cm[3] * tm[5] + cm[5]
            scale = (tm[0] ** 2 + tm[1] ** 2) ** 0.5 * (cm[0] ** 2 + cm[1] ** 2) ** 0.5
            face = FONT_BOLD if "Bold" in str(font.get("/BaseFont", "")) else FONT  # type: ignore[attr-defined]
            out.append((number, text, x, y, x + stringWidth(text.rstrip(), face, size * scale)))  # noqa: B023

        page.extract_text(visitor_text=visit)
    return out


def test_the_bracket_prints_every_long_name_whole(director) -> None:
    t = olympic_event(director)
    _name, body = build_file(t.pk, "pulka_bracket", "pdf", {"lang": "ru"})  # as the exports page makes it
    assert len(PdfReader(io.BytesIO(body)).pages) == 1
    if os.environ.get("BRACKET_PDF"):  # to look at it: BRACKET_PDF=/tmp/bracket.pdf
        Path(os.environ["BRACKET_PDF"]).write_bytes(body)
    reader = PdfReader(io.BytesIO(body))
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert "…" not in text
    for name in NAMES:
        assert squeeze(name) in squeeze(text), name
    width, height = (float(v) for v in (reader.pages[0].mediabox.width, reader.pages[0].mediabox.height))
    drawn = pieces(body)
    assert all(x >= 0 and right <= width and 0 <= y <= height for _, _, x, y, right in drawn)
    # the rounds' titles start the columns; every piece of text below them lies inside its column's box
    titles = sorted({x for _, text, x, _, _ in drawn if text.strip() in ("Тур 1", "Тур 2", "Финал")})
    assert len(titles) == t.pulka_rounds.count() == 3
    edges = [
        (x, (titles[k + 1] - GAP_X) if k + 1 < len(titles) else width - MARGIN) for k, x in enumerate(titles)
    ]
    for page, piece, x, y, right in drawn:
        column = [(left, end) for left, end in edges if left - 0.5 <= x <= end]
        if column and y < 480:  # below the heading and the legend
            left, end = column[0]
            assert right <= end + 0.5, (page, piece, x, right, end)
    # and no two pieces on one line overlap (a name does not run into the vists beside it)
    lines: dict[tuple[int, float], list[tuple[float, float, str]]] = {}
    for page, piece, x, y, right in drawn:
        lines.setdefault((page, round(y, 1)), []).append((x, right, piece))
    for row in lines.values():
        row.sort()
        for (_, right, a), (x, _, b) in zip(row, row[1:], strict=False):
            assert right <= x + 0.5, (a, b)


@pytest.mark.parametrize(("width", "beside"), [(240, 60), (140, 56), (97, 45), (60, 40)])  # 2 … 6+ columns
@pytest.mark.parametrize("name", [*NAMES, HUGE])
def test_name_lines_keeps_every_letter_in_its_width(name: str, width: float, beside: float) -> None:
    register_fonts()
    for bold, mark in ((False, ""), (True, "→ ")):
        size, lines = name_lines(name, width, bold, mark, beside)
        assert size in NAME_SIZES
        assert squeeze("".join(lines)) == squeeze(mark + name)
        face = FONT_BOLD if bold else FONT
        assert stringWidth(lines[0], face, size) <= width - beside + 0.01  # beside the figures
        assert all(stringWidth(line, face, size) <= width + 0.01 for line in lines)
        rebuilt = lines[0]
        for line in lines[1:]:
            rebuilt += ("" if rebuilt.endswith("-") else " ") + line
        if " ".join(rebuilt.split()) != mark + name:  # a word cut between letters: only one (its part up to
            # a hyphen) longer than the row in the smallest type
            assert size == NAME_SIZES[-1]
            parts = [part for word in name.split() for part in re.findall(r"[^-]+-*|-+", word)]
            assert any(stringWidth(part, face, size) > width for part in parts)


def test_a_long_name_takes_two_lines_at_8_pt_and_a_narrow_column_the_row_under_the_figures() -> None:
    register_fonts()
    assert name_lines("Ли Ян", 200.0, beside=50.0) == (8.0, ["Ли Ян"])
    assert name_lines(NAMES[0], 160.0, beside=50.0) == (8.0, ["Константинопольский", "Александр"])
    assert name_lines(NAMES[1], 160.0, True, "→ ", 50.0) == (8.0, ["→ Жукова-Калинина", "Анастасия"])
    size, lines = name_lines(NAMES[0], 97.0, True, "→ ", 45.0)  # six rounds' columns
    assert lines == ["→ ", "Константинопольский", "Александр"] and size < 8.0
