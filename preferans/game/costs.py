"""The organisers' table of game costs in vists («таблица стоимости игр», spec §10, seed 004 §6).

Every number is generated from the same :class:`Rules` prices and the same ledger → vists conversion as the
scoring of a deal: a line is the vists of a one-entry ledger (one pool point, one undertrick's mountain, …).
A deal's result is the sum of the lines that apply. Pure Python: no Django import.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from .contracts import LEVELS, half_obligation
from .ledger import Ledger, TableSeats
from .variants import RaspasyMode, Rules
from .vists import ledger_to_vists

__all__ = [
    "CostLine",
    "CostTable",
    "Split",
    "cost_table",
    "format_cost",
    "format_cost_table_csv",
    "format_cost_table_text",
]


@dataclass(frozen=True)
class Split:
    """What one ledger entry is worth: to the player who books it, and to each other participant."""

    own: Fraction
    other: Fraction


@dataclass(frozen=True)
class CostLine:
    contract: str  # "6" … "10", "misère", "raspasy"
    price: Fraction | None
    made: Split | None  # contract made (misère: made); raspasy: a zero-trick hand's pool
    whist_per_trick: Fraction | None  # raspasy (Rostov): whists per trick of another hand
    undertrick: Split | None  # declarer's mountain per undertrick; misère/raspasy: per trick taken
    consolation: Fraction | None  # written by each other participant per undertrick
    missing_whist_trick: Split | None
    half_whist: Fraction | None


@dataclass(frozen=True)
class CostTable:
    rules: Rules
    players: int
    lines: tuple[CostLine, ...]


def _split(
    rules: Rules, table: TableSeats, *, pool: Fraction = Fraction(0), mountain: Fraction = Fraction(0)
) -> Split:
    booker, other = table.seats[0], table.seats[1]
    ledger = Ledger(table.seats, {booker: pool} if pool else {}, {booker: mountain} if mountain else {}, {})
    vists = ledger_to_vists(ledger, pool_weight=rules.pool_weight)
    return Split(vists[booker], vists[other])


def cost_table(rules: Rules, players: int) -> CostTable:
    """The cost table of ``rules`` at a table of ``players`` (3 or 4; the 4-player dealer shares)."""
    table = TableSeats.standard(players, "W" if players == 4 else None)
    lines = [
        CostLine(
            contract=str(level),
            price=rules.price(level),
            made=_split(rules, table, pool=rules.price(level)),
            whist_per_trick=rules.whist_price(level),
            undertrick=_split(rules, table, mountain=rules.remiz_unit(level)),
            consolation=rules.consolation_unit(level),
            missing_whist_trick=_split(rules, table, mountain=rules.whist_remiz_unit(level)),
            half_whist=rules.whist_price(level) * half_obligation(level) if level in (6, 7) else None,
        )
        for level in LEVELS
    ]
    lines.append(
        CostLine(
            contract="misère",
            price=rules.misere_price,
            made=_split(rules, table, pool=rules.misere_price),
            whist_per_trick=None,
            undertrick=_split(rules, table, mountain=rules.misere_remiz_unit()),
            consolation=None,
            missing_whist_trick=None,
            half_whist=None,
        )
    )
    mountain = rules.raspasy_mode is RaspasyMode.MOUNTAIN
    lines.append(
        CostLine(
            contract="raspasy",
            price=None,
            made=_split(rules, table, pool=rules.raspasy_zero_bonus()),
            whist_per_trick=None if mountain else rules.raspasy_trick_price(),
            undertrick=_split(rules, table, mountain=rules.raspasy_trick_price()) if mountain else None,
            consolation=None,
            missing_whist_trick=None,
            half_whist=None,
        )
    )
    return CostTable(rules, players, tuple(lines))


# -- formatting -----------------------------------------------------------------------------------------
def format_cost(value: Fraction, *, signed: bool = False, minus: str = "−") -> str:
    """Rounded half-up to 2 places, trailing zeros dropped: 40/3 → "13.33", 15/2 → "7.5", 40 → "40"."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    rounded = exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    text = f"{abs(rounded):f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if rounded < 0:
        return minus + text
    return ("+" + text) if signed and rounded > 0 else text


def _pair(split: Split | None, minus: str = "−") -> str:
    if split is None:
        return "—"
    return f"{format_cost(split.own, signed=True, minus=minus)} / {format_cost(split.other, signed=True, minus=minus)}"


def _one(value: Fraction | None) -> str:
    return "—" if value is None else format_cost(value)


def _title(table: CostTable) -> str:
    return f"{table.rules.variant.capitalize()}, {table.players} players"


def format_cost_table_text(table: CostTable) -> str:
    """Aligned columns for organisers to print and publish with the event's rules (004 §6)."""
    others = table.players - 1
    header = [
        "contract",
        "p",
        "made",
        "whist/trick",
        "undertrick",
        f"consolation (to each of {others})",
        "missing whist trick",
        "half-whist",
    ]
    rows: list[list[str]] = []
    raspasy: CostLine | None = None
    for line in table.lines:
        if line.contract == "raspasy":
            raspasy = line
            continue
        undertrick = _pair(line.undertrick)
        if line.contract == "misère":
            undertrick = "per trick " + undertrick
        rows.append(
            [
                line.contract,
                _one(line.price),
                _pair(line.made),
                _one(line.whist_per_trick),
                undertrick,
                _one(line.consolation),
                _pair(line.missing_whist_trick),
                _one(line.half_whist),
            ]
        )
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    out = [
        f"Cost table in vists — {_title(table)} (pool weight λ = {format_cost(table.rules.pool_weight)})",
        '"a / b": a to the player who books it, b to each other player (the 4-player dealer included).',
        "A deal's result is the sum of the lines that apply.",
        "",
        "  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip(),
        "  ".join("-" * w for w in widths),
    ]
    out.extend("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in rows)
    out.append("")
    assert raspasy is not None
    if raspasy.undertrick is not None:
        out.append(f"Raspasy: each trick taken (after amnesty) {_pair(raspasy.undertrick)}.")
        out.append(f"Raspasy: a hand with no trick books the pool {_pair(raspasy.made)}.")
    else:
        out.append(
            f"Raspasy: the hand with fewest tricks writes {_one(raspasy.whist_per_trick)} vists per trick on each "
            "other hand (tied hands share)."
        )
        out.append(
            f"Raspasy: the zero-trick pool point and the 4-player dealer's pool point {_pair(raspasy.made)}."
        )
    return "\n".join(out) + "\n"


CSV_HEADER: tuple[str, ...] = (
    "contract",
    "price",
    "made_declarer",
    "made_each_other",
    "whist_per_trick",
    "undertrick_declarer",
    "undertrick_each_other",
    "consolation_per_undertrick",
    "missing_whist_trick_whister",
    "missing_whist_trick_each_other",
    "half_whist",
)


def format_cost_table_csv(table: CostTable) -> str:
    """One row per line; numbers rounded to 2 places, ``-`` as the minus sign, empty where not applicable.

    The ``raspasy`` row: ``made_*`` = a zero-trick hand's pool, ``undertrick_*`` = one trick to the mountain
    (Sochi/Leningrad), ``whist_per_trick`` = whists per trick of another hand (Rostov). The misère's
    ``undertrick_*`` columns are per trick taken.
    """

    def one(value: Fraction | None) -> str:
        return "" if value is None else format_cost(value, minus="-")

    def two(split: Split | None) -> list[str]:
        return ["", ""] if split is None else [one(split.own), one(split.other)]

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for line in table.lines:
        writer.writerow(
            [
                line.contract,
                one(line.price),
                *two(line.made),
                one(line.whist_per_trick),
                *two(line.undertrick),
                one(line.consolation),
                *two(line.missing_whist_trick),
                one(line.half_whist),
            ]
        )
    return buffer.getvalue()
