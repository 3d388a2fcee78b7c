"""The game deal by deal: rotation, raspasy chain and exit, the end, closing, settlement and rounding.

:func:`play_pulka` checks every row against pulka §11 and scores the game: the sheet after every deal (pulka
§4–§5), the end (§7), the closing entries (§7.4), the exact settlement computed two ways that must agree and
must equal the sum of the deals' results (§8.1), the whole-vist rounding (§8.2), then ranks (§9, in
:mod:`.ranking`). A pulka neither ended nor stopped is scored as if stopped now (P-17).
Pure Python: no Django import.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from dataclasses import field as dataclass_field
from fractions import Fraction

from preferans.game import (
    Deal,
    DealKind,
    Ledger,
    RowInvalid,
    TableSeats,
    compute_ledger,
    ledger_to_vists,
    parse_row,
)
from preferans.game.contracts import ContractError, ContractKind, parse_contract
from preferans.game.rows import ROW_FIELDS

from .dealing import DEALING_FIELDS, Dealing, dealing_of, not_written_deal
from .ranking import Ranking, rank_players
from .rounding import Rounding, round_whole
from .setup import PulkaSetup
from .sheet import ZERO, Help, PlayerSheet, Sheet

__all__ = [
    "DealScore",
    "NextDeal",
    "PulkaInvalid",
    "PulkaProblem",
    "PulkaScore",
    "Rounding",
    "PulkaGame",
    "play_pulka",
]

FORBIDDEN_ROW_FIELDS = ("board", "round", "table", "seats", "dealer", "adjusted", "assigned", "version")


@dataclass(frozen=True)
class PulkaProblem:
    """One broken rule: the deal (1-based) or ``None`` for the game's parameters, the field, a stable code,
    plain English and the params of the message (for translation)."""

    deal: int | None
    field: str
    code: str
    message: str
    params: Mapping[str, object] = dataclass_field(default_factory=dict)

    def __str__(self) -> str:
        return (
            f"deal {self.deal}: {self.message}" if self.deal is not None else f"{self.field}: {self.message}"
        )


class PulkaInvalid(ValueError):
    """The pulka breaks pulka §11; ``problems`` lists every problem found."""

    def __init__(self, problems: Sequence[PulkaProblem]) -> None:
        self.problems: tuple[PulkaProblem, ...] = tuple(problems)
        super().__init__("; ".join(str(p) for p in self.problems))

    def __reduce__(self) -> tuple[type[PulkaInvalid], tuple[tuple[PulkaProblem, ...]]]:
        return (PulkaInvalid, (self.problems,))


@dataclass(frozen=True)
class DealScore:
    """One deal on the sheet."""

    number: int
    dealer: str
    first_hand: str
    deal: Deal
    raspasy_step: int | None  # on raspasy only
    ledger: Ledger  # the deal's own entries, extra entries excluded
    result: Mapping[str, Fraction]  # r_i (pulka §4.2), extra entries included
    helps: tuple[Help, ...]
    sheet: Mapping[str, PlayerSheet]  # after the deal and all it caused


@dataclass(frozen=True)
class NextDeal:
    """What the sheet says about the deal to be played next."""

    number: int
    dealer: str
    first_hand: str
    raspasy_step: int  # the step a raspasy would have
    chain: int  # raspasy in a row just before it
    exit_minimum: int | None  # the lowest contract level if it is not raspasy; None after a non-raspasy deal


@dataclass(frozen=True)
class PulkaScore:
    """A scored pulka (formats §7.2)."""

    setup: PulkaSetup
    deals: tuple[DealScore, ...]
    ended: bool
    reason: str  # pool | deal_limit | stopped | in_progress
    closing: Mapping[str, Fraction]
    settlement: Mapping[str, Fraction]  # V_i, exact, zero-sum
    rounding: Rounding | None
    whole_settlement: Mapping[str, Fraction]  # V_i after 4.2.12
    column: Mapping[str, Fraction]  # C_i (zero without compensation)
    ranking: Ranking
    next_deal: NextDeal | None  # None once the game has ended

    @property
    def sheet(self) -> Sheet:
        """The sheet after the last deal (before closing)."""
        sheet = Sheet(self.setup.seats)
        if self.deals:
            for seat, columns in self.deals[-1].sheet.items():
                sheet.pool[seat] = columns.pool
                sheet.mountain[seat] = columns.mountain
                sheet.whists[seat] = dict(columns.whists)
                sheet.column[seat] = columns.column
        return sheet

    @property
    def vists(self) -> dict[str, Fraction]:
        """Exact final vists: the settlement plus the compensation column."""
        return {s: self.settlement[s] + self.column[s] for s in self.setup.seats}

    @property
    def integer_vists(self) -> dict[str, Fraction]:
        return {s: self.whole_settlement[s] + self.column[s] for s in self.setup.seats}

    @property
    def rating(self) -> dict[str, Fraction]:
        """Proposal 1 of 004-III: final vists ÷ the number of deals; 0 with no deals (P-20)."""
        count = len(self.deals)
        return {s: (v / count if count else ZERO) for s, v in self.vists.items()}

    def final_mountain(self, seat: str) -> Fraction:
        return self.sheet.mountain[seat] + self.closing[seat]


# -- checking one row -------------------------------------------------------------------------------------
@dataclass
class _State:
    setup: PulkaSetup
    sheet: Sheet
    chain: int = 0  # raspasy in a row before the next deal
    shift: int = 0  # the dealing order's shift by the director's ``dealt_by`` (Code 3.2.14)
    ended_with: int | None = None  # the deal that ended the game
    reason: str | None = None
    problems: list[PulkaProblem] = dataclass_field(default_factory=list)
    deals: list[DealScore] = dataclass_field(default_factory=list)

    def problem(self, deal: int, field_name: str, code: str, message: str, **params: object) -> None:
        self.problems.append(PulkaProblem(deal, field_name, code, message, params))


def _contract_kind(row: Mapping[str, object]) -> ContractKind | None:
    try:
        return parse_contract(row.get("contract")).kind  # type: ignore[arg-type]
    except ContractError:
        return None


def _check_keys(state: _State, number: int, row: Mapping[str, object]) -> bool:
    ok = True
    for key in row:
        if key in FORBIDDEN_ROW_FIELDS:
            state.problem(
                number,
                str(key),
                "pulka_row_field",
                f"{key} has no place in a pulka row: the dealer follows from first_dealer and rotation "
                "(pulka P-22)",
                key=key,
            )
            ok = False
        elif key not in ROW_FIELDS and key not in DEALING_FIELDS:
            state.problem(number, str(key), "pulka_unknown_field", f"unknown field {key!r}", key=key)
            ok = False
    return ok


def _step(state: _State, number: int, row: Mapping[str, object]) -> int:
    """The raspasy step of pulka §6; a row's own raspasy_step must equal it."""
    rules = state.setup.rules
    k = state.chain + 1
    step = min(k, rules.progression_cap) if rules.progression.value != "none" else 1
    given = row.get("raspasy_step")
    if given is not None and given != step:
        state.problem(
            number,
            "raspasy_step",
            "raspasy_step_chain",
            f"raspasy_step: {given!r}, but this is raspasy number {k} in a row, so the step is {step} "
            "(Code 3.7.4)",
            given=given,
            chain=k,
            step=step,
        )
    return step


