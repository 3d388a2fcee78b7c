"""Text on a printed page, for every file the product prints (hand records, results, pulka sheets, the appeal
form): how wide a text is in the fonts of :mod:`.fonts`, wrapped or clipped to a width, and the file's language."""

from __future__ import annotations

from typing import Literal

from reportlab.pdfbase.pdfmetrics import stringWidth  # type: ignore[import-untyped]

Lang = Literal["ru", "en"]


def lang_of(value: str | None) -> Lang:
    """The language of a printed file: ``"en"`` or else Russian (the default)."""
    return "en" if value == "en" else "ru"


_WIDTHS: dict[tuple[str, str, float], float] = {}


def text_width(text: str, font: str, size: float) -> float:
    key = (text, font, size)
    w = _WIDTHS.get(key)
    if w is None:
        if len(_WIDTHS) > 200_000:
            _WIDTHS.clear()
        w = _WIDTHS[key] = stringWidth(text, font, size)
    return w


def wrap_text(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy word wrap of ``text`` (newlines kept) into lines no wider than ``width``."""
    out: list[str] = []
    for paragraph in text.split("\n"):
        words = paragraph.split()
        line = ""
        for word in words:
            candidate = f"{line} {word}" if line else word
            if line and stringWidth(candidate, font, size) > width:
                out.append(line)
                line = word
            else:
                line = candidate
        out.append(line)
    return out


def clip_text(text: str, font: str, size: float, width: float) -> str:
    """``text`` cut to ``width`` with an ellipsis (a cell's text never runs into its neighbour)."""
    if text_width(text, font, size) <= width:
        return text
    while len(text) > 1 and text_width(text + "…", font, size) > width:
        text = text[:-1]
    return text.rstrip() + "…"
