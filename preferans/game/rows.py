"""The protocol row (spec §11.3, formats.md §2.1): parsing, validation (spec §11.4) and scoring.

:func:`validate_row` lists every problem of a row as :class:`RowError` values (a stable ``code``, the row
``field`` at fault, a plain-English ``message`` and the ``params`` interpolated into it, so that the web
shell can translate it). :func:`score_row` validates and returns the vists of every seated player.
Keys of the row that are not row fields (``board``, ``seats``, ``dealer``, …) are ignored here.
Pure Python: no Django import.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from preferans.numbers import NumberFormatError, format_fraction, parse_fraction

from .contract_checks import check_contract
from .contracts import ContractError, ContractKind, parse_contract
from .ledger import SEATS, Deal, ExtraEntry, TableSeats, compute_ledger
from .misere_raspasy_checks import check_misere, check_raspasy
from .row_fields import ErrorList, RowError, RowInvalid, check_table, present
from .variants import Rules
from .vists import ledger_to_vists

__all__ = [
    "ROW_FIELDS",
    "RowError",
    "RowInvalid",
    "parse_extra_entries",
    "parse_row",
    "score_row",
    "validate_row",
]

ROW_FIELDS: tuple[str, ...] = (
    "contract",
    "declarer",
    "w1",
    "w2",
    "calls",
    "play",
    "dealer_whist",
    "penalty_tricks",
    "wrong_cards",
    "misere_shared",
    "raspasy_step",
    "extra_entries",
    "vists",
)


def _extra_entries(row: Mapping[str, object], table: TableSeats, errors: ErrorList) -> tuple[ExtraEntry, ...]:
    raw = row.get("extra_entries")
    if raw is None:
        return ()
    if not isinstance(raw, (list, tuple)):
        errors.add("extra_entry", "extra_entries", "extra_entries must be a list")
        return ()
    entries: list[ExtraEntry] = []
    keys = {"whist": {"type", "from", "to", "amount"}, "pool": {"type", "seat", "amount"}}
    keys["mountain"] = keys["pool"]
    for i, entry in enumerate(raw):
        where = f"extra_entries.{i}"
        kind = entry.get("type") if isinstance(entry, Mapping) else None
        if not isinstance(entry, Mapping) or not isinstance(kind, str) or kind not in keys:
            errors.add("extra_entry", where, "extra entry {i}: type must be whist, pool or mountain", i=i)
            continue
        if set(entry) != keys[str(kind)]:
            errors.add(
                "extra_entry",
                where,
                "extra entry {i}: a {kind} entry has exactly the keys {keys}",
                i=i,
                kind=kind,
                keys=", ".join(sorted(keys[str(kind)])),
            )
            continue
        try:
            amount = parse_fraction(entry["amount"])
        except NumberFormatError as exc:
            errors.add("extra_entry", where, "extra entry {i}: {problem}", i=i, problem=str(exc))
            continue
        seats = [entry["from"], entry["to"]] if kind == "whist" else [entry["seat"]]
        if any(seat not in table.seats for seat in seats):
            errors.add(
                "extra_entry",
                where,
                "extra entry {i}: seats must be among {seats}",
                i=i,
                seats=", ".join(table.seats),
            )
        elif kind == "whist" and (entry["from"] == entry["to"] or amount <= 0):
            errors.add(
                "extra_entry",
                where,
                "extra entry {i}: a whist goes from one seat to another, amount above 0",
                i=i,
            )
        elif kind == "whist":
            entries.append(ExtraEntry("whist", amount, writer=str(entry["from"]), debtor=str(entry["to"])))
        else:
            entries.append(ExtraEntry(str(kind), amount, seat=str(entry["seat"])))
    return tuple(entries)


def parse_extra_entries(
    row: Mapping[str, object], table: TableSeats, errors: ErrorList
) -> tuple[ExtraEntry, ...]:
    """A row's ``extra_entries`` read and checked (problems go to ``errors``): for rows with no game of their own,
    such as a pulka's deal not written (``preferans.pulka.dealing``)."""
    return _extra_entries(row, table, errors)


# -- the public functions -------------------------------------------------------------------------------
@dataclass
class _Analysis:
    errors: ErrorList
    deal: Deal | None = None
    table: TableSeats | None = None
    vists: dict[str, Fraction] | None = None


