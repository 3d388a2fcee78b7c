"""One deal → its ledger: pool, mountain and whists, as a player writes them on the pulka sheet (spec §3.1).

The deal is described by :class:`Deal` (already checked: :mod:`.rows` turns a protocol row into one and
validates it). :func:`compute_ledger` applies spec §6 (trick contracts), §7 (misère), §8 (raspasy) and §9
(extra entries). Pure Python: no Django import.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from .contracts import Contract, ContractKind, half_obligation, obligation
from .seats import SEATS, clockwise_after
from .variants import RaspasyMode, Rules, WhistMode

__all__ = [
    "CLOCKWISE",
    "SEATS",
    "Call",
    "Deal",
    "DealKind",
    "ExtraEntry",
    "Ledger",
    "Play",
    "TableSeats",
    "compute_ledger",
]

CLOCKWISE = SEATS  # N → E → S → W (spec §2)


class Call(StrEnum):
    WHIST = "whist"
    PASS = "pass"
    HALF = "half"  # half-whist accepted, no play («полвиста», Code 3.8.7)
    HALF_RETURNED = "half_returned"  # went half, the whist was returned (Code 3.8.8): now a passer


class Play(StrEnum):
    CLOSED = "closed"  # «втёмную»
    OPEN = "open"  # «в светлую»
    NONE = "none"  # nobody whisted: no play


class DealKind(StrEnum):
    CONTRACT = "contract"
    MISERE = "misere"
    RASPASY = "raspasy"
    NONE = "none"  # no deal played: only extra entries (e.g. a compensation ruling)


@dataclass(frozen=True)
class TableSeats:
    """Who takes part in the settlement of a deal, clockwise."""

    seats: tuple[str, ...]  # the participants, in clockwise order; 3 or 4
    dealer: str | None = None  # the 4-player dealer who sits out (still a participant)

    @classmethod
    def standard(cls, players: int, dealer: str | None) -> TableSeats:
        """The duplicate layout: 3 players sit N, E, S (W holds the prikup); 4 players sit N, E, S, W."""
        if players == 3:
            return cls(("N", "E", "S"), None)
        if players == 4:
            return cls(SEATS, dealer)
        raise ValueError(f"a table has 3 or 4 players, not {players}")

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def active(self) -> tuple[str, ...]:
        """The three seats that hold cards, clockwise (the 4-player dealer excluded)."""
        return tuple(seat for seat in self.seats if seat != self.dealer)

    def after(self, seat: str) -> tuple[str, str]:
        """The two other active seats clockwise after ``seat``: the defenders d1, d2 of a declarer (spec §2)."""
        return clockwise_after(self.active, seat)

    def first_hand(self) -> str | None:
        """At a 4-player table the seat after the dealer; unknown at a 3-player table (the row names it)."""
        if self.dealer is None:
            return None
        i = self.seats.index(self.dealer)
        return self.seats[(i + 1) % len(self.seats)]


@dataclass(frozen=True)
class ExtraEntry:
    """An adjustment written straight into the ledger (spec §9): a whist ``from`` → ``to`` or ±pool/mountain."""

    kind: str  # "whist" | "pool" | "mountain"
    amount: Fraction
    seat: str | None = None  # pool, mountain
    writer: str | None = None  # whist: who writes (earns)
    debtor: str | None = None  # whist: on whom (pays)


@dataclass(frozen=True)
class Deal:
    """The facts of one deal at one table, as the extended protocol row records them (spec §11.2)."""

    kind: DealKind
    tricks: Mapping[str, int] = field(default_factory=dict)  # actual or nominal tricks of the three hands
    contract: Contract | None = None
    declarer: str | None = None
    calls: Mapping[str, Call] = field(default_factory=dict)
    play: Play | None = None
    dealer_whist: bool = False
    penalty_tricks: int = 0
    wrong_cards: tuple[str, ...] = ()  # seats found with a wrong number of cards (Code 3.9.18)
    misere_shared: bool = False
    raspasy_step: int = 1
    extra_entries: tuple[ExtraEntry, ...] = ()


@dataclass(frozen=True)
class Ledger:
    """What one deal writes on the sheet: P_i, M_i and W_ij (i writes on j: i earns, j pays). Zeros omitted."""

    participants: tuple[str, ...]
    pool: Mapping[str, Fraction]
    mountain: Mapping[str, Fraction]
    whists: Mapping[tuple[str, str], Fraction]  # (writer, debtor) → amount, summed per pair


class _Sheet:
    def __init__(self, participants: tuple[str, ...]) -> None:
        self.participants = participants
        self.pool: dict[str, Fraction] = {}
        self.mountain: dict[str, Fraction] = {}
        self.whists: dict[tuple[str, str], Fraction] = {}

    def add_pool(self, seat: str, amount: Fraction) -> None:
        self.pool[seat] = self.pool.get(seat, Fraction(0)) + amount

    def add_mountain(self, seat: str, amount: Fraction) -> None:
        self.mountain[seat] = self.mountain.get(seat, Fraction(0)) + amount

    def add_whist(self, writer: str, debtor: str, amount: Fraction) -> None:
        self.whists[(writer, debtor)] = self.whists.get((writer, debtor), Fraction(0)) + amount

    def ledger(self) -> Ledger:
        return Ledger(
            participants=self.participants,
            pool={k: v for k, v in self.pool.items() if v},
            mountain={k: v for k, v in self.mountain.items() if v},
            whists={k: v for k, v in self.whists.items() if v},
        )


def compute_ledger(deal: Deal, *, rules: Rules, table: TableSeats) -> Ledger:
    """Score one (validated) deal into ledger entries under ``rules`` at ``table``."""
    sheet = _Sheet(table.seats)
    if deal.kind is DealKind.CONTRACT:
        _score_contract(sheet, deal, rules, table)
    elif deal.kind is DealKind.MISERE:
        _score_misere(sheet, deal, rules, table)
    elif deal.kind is DealKind.RASPASY:
        if rules.raspasy_mode is RaspasyMode.MOUNTAIN:
            _score_raspasy_mountain(sheet, deal, rules, table)
        else:
            _score_raspasy_whists(sheet, deal, rules, table)
    for entry in deal.extra_entries:
        if entry.kind == "whist":
            assert entry.writer is not None and entry.debtor is not None
            sheet.add_whist(entry.writer, entry.debtor, entry.amount)
        elif entry.kind == "pool":
            assert entry.seat is not None
            sheet.add_pool(entry.seat, entry.amount)
        else:
            assert entry.seat is not None
            sheet.add_mountain(entry.seat, entry.amount)
    return sheet.ledger()


# -- §6 trick contracts ---------------------------------------------------------------------------------
def _score_contract(sheet: _Sheet, deal: Deal, rules: Rules, table: TableSeats) -> None:
    assert deal.contract is not None and deal.declarer is not None
    assert deal.contract.kind is ContractKind.TRICKS and deal.contract.level is not None
    level = deal.contract.level
    d = deal.declarer
    d1, d2 = table.after(d)
    p = rules.price(level)
    w = rules.whist_price(level)
    ob = obligation(level)
    whisters = [x for x in (d1, d2) if deal.calls.get(x) is Call.WHIST]
    dealer_whister = table.dealer if deal.dealer_whist else None

    t_d = deal.tricks[d]
    # B. the declarer: penalty tricks change only his pool/mountain (D-X1)
    td_eff = t_d - deal.penalty_tricks  # Code 3.4.9: one overtrick cancels the penalty trick
    if d in deal.wrong_cards:
        # Code 3.9.18: «ставит ремиз по меньшей мере без двух (даже если он выигрывал контракт)… Если взял
        # восемь взяток, то пишет всё равно за четыре»: overtricks do not count, then two tricks come off
        td_eff = min(td_eff, level) - 2
    if td_eff >= level:
        sheet.add_pool(d, p)  # no overtrick bonus (D-C4)
    else:
        sheet.add_mountain(d, rules.remiz_unit(level) * (level - td_eff))

    if not whisters and dealer_whister is None:
        # A. no play: deemed made (3.5.3); a standing half-whist books O/2 tricks (3.8.7)
        for x in (d1, d2):
            if deal.calls.get(x) is Call.HALF:
                sheet.add_whist(x, d, w * half_obligation(level))
        return

    u = max(0, level - t_d)  # actual undertricks (consolation uses them: fn70)
    t1, t2 = deal.tricks[d1], deal.tricks[d2]
    rp = rules.whist_remiz_unit(level)

    remiz: dict[str, Fraction] = {}  # D. whisters' remiz in tricks, per whister (the dealer too)
    if len(whisters) == 2:
        # C1. each writes for himself (3.8.13/3.8.14)
        sheet.add_whist(d1, d, w * t1)
        sheet.add_whist(d2, d, w * t2)
        # D1. whisters' remiz
        shortfall = ob - (t1 + t2)
        if shortfall > 0:
            if level in (6, 7):
                half = half_obligation(level)
                below = [x for x in (d1, d2) if deal.tricks[x] < half]
                if len(below) == 1:
                    remiz[below[0]] = Fraction(shortfall)  # collective shortfall (D-W3)
                else:
                    for x in below:
                        remiz[x] = half - deal.tricks[x]
            else:
                remiz[d2] = Fraction(shortfall)  # the second whister answers (3.8.6, fn59)
    else:
        # C2. one whister: a defender, or the dealer (D-W6)
        whister = whisters[0] if whisters else dealer_whister
        assert whister is not None
        failed = t_d < level
        if whisters and rules.whist_mode is WhistMode.ODESSA:
            # seed 004 Odessa greedy: the lone whister plays his own hand; the passer's tricks are nobody's
            own = deal.tricks[whister]
            sheet.add_whist(whister, d, w * own)
            individual = max(1, ob // 2)  # six: 2, seven/eight/nine: 1 (seed 004); ten: 1
            if own < individual:
                remiz[whister] = Fraction(individual - own)
        else:
            both = t1 + t2
            other = d2 if whister == d1 else d1
            if (
                failed
                and whisters
                and rules.whist_mode is WhistMode.GENTLEMAN
                and deal.calls.get(other) is not Call.HALF_RETURNED
            ):
                sheet.add_whist(whister, d, w * both / 2)  # «висты пишутся пополам» (3.8.14)
                sheet.add_whist(other, d, w * both / 2)
            else:
                sheet.add_whist(whister, d, w * both)
            # D2. the lone whister answers for both hands (3.8.5, D-W2)
            if ob - both > 0:
                remiz[whister] = Fraction(ob - both)
    if d in deal.wrong_cards:
        # Code 3.9.18 ex. 1: under the declarer's wrong card count «Вистующие пишут висты за фактическое количество
        # взяток и консоляцию – за фактический подсад»: whists and consolation only, so the innocent defenders
        # book no whist remiz for a play that was not a proper one (a director who rules otherwise writes it as
        # extra entries). A defender at fault himself still books his two below (ex. 3).
        remiz.clear()
    # Code 3.9.18 ex. 2: a defender with a wrong number of cards «наказывается ремизом «без двух» (… на висте)»:
    # two tricks of whist remiz on top of any he owes for the play; the others' whists stay as played (3.9.12)
    for x in (d1, d2):
        if x in deal.wrong_cards:
            remiz[x] = remiz.get(x, Fraction(0)) + 2
    for x, tricks in remiz.items():
        sheet.add_mountain(x, rp * tricks)

    # E. consolation from every non-declarer participant, the dealer included (3.8.1.2, fn36)
    if u > 0:
        c = rules.consolation_unit(level)
        for r in table.seats:
            if r != d:
                sheet.add_whist(r, d, c * u)


# -- §7 misère ------------------------------------------------------------------------------------------
def _score_misere(sheet: _Sheet, deal: Deal, rules: Rules, table: TableSeats) -> None:
    assert deal.declarer is not None
    d = deal.declarer
    k = deal.tricks[d]
    bookers = [d]
    if deal.misere_shared:
        assert table.dealer is not None
        bookers.append(table.dealer)  # «пополам» with the dealer (3.6.9): each books half
    share = Fraction(1, len(bookers))
    for seat in bookers:
        if k == 0:
            sheet.add_pool(seat, rules.misere_price * share)
        else:
            sheet.add_mountain(seat, rules.misere_remiz_unit() * k * share)
    # no whists and no consolation on misère (D-M1)


# -- §8 raspasy -----------------------------------------------------------------------------------------
def _raspasy_tricks(deal: Deal, table: TableSeats) -> dict[str, int]:
    tricks = {seat: deal.tricks[seat] for seat in table.active}
    if table.dealer is not None:
        tricks[table.dealer] = 10 - sum(tricks.values())  # the dealer's prikup tricks, 0…2 (3.7.6.1)
    return tricks


def _score_raspasy_mountain(sheet: _Sheet, deal: Deal, rules: Rules, table: TableSeats) -> None:
    r = rules.raspasy_trick_price(deal.raspasy_step)
    tricks = _raspasy_tricks(deal, table)
    amnesty = min(tricks.values()) if rules.amnesty else 0
    for seat in table.seats:
        t = tricks[seat]
        if t == 0:
            if seat != table.dealer or rules.dealer_zero_bonus:
                sheet.add_pool(seat, rules.raspasy_zero_bonus(deal.raspasy_step))
        else:
            sheet.add_mountain(seat, r * (t - amnesty))


def _score_raspasy_whists(sheet: _Sheet, deal: Deal, rules: Rules, table: TableSeats) -> None:
    r = rules.raspasy_trick_price(deal.raspasy_step)
    tricks = {seat: deal.tricks[seat] for seat in table.active}  # the dealer takes no part (D-P3)
    least = min(tricks.values())
    winners = [seat for seat in table.active if tricks[seat] == least]
    for x in winners:
        for y in table.active:
            if y not in winners:
                sheet.add_whist(x, y, r * tricks[y] / len(winners))  # tied winners split (D-P4)
    for seat in table.active:
        if tricks[seat] == 0:
            sheet.add_pool(seat, rules.raspasy_zero_bonus(deal.raspasy_step))
    if table.dealer is not None and rules.dealer_zero_bonus:
        sheet.add_pool(table.dealer, rules.raspasy_zero_bonus(deal.raspasy_step))  # 3.7.6.2
