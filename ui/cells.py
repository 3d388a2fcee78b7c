"""The one rule for typed text in a spreadsheet cell (every Excel and CSV file goes through :func:`safe_text`).

Names, clubs and the tournament's name are typed by anyone, so on the way out of every workbook and CSV file:

- characters a file cannot hold are dropped: the C0 control characters other than tab, line feed and carriage
  return (XML 1.0 forbids them, and openpyxl refuses the whole workbook for one of them —
  ``openpyxl.cell.cell.ILLEGAL_CHARACTERS_RE``), DEL and the C1 controls, the direction overrides that make a
  name read differently from what it is, and lone surrogates and non-characters (they cannot be written as UTF-8);
- text that a spreadsheet would run as a formula is made text (OWASP, «CSV injection»): a cell that begins —
  after any spaces — with ``=``, ``+``, ``-``, ``@``, a tab, a carriage return or a line feed gets a single
  quote in front. A plain signed number (``-5``, ``+7``, ``-43/2``, ``-1,5``) or a lone sign (the raspasy code
  ``-``) runs nothing and is kept as typed. Numbers the program writes are numbers in the file, not text: the
  renderers (:mod:`results.render_tabular`) pass them by, and write text cells with the string type, never as a
  formula.

The rule is pure (no Django) so any writer can use it.
"""

from __future__ import annotations

import re

from ui.templatetags.scores import decimal_sign

__all__ = ["CONTROL_CHARACTERS", "printable", "safe_text"]

CONTROL_CHARACTERS = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufffe\uffff\ud800-\udfff]"
)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\n")
_SIGNED_NUMBER = re.compile(r"[+-] *(\d+([.,]\d+)?(/\d+)?)?")  # "-", "-5", "-43/2", "+1,5": no formula to run


def printable(value: str) -> str:
    """``value`` without the characters no file can hold (see the module's note); the rest as typed."""
    return CONTROL_CHARACTERS.sub("", value)


def safe_text(value: str) -> str:
    """Typed text as it goes into a spreadsheet cell: printable, and text that begins like a formula with an
    apostrophe in front (a lone sign or a plain signed number is left as it is)."""
    value = printable(value)
    start = value.lstrip(" ")
    if not start.startswith(_FORMULA_START):
        return value
    if _SIGNED_NUMBER.fullmatch(start.rstrip()):
        return value
    return "'" + value


def csv_delimiter(lang: str) -> str:
    """``;`` where the decimal sign is a comma (Russian Excel splits on it), else ``,``."""
    return ";" if decimal_sign(lang) == "," else ","
