"""Whole numbers typed by people (a participant's number, a board, a round): ASCII digits only.

``str.isdigit`` is true for «¹», «①» and «²3», which ``int`` refuses (a 500 where a check was meant), and ``int``
itself takes «٣», «３», «1_0», « +1 »: a number typed into a form or a header is read here, by one rule, and
anything else is no number (``None``).
"""

from __future__ import annotations

import re
from collections.abc import Sized

from preferans.bundle.bounds import PARTICIPANT_NUMBER_MAX

_DIGITS = re.compile(r"[0-9]{1,9}")
MAX_PARTICIPANT_DIGITS = 6
MAX_PARTICIPANT = PARTICIPANT_NUMBER_MAX  # the numbers a participant may be given


def whole_number(raw: object, *, digits: int = 9, low: int = 0, high: int = 2**31 - 1) -> int | None:
    """``raw`` (a string or an int, surrounding spaces allowed) as an int of ASCII digits within ``low..high``
    and at most ``digits`` digits long; anything else (a bool, a sign, «¹», «1_0», a float) → None."""
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        value = raw
    elif isinstance(raw, str):
        text = raw.strip()
        if len(text) > digits or not _DIGITS.fullmatch(text):
            return None
        value = int(text)
    else:
        return None
    return value if low <= value <= high else None


def participant_number(raw: object) -> int | None:
    """A participant's number as typed («7», « 07 ») → 7; anything else (0, «¹», «①», «٣», too long) → None."""
    return whole_number(raw, digits=MAX_PARTICIPANT_DIGITS, low=1, high=MAX_PARTICIPANT)


def list_count(items: Sized) -> int:
    """The number that picks the plural form of a list's label: 1 for one item, 2 for several.

    ``ngettext(…, len(items))`` would label a list of 21 tables with the Russian singular («стол 1, …, 21»:
    21 takes the form of 1); a list is singular only when it holds one item.
    """
    return 1 if len(items) == 1 else 2
