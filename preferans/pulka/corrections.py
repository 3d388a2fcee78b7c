"""A wrong entry on the sheet and its penalty (Code 4.2.7–4.2.10).

«Ошибка в записи может быть поправлена партнёрами, но безнаказанно – только в первый раз, в виде
предупреждения … штраф за приписку должен равняться величине приписки» (4.2.7): whists a writer wrote on a
partner beyond what was due, the partner writes back on him; pool points he wrote himself beyond what was due,
he writes as many on his mountain. The same holds for the mountain and whists he left off his own account.
:func:`overstatement_penalty` compares the deal's ledger as written and as corrected and returns the penalty
as extra entries (formats §7.1), whole numbers rounded up (P-25). Pure Python: no Django import.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction

from preferans.game import Ledger, compute_ledger, parse_row

from .setup import PulkaSetup

__all__ = ["deal_ledger", "overstatement_penalty"]


def deal_ledger(setup: PulkaSetup, number: int, row: Mapping[str, object]) -> Ledger:
    """The ledger of deal ``number`` as ``row`` writes it (the row must be valid for that deal)."""
    label = setup.row_dealer(number)
    deal, table = parse_row(row, rules=setup.rules, players=setup.players, dealer=label)
    return compute_ledger(deal, rules=setup.rules, table=table)


def _whole(amount: Fraction) -> int:
    return math.ceil(amount)


def overstatement_penalty(
    setup: PulkaSetup,
    number: int,
    written: Mapping[str, object],
    corrected: Mapping[str, object],
    writer: str,
) -> list[dict[str, object]]:
    """The extra entries that punish ``writer`` for what ``written`` gave him beyond ``corrected``."""
    old, new = deal_ledger(setup, number, written), deal_ledger(setup, number, corrected)
    zero = Fraction(0)
    entries: list[dict[str, object]] = []
    mountain = (old.pool.get(writer, zero) - new.pool.get(writer, zero)) + (
        new.mountain.get(writer, zero) - old.mountain.get(writer, zero)
    )
    if mountain > 0:
        entries.append({"type": "mountain", "seat": writer, "amount": _whole(mountain)})
    for other in setup.seats:
        if other == writer:
            continue
        extra = (old.whists.get((writer, other), zero) - new.whists.get((writer, other), zero)) + (
            new.whists.get((other, writer), zero) - old.whists.get((other, writer), zero)
        )
        if extra > 0:
            entries.append({"type": "whist", "from": other, "to": writer, "amount": _whole(extra)})
    return entries
