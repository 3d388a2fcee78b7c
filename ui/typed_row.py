"""A deal's row as a person types it, on every channel alike: a player on the phone (``table.forms.PhoneRowForm``,
``table.pulka_forms.DealForm``) and the director on his pages (``ui.row_form.ProtocolRowForm`` for a board,
``ui.row_form.PulkaRowForm`` for a pulka deal, on the sheet and on the appeals pages). One rule says what may be left
out and what follows from the rest, so the director's forms accept exactly the rows the phone accepts:

* raspasy: the hands follow from the dealer (first, second and third hand, ``preferans.game.seats``), so the first
  hand may be left on «auto», at three players too;
* a contract or a misère: the defenders follow from the declarer, clockwise;
* the third trick count follows from the other two (10 in all); only at 4-player Sochi and Leningrad raspasy, where
  the three hands take 8 to 10 tricks, are all three written. Two counts that already make more than 10 are
  refused in the core's words about what was typed («8 + 5 = 13 tricks, more than 10»);
* a trick contract nobody whisted was not played (Code 3.5.3): its nominal tricks follow from the calls (D-W7),
  so no trick count is typed.

What is missing is said next to its field; whether the row is legal is still the core's decision
(``scoring.rows.result_save`` for a board, ``pulkas.services.sheet`` for a pulka deal).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _

from preferans.game.contracts import half_obligation
from preferans.game.seats import active_seats, clockwise_after, first_hand
from preferans.game.variants import RaspasyMode, Rules
from tournaments.refusals import Refusal, refusal_message

# The places of a typed row a problem is told at: the declarer's seat (raspasy: the first hand), the tricks of the
# three columns and the two defenders' calls. Each form maps them to its own fields.
SLOTS = ("declarer", "t1", "t2", "t3", "call1", "call2")


def three_raspasy_hands(players: int, rules: Rules) -> bool:
    """4-player Sochi/Leningrad raspasy: the three hands take 8 to 10 tricks, so all three are written."""
    return players == 4 and rules.raspasy_mode is RaspasyMode.MOUNTAIN


@dataclass(frozen=True)
class TypedRow:
    """What was typed; "" and None: left out (on «auto»)."""

    contract: str
    # the declarer (raspasy: the first hand), the first and the second defender (raspasy: the second and third hand)
    seats: tuple[str, str, str] = ("", "", "")
    tricks: tuple[int | None, int | None, int | None] = (None, None, None)
    calls: tuple[str, str] = ("", "")  # the first and the second defender's
    dealer_whist: bool = False
    play: str = ""  # "" : closed when someone whisted
    misere_shared: bool = False
    raspasy_step: int | None = None


@dataclass(frozen=True)
class Problem:
    """Something the row cannot be made without, said next to ``slot`` (one of :data:`SLOTS`). ``refused``: the
    core's own refusal of what was typed, in its words (channels list it with the core's refusals)."""

    slot: str
    message: Any  # a lazy translation: the words of the request's language
    refused: bool = False


@dataclass
class TypedEntry:
    """The row made of what was typed (formats.md §2.1), as far as it could be made, and what is missing."""

    row: dict[str, Any]
    problems: list[Problem] = field(default_factory=list)

    def need(self, slot: str, message: Any) -> None:
        self.problems.append(Problem(slot, message))


def typed_row(typed: TypedRow, *, players: int, dealer: str, three_hands: bool) -> TypedEntry:
    """The row of a deal from what was typed at a table of ``players`` whose row's dealer label is ``dealer`` (at 3
    players: the first hand); ``three_hands``: :func:`three_raspasy_hands` of the event's rules."""
    contract = typed.contract
    entry = TypedEntry({"contract": contract})
    raspasy = contract == "-"
    first = typed.seats[0] or (first_hand(players, dealer) if raspasy else "")
    active = active_seats(players, dealer)
    if not first:
        entry.need("declarer", _("Choose the declarer."))
        return entry
    if first not in active:
        entry.need("declarer", _("The dealer sits out this deal; choose one of the three players."))
        return entry
    after = clockwise_after(active, first)
    second, third = typed.seats[1] or after[0], typed.seats[2] or after[1]
    t1, t2, t3 = typed.tricks
    if raspasy:
        if three_hands:
            for slot, value in (("t1", t1), ("t2", t2), ("t3", t3)):
                if value is None:
                    entry.need(slot, _("Write the tricks of each hand."))
        elif t1 is None or t2 is None:
            entry.need("t1" if t1 is None else "t2", _("Write the tricks of two hands."))
        elif t3 is None:
            t3 = _third(entry, t1, t2)
        entry.row.update(declarer=[first, t1], w1=[second, t2], w2=[third, t3])
        if typed.raspasy_step:
            entry.row["raspasy_step"] = typed.raspasy_step
        return entry
    whisted = True
    if contract == "MIS":
        if players == 4 and typed.misere_shared:
            entry.row["misere_shared"] = True
    else:
        c1, c2 = typed.calls
        if not c1:
            entry.need("call1", _("Choose the first defender's call."))
        if not c2:
            entry.need("call2", _("Choose the second defender's call."))
        if not (c1 and c2):
            return entry
        entry.row["calls"] = {second: c1, third: c2}
        if players == 4 and typed.dealer_whist:
            entry.row["dealer_whist"] = True
        whisted = "whist" in (c1, c2) or "dealer_whist" in entry.row
        if whisted:
            entry.row["play"] = typed.play or "closed"
        else:
            t1, t2, t3 = _nominal(contract, (c1, c2))
    if whisted:
        if t1 is None or t2 is None:
            entry.need(
                "t1" if t1 is None else "t2", _("Write the declarer's and the first defender's tricks.")
            )
            return entry
        if t3 is None:
            t3 = _third(entry, t1, t2)
    entry.row.update(declarer=[first, t1], w1=[second, t2], w2=[third, t3])
    return entry


def _third(entry: TypedEntry, t1: int, t2: int) -> int:
    """The third column follows from the two typed (10 in all). Two that already make more than 10 are refused in
    the core's words about what was typed: «8 + 5 = 13 tricks, more than 10» (``tournaments.refusals``)."""
    if t1 + t2 > 10:
        typed = {"total": t1 + t2, "tricks": [t1, t2]}
        entry.problems.append(
            Problem("t2", refusal_message(Refusal("tricks_total", "declarer", "", typed)), refused=True)
        )
    return 10 - t1 - t2


def _nominal(contract: str, calls: tuple[str, str]) -> tuple[int, int, int]:
    """Nobody whisted: the deal is deemed made with the nominal tricks (D-W7): 10/0/0, or after a half-whist the
    level, the half-whister's half of the obligation and the rest."""
    level = int(contract[:-2] if contract.endswith("NT") else contract[:-1])
    tricks = (10, 0, 0)
    for position, call in enumerate(calls):
        if call == "half":
            half = int(half_obligation(level))
            rest = 10 - level - half
            tricks = (level, half, rest) if position == 0 else (level, rest, half)
    return tricks
