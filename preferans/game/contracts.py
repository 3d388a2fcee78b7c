"""Contracts of preferans: the codes, the bidding ladder and the per-level constants (spec §4).

Codes as the protocol writes them (formats.md §2.1): ``6S … 10NT`` (suits ``S < C < D < H < NT``),
``MIS`` for misère («мизер») and ``-`` for raspasy («распасы», everybody passed).
Pure Python: no Django import.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

__all__ = [
    "CONTRACT_CODES",
    "LEVELS",
    "MISERE",
    "RASPASY",
    "ROW_CONTRACT_CODES",
    "STRAINS",
    "Contract",
    "ContractError",
    "ContractKind",
    "half_obligation",
    "level_name",
    "obligation",
    "parse_contract",
]

STRAINS: tuple[str, ...] = ("S", "C", "D", "H", "NT")
LEVELS: tuple[int, ...] = (6, 7, 8, 9, 10)
MISERE = "MIS"
RASPASY = "-"

# Whist obligation O of both defenders together (Code 3.8.2; spec §4).
_OBLIGATION: dict[int, int] = {6: 4, 7: 2, 8: 1, 9: 1, 10: 1}
_LEVEL_NAMES: dict[int, str] = {6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten"}


class ContractError(ValueError):
    """The text is not a contract code of the protocol."""


class ContractKind(StrEnum):
    TRICKS = "tricks"  # a trick contract 6…10 («игра»)
    MISERE = "misere"  # «мизер»
    RASPASY = "raspasy"  # «распасы»: no contract, all passed


@dataclass(frozen=True, order=False)
class Contract:
    """One value of the protocol's contract column."""

    kind: ContractKind
    level: int | None = None  # 6…10 for a trick contract
    strain: str | None = None  # S C D H NT for a trick contract

    @property
    def code(self) -> str:
        if self.kind is ContractKind.MISERE:
            return MISERE
        if self.kind is ContractKind.RASPASY:
            return RASPASY
        return f"{self.level}{self.strain}"

    @property
    def tricks_level(self) -> int:
        """Tricks promised: the level of a trick contract, 0 for misère (raspasy has none)."""
        if self.kind is ContractKind.TRICKS:
            assert self.level is not None
            return self.level
        if self.kind is ContractKind.MISERE:
            return 0
        raise ContractError("raspasy promises no tricks")

    def __str__(self) -> str:
        return self.code


def _ladder() -> tuple[str, ...]:
    codes: list[str] = []
    for level in LEVELS:
        codes.extend(f"{level}{strain}" for strain in STRAINS)
        if level == 8:
            codes.append(MISERE)  # misère ranks between the eights and the nines (Code 3.6.4, fn41)
    return tuple(codes)


CONTRACT_CODES: tuple[str, ...] = _ladder()
"""Every biddable contract in ladder order («лестница»): 6S … 8NT, MIS, 9S … 10NT."""

ROW_CONTRACT_CODES: tuple[str, ...] = (*CONTRACT_CODES, RASPASY)
"""Every value the protocol's contract column accepts (the ladder, then ``-`` for raspasy)."""


def parse_contract(code: str) -> Contract:
    """``"7NT"`` → ``Contract(TRICKS, 7, "NT")``; ``"MIS"``; ``"-"``. Case and spaces are not forgiven."""
    if not isinstance(code, str):
        raise ContractError(f"illegal contract {code!r} — use 6S…10NT, MIS or -")
    if code == MISERE:
        return Contract(ContractKind.MISERE)
    if code == RASPASY:
        return Contract(ContractKind.RASPASY)
    for level in LEVELS:
        prefix = str(level)
        if code.startswith(prefix) and code[len(prefix) :] in STRAINS:
            # "10NT" must not be read as level 1 — LEVELS has no 1, so the prefix test is exact.
            return Contract(ContractKind.TRICKS, level, code[len(prefix) :])
    raise ContractError(f"illegal contract {code!r} — use 6S…10NT, MIS or -")


def obligation(level: int) -> int:
    """Whist obligation O of both defenders together on a contract of this level (Code 3.8.2)."""
    return _OBLIGATION[level]


def half_obligation(level: int) -> Fraction:
    """O/2: what a half-whist books and what each of two whisters must take individually."""
    return Fraction(_OBLIGATION[level], 2)


def level_name(level: int) -> str:
    """English name of a level as players say it: 6 → "six"."""
    return _LEVEL_NAMES[level]