def _analyse(row: Mapping[str, object], rules: Rules, players: int, dealer: str | None) -> _Analysis:
    errors = ErrorList()
    table = check_table(players, dealer, errors)
    if table is None:
        return _Analysis(errors)
    raw_contract = row.get("contract")
    try:
        contract = parse_contract(raw_contract)  # type: ignore[arg-type]
    except ContractError:
        errors.add(
            "contract",
            "contract",
            "illegal contract {contract!r} — use 6S…10NT, MIS or -",
            contract=raw_contract,
        )
        return _Analysis(errors)
    if present(row, "raspasy_step") and contract.kind is not ContractKind.RASPASY:
        errors.add("raspasy_step", "raspasy_step", "raspasy_step belongs to a raspasy deal (contract -)")
    if contract.kind is ContractKind.RASPASY:
        deal = check_raspasy(row, rules, table, dealer, errors)
    elif contract.kind is ContractKind.MISERE:
        deal = check_misere(row, table, errors)
    else:
        assert contract.level is not None
        deal = check_contract(row, contract.level, rules, table, errors)
    extra = _extra_entries(row, table, errors)
    claimed = _claimed_vists(row, table, errors)
    if deal is None or errors:
        return _Analysis(errors)
    deal = replace(deal, extra_entries=extra)
    ledger = compute_ledger(deal, rules=rules, table=table)
    vists = ledger_to_vists(ledger, pool_weight=rules.pool_weight)
    if claimed is not None:
        for seat in table.seats:
            if claimed[seat] != vists[seat]:
                errors.add(
                    "vists_mismatch",
                    f"vists.{seat}",
                    "{seat}'s vists {claimed} — the rules give {computed}",
                    seat=seat,
                    claimed=format_fraction(claimed[seat]),
                    computed=format_fraction(vists[seat]),
                )
    return _Analysis(errors, deal, table, vists)


def _claimed_vists(
    row: Mapping[str, object], table: TableSeats, errors: ErrorList
) -> dict[str, Fraction] | None:
    raw = row.get("vists")
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        errors.add("vists", "vists", "vists must map each seat to a number")
        return None
    start = len(errors)
    claimed: dict[str, Fraction] = {}
    for seat, value in raw.items():
        if seat not in table.seats:
            if seat in SEATS and value is None:
                continue  # the empty W of a 3-player table may be written as null
            errors.add(
                "vists_seat", f"vists.{seat}", "{seat} has no player at this table, so no vists", seat=seat
            )
            continue
        try:
            claimed[seat] = parse_fraction(value)
        except NumberFormatError as exc:
            errors.add(
                "vists_number", f"vists.{seat}", "{seat}'s vists: {problem}", seat=seat, problem=str(exc)
            )
    for seat in table.seats:
        if seat not in raw or raw[seat] is None:
            errors.add(
                "vists_missing",
                f"vists.{seat}",
                "{seat} has no vists — every seated player has an entry",
                seat=seat,
            )
    if len(errors) > start:
        return None
    total = sum(claimed.values(), Fraction(0))
    if total != 0:
        errors.add(
            "vists_sum", "vists", "vists sum to {total} — they must sum to 0", total=format_fraction(total)
        )
        return None
    return claimed


def validate_row(
    row: Mapping[str, object], *, rules: Rules, players: int, dealer: str | None
) -> tuple[RowError, ...]:
    """Every problem of ``row`` (spec §11.4 rules 1–12); empty when the row is valid."""
    return tuple(_analyse(row, rules, players, dealer).errors)


def score_row(
    row: Mapping[str, object], *, rules: Rules, players: int, dealer: str | None
) -> dict[str, Fraction]:
    """Vists of every seated player (3 players: N, E, S; 4: N, E, S, W incl. the dealer); they sum to 0.

    ``dealer``: at 4-player tables the seat of the dealer who sits out (required); at 3-player tables the
    first hand (D-T1), needed only to check raspasy columns. Raises :class:`RowInvalid` listing every problem.
    """
    analysis = _analyse(row, rules, players, dealer)
    if analysis.errors or analysis.vists is None:
        raise RowInvalid(analysis.errors)
    return analysis.vists


def parse_row(
    row: Mapping[str, object], *, rules: Rules, players: int, dealer: str | None
) -> tuple[Deal, TableSeats]:
    """The validated :class:`Deal` of a row and its :class:`TableSeats` (to show the ledger of a row)."""
    analysis = _analyse(row, rules, players, dealer)
    if analysis.errors or analysis.deal is None or analysis.table is None:
        raise RowInvalid(analysis.errors)
    return analysis.deal, analysis.table
