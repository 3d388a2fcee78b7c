"""The embedded font for every PDF of the project.

DejaVu Sans (regular and bold, shipped in ``boards/fonts/`` with its licence) covers Latin, Cyrillic and the
card suit symbols ♠ ♣ ♦ ♥, so Russian headings and card diagrams render the same everywhere, without any
font installed on the server. Call :func:`register_fonts` before drawing; it is cheap to call again.

    from boards.pdf.fonts import FONT, FONT_BOLD, register_fonts
    register_fonts()
    canvas.setFont(FONT, 10)
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from reportlab.lib.fonts import addMapping  # type: ignore[import-untyped]
from reportlab.pdfbase import pdfmetrics  # type: ignore[import-untyped]
from reportlab.pdfbase.ttfonts import TTFont  # type: ignore[import-untyped]

__all__ = ["FONT", "FONT_BOLD", "FONT_DIR", "FONT_FAMILY", "register_fonts"]

FONT_DIR: Final = Path(__file__).resolve().parent.parent / "fonts"
FONT: Final = "DejaVuSans"
FONT_BOLD: Final = "DejaVuSans-Bold"
FONT_FAMILY: Final = FONT
"""Family name for reportlab paragraphs (``<b>`` switches to the bold face)."""

_FILES: Final = {FONT: "DejaVuSans.ttf", FONT_BOLD: "DejaVuSans-Bold.ttf"}


def register_fonts() -> None:
    """Register the regular and bold faces (once per process) and their family mapping."""
    registered = set(pdfmetrics.getRegisteredFontNames())
    for name, filename in _FILES.items():
        if name not in registered:
            pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / filename)))
    addMapping(FONT_FAMILY, 0, 0, FONT)
    addMapping(FONT_FAMILY, 1, 0, FONT_BOLD)
    addMapping(FONT_FAMILY, 0, 1, FONT)
    addMapping(FONT_FAMILY, 1, 1, FONT_BOLD)