def _check_exit(state: _State, number: int, row: Mapping[str, object]) -> None:
    """Pulka §6: after k raspasy the next contract is at least raspasy_exit[min(k, len) − 1] (Code 3.7.8)."""
    if state.chain == 0:
        return
    contract = parse_contract(row.get("contract"))  # type: ignore[arg-type]
    minimum = state.setup.exit_minimum(state.chain)
    if contract.kind is ContractKind.MISERE:
        too_low = minimum > 8  # a misère ranks above the eights (S §4; P-10)
    else:
        assert contract.level is not None
        too_low = contract.level < minimum
    if too_low:
        state.problem(
            number,
            "contract",
            "raspasy_exit",
            f"after {state.chain} raspasy in a row the lowest contract is a {minimum} (Code 3.7.8; "
            f"rules.raspasy_exit); {contract.code} is too low",
            chain=state.chain,
            minimum=minimum,
            contract=contract.code,
        )


def _whole_extras(state: _State, number: int, deal: Deal) -> None:
    for i, entry in enumerate(deal.extra_entries):
        if entry.amount.denominator != 1:
            state.problem(
                number,
                f"extra_entries.{i}",
                "extra_whole",
                f"extra entry {i}: the sheet holds whole numbers, not {entry.amount} (pulka P-25)",
                i=i,
            )


