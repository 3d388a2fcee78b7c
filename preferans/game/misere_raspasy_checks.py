"""Checks of the rows of deals without whist (spec §11.4): raspasy (all passed: the three hands' tricks in
clockwise order from the first hand) and a misère (the declarer's tricks, shared with the dealer or not).
Returns the :class:`Deal` it could read (or ``None``). Pure Python: no Django import.
"""

from __future__ import annotations

from collections.abc import Mapping

from .contracts import parse_contract
from .ledger import Deal, DealKind, Play, TableSeats
from .row_fields import (
    CONTRACT_COLUMN_NAMES,
    RASPASY_COLUMN_NAMES,
    ErrorList,
    bool_field,
    check_order,
    int_field,
    positions,
    present,
    totals_and_order,
)
from .variants import RaspasyMode, Rules

__all__ = ["check_misere", "check_raspasy"]


def _no_whist_fields(row: Mapping[str, object], errors: ErrorList, what: str, *, calls_code: str) -> None:
    calls = row.get("calls")
    if calls is not None and calls != {}:
        errors.add(calls_code, "calls", "{what} has no whist calls", what=what)
    if bool_field(row, "dealer_whist", errors):
        errors.add("dealer_whist", "dealer_whist", "{what} has no whist, so no dealer_whist", what=what)
    if present(row, "penalty_tricks"):
        errors.add("penalty_tricks", "penalty_tricks", "penalty_tricks apply only to a trick contract (6…10)")
    if present(row, "wrong_cards"):
        errors.add(
            "wrong_cards_kind",
            "wrong_cards",
            "wrong_cards (Code 3.9.18) applies only to a played trick contract (6…10), not to a {what} — "
            "record the director's penalty as extra entries",
            what=what,
        )


def check_raspasy(
    row: Mapping[str, object], rules: Rules, table: TableSeats, dealer: str | None, errors: ErrorList
) -> Deal | None:
    """Raspasy: the deal as read, or ``None`` (its problems in ``errors``)."""
    pos = positions(row, table, RASPASY_COLUMN_NAMES, errors)
    _no_whist_fields(row, errors, "raspasy", calls_code="calls_raspasy")
    if bool_field(row, "misere_shared", errors):
        errors.add("misere_shared", "misere_shared", "misere_shared belongs to a misère, not to raspasy")
    if row.get("play") not in (None, Play.NONE.value):
        errors.add("play", "play", "raspasy has no whist play — leave play out or write none")
    step = int_field(row, "raspasy_step", errors, 1, rules.progression_cap) or 1
    if present(row, "raspasy_step") and step != 1 and rules.progression.value == "none":
        errors.add(
            "raspasy_step",
            "raspasy_step",
            "raspasy step {step} given, but the rules have no progression",
            step=step,
        )
    if pos is None:
        return None
    first = table.first_hand() or dealer or pos["declarer"][0]
    if pos["declarer"][0] != first:
        errors.add(
            "column_order",
            "declarer",
            "raspasy columns must start with the first hand {first}, not {seat}",
            first=first,
            seat=pos["declarer"][0],
        )
    else:
        check_order(
            pos,
            table,
            first,
            errors,
            "raspasy columns not in clockwise order: after {after} come {first} and {second}",
        )
    total = sum(t for _, t in pos.values())
    if table.players == 3 and total != 10:
        errors.add(
            "raspasy_total",
            "declarer",
            "raspasy total {total} at a 3-player table — the three hands take 10 tricks",
            total=total,
        )
    elif rules.raspasy_mode is RaspasyMode.WHISTS and total != 10:
        errors.add(
            "raspasy_total",
            "declarer",
            "raspasy total {total} at a 4-player {variant} table — the three hands take 10 tricks (the prikup is not played)",
            total=total,
            variant=rules.variant,
        )
    elif total < 8:
        errors.add(
            "raspasy_total",
            "declarer",
            "4-player raspasy total {total} (<8) — the three hands take 8 to 10 tricks (the dealer at most 2)",
            total=total,
        )
    elif total > 10:
        errors.add(
            "raspasy_total",
            "declarer",
            "4-player raspasy total {total} (>10) — there are only 10 tricks",
            total=total,
        )
    tricks = {seat: t for seat, t in pos.values()}
    return Deal(DealKind.RASPASY, tricks=tricks, raspasy_step=step)


def check_misere(row: Mapping[str, object], table: TableSeats, errors: ErrorList) -> Deal | None:
    """A misère: the deal as read, or ``None`` (its problems in ``errors``)."""
    pos = positions(row, table, CONTRACT_COLUMN_NAMES, errors)
    _no_whist_fields(row, errors, "misere", calls_code="calls_misere")
    if row.get("play") == Play.NONE.value:
        errors.add("play", "play", "a misère is always played — write open or closed, or leave play out")
    shared = bool_field(row, "misere_shared", errors)
    if shared and table.dealer is None:
        errors.add(
            "misere_shared",
            "misere_shared",
            "a misère can be shared only with the dealer of a 4-player table",
        )
    if pos is None:
        return None
    totals_and_order(pos, table, errors)
    return Deal(
        DealKind.MISERE,
        tricks={seat: t for seat, t in pos.values()},
        contract=parse_contract("MIS"),
        declarer=pos["declarer"][0],
        misere_shared=shared,
    )
