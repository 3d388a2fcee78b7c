"""Procedural penalties (duplicate rules §12): a penalty only ever takes matchpoints away.

§12.1 «судья может также штрафовать любого нарушителя» — the director may *fine* an offender; §13.2.4 «налагать
дисциплинарные наказания в очках» — disciplinary penalties *in points*. A fine is a deduction: a penalty of
``+3`` would be a bonus, and ``0`` is no penalty at all. So the one rule is: **a penalty is an exact number of
matchpoints below zero**. Every channel (the director's penalty page, a ruling, a committee decision, the API,
the bundle import) checks a penalty with :func:`check_penalty` before anything is stored.

The book names the offences (§12.2.1–12.2.8) but gives **no values** for them: how many matchpoints an offence
costs is the organisers' choice. :data:`DEFAULT_DEDUCTION` is the software's suggestion, not the book's.

Pure Python, exact fractions, no Django import.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Final

from preferans.numbers import NumberFormatError, parse_fraction

__all__ = [
    "DEFAULT_DEDUCTION",
    "OFFENCES",
    "PenaltyRefusal",
    "check_penalty",
    "parse_penalty",
]

OFFENCES: Final = ("12.2.1", "12.2.2", "12.2.3", "12.2.4", "12.2.5", "12.2.6", "12.2.7", "12.2.8")
"""The procedural offences of §12.2 (the list «не ограничивается ими»: others may be penalised too)."""

DEFAULT_DEDUCTION: Final = Fraction(2)
"""The deduction the director's form suggests: the organisers' choice (§12 gives no values), not the book's."""


class PenaltyRefusal(ValueError):
    """Why a penalty is refused: a stable ``code`` (``penalty_value``, ``penalty_sign``), English text, params."""

    def __init__(self, code: str, message: str, params: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = dict(params or {})


def check_penalty(value: Fraction) -> PenaltyRefusal | None:
    """§12: ``None`` when ``value`` may be a penalty (below zero), else why not."""
    if value < 0:
        return None
    return PenaltyRefusal(
        "penalty_sign",
        f"a penalty takes matchpoints away (rules §12): write a negative number, not {value}",
        {"value": str(value)},
    )


def parse_penalty(raw: object) -> Fraction:
    """A penalty as written («-2», «-1/2», «-1,5», «−2»), checked by :func:`check_penalty`.

    Raises :class:`PenaltyRefusal` (``penalty_value``: not a number; ``penalty_sign``: not below zero).
    """
    text = str(raw if raw is not None else "").strip().replace(",", ".").replace("\u2212", "-")
    try:
        value = parse_fraction(text)
    except NumberFormatError as exc:
        raise PenaltyRefusal(
            "penalty_value", f"not a number of matchpoints: {text!r}", {"value": text}
        ) from exc
    refusal = check_penalty(value)
    if refusal is not None:
        raise refusal
    return value