def _after_end(state: _State, number: int) -> bool:
    setup = state.setup
    if state.ended_with is not None and state.reason == "pool":
        state.problem(
            number,
            "deals",
            "after_end",
            f"the pulka ended with deal {state.ended_with} (Code 4.2.3, 4.2.14); no deal may follow",
            ended_with=state.ended_with,
        )
        return True
    if setup.max_deals is not None and number > setup.max_deals:
        state.problem(
            number,
            "deals",
            "deal_limit",
            f"the deal limit is {setup.max_deals} (004-II; max_deals); no more deals may be played",
            limit=setup.max_deals,
        )
        return True
    return False


def _play_row(state: _State, number: int, row: Mapping[str, object]) -> None:
    setup = state.setup
    if _after_end(state, number):
        return
    if not isinstance(row, Mapping):
        state.problem(number, "deals", "row", "a deal is a JSON object")
        return
    start = len(state.problems)
    _check_keys(state, number, row)
    dealing, wrong_dealer = dealing_of(row, number, Dealing(setup, state.shift))
    if wrong_dealer is not None:
        state.problem(
            number, wrong_dealer.field, wrong_dealer.code, wrong_dealer.message, **wrong_dealer.params
        )
        return
    dealer, first, label = dealing.dealer(number), dealing.first_hand(number), dealing.row_dealer(number)
    if "not_written" in row:  # the deal passes: only extra entries (Code 3.2.17, 4.2.10); the chain stays
        passed, seats, errors = not_written_deal(row, setup, label)
        for error in errors:
            state.problem(number, error.field, error.code, error.message, **dict(error.params))
        if passed is not None and seats is not None:
            _whole_extras(state, number, passed)
        if passed is None or seats is None or len(state.problems) > start:
            return
        state.shift = dealing.shift
        _write(state, number, passed, seats, dealer, first, None)
        return
    kind = _contract_kind(row)
    step: int | None = None
    checked = {k: v for k, v in row.items() if k not in DEALING_FIELDS}
    if kind is ContractKind.RASPASY:
        step = _step(state, number, row)
        checked["raspasy_step"] = step
    elif kind is not None:
        _check_exit(state, number, row)
    try:
        deal, table = parse_row(checked, rules=setup.rules, players=setup.players, dealer=label)
    except RowInvalid as exc:
        for error in exc.errors:
            state.problem(number, error.field, error.code, error.message, **dict(error.params))
        deal = None
    if deal is not None:
        _whole_extras(state, number, deal)
    state.chain = state.chain + 1 if kind is ContractKind.RASPASY else 0
    if deal is None or len(state.problems) > start:
        return
    state.shift = dealing.shift
    _write(state, number, deal, table, dealer, first, step)


def _write(
    state: _State, number: int, deal: Deal, table: TableSeats, dealer: str, first: str, step: int | None
) -> None:
    setup = state.setup
    sheet = state.sheet
    own = compute_ledger(replace(deal, extra_entries=()), rules=setup.rules, table=table)
    extra = compute_ledger(
        Deal(DealKind.NONE, extra_entries=deal.extra_entries), rules=setup.rules, table=table
    )
    # the conversion to vists is linear: the deal's result is that of its own entries plus its extra entries
    own_vists = ledger_to_vists(own, pool_weight=setup.weight)
    extra_vists = ledger_to_vists(extra, pool_weight=setup.weight)
    result = {seat: own_vists[seat] + extra_vists[seat] for seat in own_vists}
    # 1. mountain and whists as they are; 2. pool entries from the first hand clockwise, the dealer last (P-6)
    for seat, amount in own.mountain.items():
        sheet.mountain[seat] += amount
    for (writer, debtor), amount in own.whists.items():
        sheet.add_whist(writer, debtor, amount)
    order = (first, *(s for s in sheet.clockwise_from(first) if s != first))
    helps: list[Help] = []
    for seat in order:
        amount = own.pool.get(seat, ZERO)
        if amount:
            helps += sheet.write_pool(seat, amount, target=setup.pool if setup.helps else None)
    # 3. extra entries as they stand, pool uncapped (P-7)
    for seat, amount in extra.pool.items():
        sheet.pool[seat] += amount
    for seat, amount in extra.mountain.items():
        sheet.mountain[seat] += amount
    for (writer, debtor), amount in extra.whists.items():
        sheet.add_whist(writer, debtor, amount)
    # 4. the compensation column (P-19); a deal not written (only extra entries) writes none: nothing was played
    if setup.compensation is not None and deal.kind is not DealKind.NONE:
        for seat in setup.seats:
            sheet.column[seat] += setup.compensation.x if result[seat] > 0 else setup.compensation.y
    state.deals.append(
        DealScore(number, dealer, first, deal, step, own, result, tuple(helps), sheet.snapshot())
    )
    _check_end(state, number)


