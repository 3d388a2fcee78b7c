"""How the result PDFs write a number, a percentage, a contract and a table in a cell.

Numbers are the core's exact values, rounded half-up for print only (``16/3`` → ``5,33``), with the language's
decimal sign and a typographic minus.
"""

from __future__ import annotations

from fractions import Fraction

from results.data import Report
from results.pdf_common import RED, Cell
from ui.templatetags.scores import display_number

__all__ = ["contract_cell", "has_rooms", "num", "pct", "table_cell"]

MINUS = "−"


def num(value: Fraction | None, lang: str = "ru") -> str:
    """An exact number for print: ``16/3`` → ``5,33`` (ru) / ``5.33`` (en); a typographic minus."""
    return display_number(value, lang).replace("-", MINUS)


def pct(value: Fraction | str | None, lang: str = "ru") -> str:
    """A percentage for print with both places (``59,30``), in the language's decimal sign."""
    return display_number(value, lang, trim=False).replace("-", MINUS)


def contract_cell(text: str) -> str | Cell:
    """A contract, in red when its suit is diamonds or hearts."""
    return Cell(text, colour=RED) if ("♦" in text or "♥" in text) else text


def has_rooms(report: Report) -> bool:
    """Whether the event is played in more than one room (rules §2)."""
    return any(r.room != 1 for s in report.sessions for r in s.results)


def table_cell(room: int, table: int) -> str:
    """A table named as the director's pages name it: «3», or «2/3» for table 3 of room 2 (rules §2)."""
    return f"{room}/{table}" if room != 1 else str(table)
