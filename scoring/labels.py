"""How a contract is written for people on a page: «6♠», «10БК», «мизер», «распасы» (active language)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

SUIT_SYMBOLS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
RED_SUITS = ("D", "H")


def suit_symbol(strain: str) -> str:
    return SUIT_SYMBOLS.get(strain) or pgettext("no trumps", "NT")


def split_contract(code: str) -> tuple[str, str]:
    """``"10NT"`` → ``("10", "NT")``, ``"7H"`` → ``("7", "H")``."""
    if code.endswith("NT"):
        return code[:-2], "NT"
    return code[:-1], code[-1:]


def contract_label(code: str) -> str:
    """The contract as players write it: level and suit symbol, misère or raspasy."""
    if code == "-":
        return _("raspasy")
    if code == "MIS":
        return _("misère")
    level, strain = split_contract(code)
    return f"{level}{suit_symbol(strain)}"
