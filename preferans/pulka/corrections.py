"""A wrong entry on the sheet and its penalty (Code 4.2.4, 4.2.7–4.2.10).

«Ошибка в записи может быть поправлена партнёрами, но безнаказанно – только в первый раз, в виде
предупреждения … штраф за приписку должен равняться величине приписки» (4.2.7). Only what a player ADDED IN HIS
OWN FAVOUR is punished (a «приписка»):

* pool points written to himself beyond what was due — he writes as many on his mountain (4.2.7 б);
* whists written on a partner beyond what was due — the partner writes as many back on him (4.2.7 а).

A forgotten entry — a mountain left off, whists not written — is written late WITHOUT penalty: «Не сделанная
вовремя запись (забытая) может быть сделана» (4.2.10). «Каждый игрок сам ведёт запись результатов своей игры»
(4.2.4): each player keeps his own entries, so the player who GAINS from a wrong row answers for it, whoever
typed the row on the shared phone (the software's reading of who «writes» when one device keeps the sheet).

:func:`writing_penalties` compares the deal's ledger as written and as corrected, column by column (pool, and
each whist column), without netting one column against another (the software's choice: each column is an entry
of its own), and returns, per player who answers, the penalty as extra entries (formats §7.1), whole numbers
rounded up (P-25). The warning-first rule (the first correction is a warning) is applied per answering player by
the caller, who knows the history. Pure Python: no Django import.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction

from preferans.game import Ledger, compute_ledger, parse_row

from .setup import PulkaSetup

__all__ = ["deal_ledger", "writing_penalties"]


def deal_ledger(
    setup: PulkaSetup, number: int, row: Mapping[str, object], label: str | None = None
) -> Ledger:
    """The ledger of deal ``number`` as ``row`` writes it (the row must be valid for that deal). ``label`` is the
    row's dealer label as the sheet was played (a deal dealt out of turn shifts the order, Code 3.2.14); without
    it, the order from the first dealer."""
    label = label or setup.row_dealer(number)
    deal, table = parse_row(row, rules=setup.rules, players=setup.players, dealer=label)
    return compute_ledger(deal, rules=setup.rules, table=table)


def _whole(amount: Fraction) -> int:
    return math.ceil(amount)


def writing_penalties(
    setup: PulkaSetup,
    number: int,
    written: Mapping[str, object],
    corrected: Mapping[str, object],
    label: str | None = None,
) -> dict[str, list[dict[str, object]]]:
    """Seat → the extra entries that punish that seat for what ``written`` gave him beyond ``corrected``.

    Only seats that gained appear, in seat order. A row that only left something off gives nobody a penalty.
    """
    old, new = deal_ledger(setup, number, written, label), deal_ledger(setup, number, corrected, label)
    zero = Fraction(0)
    out: dict[str, list[dict[str, object]]] = {}
    for seat in setup.seats:
        entries: list[dict[str, object]] = []
        pool = old.pool.get(seat, zero) - new.pool.get(seat, zero)
        if pool > 0:  # 4.2.7 б: «столько же очков (в виде штрафа) он должен написать в гору»
            entries.append({"type": "mountain", "seat": seat, "amount": _whole(pool)})
        for other in setup.seats:
            if other == seat:
                continue
            extra = old.whists.get((seat, other), zero) - new.whists.get((seat, other), zero)
            if extra > 0:  # 4.2.7 а: «партнёр может написать на вас столько, сколько вы на него … приписали»
                entries.append({"type": "whist", "from": other, "to": seat, "amount": _whole(extra)})
        if entries:
            out[seat] = entries
    return out
