"""How a contract is written for people on a page: «6♠», «10БК», «мизер», «распасы» (active language)."""

from __future__ import annotations

from django.utils.translation import get_language, gettext_lazy, pgettext, pgettext_lazy
from django.utils.translation import gettext as _

from ui.pulka_shapes import SheetLabels

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


# The whisters' calls and the ways a contract is played, as a player reads them on any page.
CALL_WORDS = (
    ("whist", pgettext_lazy("whist call", "whist")),
    ("pass", pgettext_lazy("whist call", "pass")),
    ("half", pgettext_lazy("whist call", "half-whist")),
    ("half_returned", pgettext_lazy("whist call", "half-whist, whist returned")),
)
PLAY_WORDS = (("closed", gettext_lazy("closed")), ("open", gettext_lazy("open")))


def sheet_labels() -> SheetLabels:
    """The words drawn on the sheet, in the active language."""
    return SheetLabels(
        sheet=pgettext("pulka sheet", "pulka sheet"),
        pool=pgettext("pulka sheet", "pool"),
        mountain=pgettext("pulka sheet", "mountain"),
        whists=pgettext("pulka sheet", "whists"),
        help=pgettext("pulka sheet", "help"),
        write_off=pgettext("pulka sheet", "written off the mountain"),
        raspasy=pgettext("pulka sheet", "raspasy"),
        raspasy_step=pgettext("pulka sheet", "raspasy step"),
        pool_target=pgettext("pulka sheet", "pool to"),
        deal=pgettext("pulka sheet", "Deal"),
        dealer=pgettext("pulka sheet", "Dealer"),
        contract=pgettext("pulka sheet", "Contract"),
        result=pgettext("pulka sheet", "Result"),
        total=pgettext("pulka sheet", "Total"),
        player=pgettext("pulka sheet", "Player"),
        closing=pgettext("pulka sheet", "Closing"),
        vists=pgettext("pulka sheet", "Vists"),
        whole_vists=pgettext("pulka sheet", "Whole vists"),
        rank=pgettext("pulka sheet", "Place"),
        misere=pgettext("pulka sheet", "misère"),
        no_trump=pgettext("pulka sheet", "NT"),
        no_play=pgettext("pulka sheet", "no play"),
        in_progress=pgettext("pulka sheet", "the pulka is not over: the totals are provisional"),
        rounding_off=pgettext(
            "pulka sheet rounding",
            "Whole vists by Code 4.2.12: %(seat)s writes one point off his mountain, and each of the others "
            "writes %(whists)s whists on him.",
        ),
        rounding_on=pgettext(
            "pulka sheet rounding",
            "Whole vists by Code 4.2.12: %(seat)s adds one point to his mountain and writes %(whists)s whists "
            "on each of the others.",
        ),
        rounding_none=pgettext(
            "pulka sheet", "Whole vists by Code 4.2.12: the exact vists are whole, nothing was rounded."
        ),
        lang=get_language() or "ru",
    )
