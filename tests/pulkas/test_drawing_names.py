"""Every player's name is drawn whole on the pulka sheet (SVG) and its PDF page: around the square on his side,
and in the table of final figures, on more lines when it is long, never cut short with an ellipsis (issue 30).
Pure, no database."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

import pytest
from pypdf import PdfReader

from preferans.pulka import PulkaSetup, play_pulka
from tests.pulkas.test_drawing import LABELS, SVG, scored, texts
from ui.pulka_drawing import sheet_shapes, sheet_svg
from ui.pulka_shapes import SIZE, Text, estimate_width, wrap_text
from ui.pulka_sheet_pdf import sheet_pdf

LONG = (
    "Константинопольский Александр",
    "Жукова-Калинина Анастасия",
    "Ли Ян",
    "10 Константинопольский Александр",
)
HUGE = "Константинопольская-Византийская " * 6 + "Анастасия"  # 207 letters: far longer than a side


def long_names(case_id: str, names: tuple[str, ...] = LONG) -> tuple[dict[str, str], object]:
    _, score = scored(case_id)
    return {seat: names[i] for i, seat in enumerate(score.setup.seats)}, score


def squeeze(text: str) -> str:
    """Text with its line breaks and spaces gone, so that a name wrapped onto lines compares with the name."""
    return re.sub(r"\s+", "", text)


def on_the_page(pdf: bytes) -> str:
    """The page's text, after checking that every piece of it is drawn on the page (none beyond an edge)."""
    page = PdfReader(io.BytesIO(pdf)).pages[0]
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    outside: list[tuple[str, float, float]] = []

    def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
        x = cm[0] * tm[4] + cm[2] * tm[5] + cm[4]
        y = cm[1] * tm[4] + cm[3] * tm[5] + cm[5]
        if text.strip() and not (0 <= x <= width and 0 <= y <= height):
            outside.append((text, x, y))

    text = page.extract_text(visitor_text=visit)
    assert not outside, outside
    return text


def test_wrap_text_keeps_every_letter() -> None:
    assert wrap_text("Ли Ян", 200, 12.5, estimate_width) == ["Ли Ян"]
    lines = wrap_text(LONG[0], 160, 12.5, estimate_width)
    assert lines == ["Константинопольский", "Александр"]
    assert wrap_text(LONG[1], 120, 12.5, estimate_width)[:2] == ["Жукова-", "Калинина"]  # after the hyphen
    lines = wrap_text(HUGE, 100, 12.5, estimate_width, bold=True)
    assert squeeze("".join(lines)) == squeeze(HUGE)
    assert all(estimate_width(line, 12.5, True) <= 100 for line in lines)
    assert wrap_text("Ли Ян", 200, 12.5, estimate_width, indent=190) == [
        "",
        "Ли Ян",
    ]  # nothing fits the indent
    assert wrap_text("", 200, 12.5, estimate_width) == [""]


@pytest.mark.parametrize("case_id", ["V06", "V07"])  # 4 players (one dealer sits out), 3 players
def test_the_sheet_draws_every_name_whole_without_an_ellipsis(case_id: str) -> None:
    names, score = long_names(case_id)
    svg = sheet_svg(score, names=names, labels=LABELS)
    drawn = texts(svg)
    assert not any("…" in t for t in drawn), drawn
    joined = squeeze("".join(drawn))
    for name in names.values():
        assert joined.count(squeeze(name)) >= 2, name  # by his side of the square, and in the table
    # nothing is drawn outside the picture: every text lies in the viewBox (by the generous width estimate)
    root = ET.fromstring(svg)
    x0, y0, w, h = (float(v) for v in (root.get("viewBox") or "").split())
    for node in root.iter(f"{SVG}text"):
        x, y = float(node.get("x") or 0), float(node.get("y") or 0)
        assert x0 <= x <= x0 + w and y0 <= y <= y0 + h, ET.tostring(node, encoding="unicode")


@pytest.mark.parametrize("players", [3, 4])
def test_a_name_longer_than_a_side_takes_more_lines_and_stays_in_the_picture(players: int) -> None:
    setup = PulkaSetup.create(variant="sochi", players=players, pool=10, first_dealer="N")
    score = play_pulka(setup, [])
    names = {seat: HUGE for seat in setup.seats}
    shapes, box = sheet_shapes(score, names, LABELS)
    outside = [
        s for s in shapes if isinstance(s, Text) and not (0 <= s.x <= SIZE and 0 <= s.y <= SIZE) and s.spans
    ]
    for shape in outside:  # each line fits its side and lies in the box
        width = sum(estimate_width(span.text, shape.size, span.bold) for span in shape.spans)
        assert width <= SIZE, shape
        assert box.left <= shape.x <= box.right and box.top <= shape.y <= box.bottom, shape
    assert squeeze("".join(span.text for s in outside for span in s.spans)).count(squeeze(HUGE)) == players
    pdf = sheet_pdf(score, names=names, labels=LABELS, title="Пулька с длинными именами")
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 1
    assert squeeze(on_the_page(pdf)).count(squeeze(HUGE)) >= players


@pytest.mark.parametrize("case_id", ["V06", "V07"])
def test_the_pdf_page_prints_every_name_whole(case_id: str) -> None:
    names, score = long_names(case_id)
    title = "Кубок Северной столицы по преферансу памяти Константинопольского — тур 1, стол 1"
    pdf = sheet_pdf(score, names=names, labels=LABELS, title=title)
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 1
    text = on_the_page(pdf)
    assert "…" not in text
    for name in names.values():
        assert squeeze(text).count(squeeze(name)) >= 2, name  # by his side of the square, and in the table
    assert squeeze(title) in squeeze(text)  # a long title wraps too