def _check_end(state: _State, number: int) -> None:
    setup = state.setup
    pools = state.sheet.pool.values()
    if setup.helps:
        by_pool = all(p >= setup.pool for p in pools)
    else:
        by_pool = sum(pools, ZERO) >= setup.players * setup.pool  # P-13
    if by_pool:
        state.ended_with, state.reason = number, "pool"
    elif setup.max_deals is not None and number >= setup.max_deals:
        state.ended_with, state.reason = number, "deal_limit"


# -- the whole game -------------------------------------------------------------------------------------
class PulkaGame:
    """A pulka being played: deals go in one at a time (the table's sheet), each checked before it is written."""

    def __init__(self, setup: PulkaSetup) -> None:
        self.setup = setup
        self._state = _State(setup, Sheet(setup.seats))

    @property
    def ended(self) -> bool:
        return self._state.ended_with is not None

    @property
    def deals(self) -> tuple[DealScore, ...]:
        return tuple(self._state.deals)

    def add(self, row: Mapping[str, object]) -> tuple[PulkaProblem, ...]:
        """Check ``row`` as the next deal; write it if it breaks no rule, else return what it breaks (and
        write nothing)."""
        state = self._state
        start, chain, shift = len(state.problems), state.chain, state.shift
        _play_row(state, len(state.deals) + 1, row)
        problems = tuple(state.problems[start:])
        if problems:
            del state.problems[start:]
            state.chain, state.shift = chain, shift
        return problems

    def score(self, *, stopped: bool = False) -> PulkaScore:
        """The result now: final if the game has ended or ``stopped``, else as if stopped now (P-17)."""
        return _finish(self._state, stopped)


def play_pulka(
    setup: PulkaSetup, rows: Sequence[Mapping[str, object]], *, stopped: bool = False
) -> PulkaScore:
    """Check and score a whole pulka. Raises :class:`PulkaInvalid` listing every problem of every deal."""
    state = _State(setup, Sheet(setup.seats))
    for number, row in enumerate(rows, start=1):
        _play_row(state, number, row)
    if state.problems:
        raise PulkaInvalid(state.problems)
    return _finish(state, stopped)


def _finish(state: _State, stopped: bool) -> PulkaScore:
    setup = state.setup
    sheet = state.sheet
    if state.reason is not None:
        ended, reason = True, state.reason
    elif stopped:
        ended, reason = True, "stopped"
    else:
        ended, reason = False, "in_progress"
    closing = {s: setup.weight * (setup.pool - sheet.pool[s]) for s in setup.seats}  # P-14
    settlement = sheet.settle(closing)
    by_amnesty = sheet.settle_by_amnesty(closing)
    by_deals = {s: sum((d.result[s] for d in state.deals), ZERO) for s in setup.seats}
    if not settlement == by_amnesty == by_deals:  # pragma: no cover - the invariant of 4.2.14 and fn74
        raise AssertionError(f"settlements disagree: {settlement} / {by_amnesty} / {by_deals}")
    column = dict(sheet.column)
    final = {s: settlement[s] + column[s] for s in setup.seats}
    ranking = rank_players(setup, state.deals, final)
    rounding, whole = round_whole(sheet, closing, settlement, ranking.order)
    next_deal = None
    if not ended:
        number = len(state.deals) + 1
        rules = setup.rules
        chain = state.chain
        step = min(chain + 1, rules.progression_cap) if rules.progression.value != "none" else 1
        dealing = Dealing(setup, state.shift)
        next_deal = NextDeal(
            number,
            dealing.dealer(number),
            dealing.first_hand(number),
            step,
            chain,
            setup.exit_minimum(chain) if chain else None,
        )
    return PulkaScore(
        setup,
        tuple(state.deals),
        ended,
        reason,
        closing,
        settlement,
        rounding,
        whole,
        column,
        ranking,
        next_deal,
    )
