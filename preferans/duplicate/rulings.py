"""What the rules prescribe for an irregularity (duplicate-rules §10, §11, §12, §13.2.6).

:func:`propose` takes the kind of irregularity, the facts the director established and who was at fault, and
returns a :class:`Proposal`: the rule applied, a code for its wording, and the score changes it makes. The
director confirms (or overrides) it; the Django shell applies the changes through the result write path.

Fault by seat (§11.2 B1): ``offending`` → 40 % («средний минус», grade ``A-``), ``partly`` → 50 % («среднее»,
``A``), ``none`` → at least 60 % («средний плюс», ``A+``). The percentages are the tournament's.

Pure Python, no Django import.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

__all__ = [
    "FAULT_GRADE",
    "Change",
    "Fault",
    "Kind",
    "Proposal",
    "grades_by_fault",
    "propose",
]


class Kind(enum.StrEnum):
    WRONG_CARDS = "wrong_cards"  # §11.3
    MISSING_CARD = "missing_card"  # §11.4
    DEFECTIVE_TRICK = "defective_trick"  # §11.5
    WRONG_BOARD = "wrong_board"  # §11.6
    WRONG_HAND = "wrong_hand"  # §11.7
    FOULED = "fouled"  # §10
    PROCEDURAL = "procedural"  # §12
    DIRECTOR_ERROR = "director_error"  # §13.2.6
    OTHER = "other"  # §11.2 A: the director's own judgement


RULE: Final[Mapping[Kind, str]] = {
    Kind.WRONG_CARDS: "§11.3",
    Kind.MISSING_CARD: "§11.4",
    Kind.DEFECTIVE_TRICK: "§11.5",
    Kind.WRONG_BOARD: "§11.6",
    Kind.WRONG_HAND: "§11.7",
    Kind.FOULED: "§10",
    Kind.PROCEDURAL: "§12",
    Kind.DIRECTOR_ERROR: "§13.2.6",
    Kind.OTHER: "§11.2",
}


class Fault(enum.StrEnum):
    OFFENDING = "offending"
    PARTLY = "partly"
    NONE = "none"


FAULT_GRADE: Final[Mapping[Fault, str]] = {Fault.OFFENDING: "A-", Fault.PARTLY: "A", Fault.NONE: "A+"}


@dataclass(frozen=True)
class Change:
    """One score change: what to do to which row (or participant).

    ``kind``: ``artificial`` (``values`` = grades by seat), ``assigned`` (``values`` = vists by seat),
    ``annul`` (delete the row), ``version`` (``values`` = ``{"version": "B"}``), ``penalty``
    (``participant``, ``matchpoints``). ``board`` is the row's board; ``table``/``round`` default to the
    irregularity's.
    """

    kind: str
    board: int | None = None
    values: Mapping[str, str] = field(default_factory=dict)
    participant: int | None = None
    matchpoints: str = ""
    table: int | None = None
    round: int | None = None


@dataclass(frozen=True)
class Proposal:
    rule: str
    code: str
    text: str
    changes: tuple[Change, ...] = ()
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def changes_scores(self) -> bool:
        return bool(self.changes)


def grades_by_fault(seats: Sequence[str], fault: Mapping[str, str]) -> dict[str, str]:
    """Artificial grades for every seat from the fault the director found (no entry = not at fault)."""
    return {seat: FAULT_GRADE[Fault(fault.get(seat) or Fault.NONE)] for seat in seats}


def _flag(facts: Mapping[str, Any], name: str) -> bool:
    return bool(facts.get(name))


def propose(
    kind: str,
    *,
    board: int | None,
    seats: Sequence[str],
    fault: Mapping[str, str],
    facts: Mapping[str, Any],
    current_vists: Mapping[str, str] | None = None,
) -> Proposal:
    """The remedy the rules prescribe. ``facts`` holds the kind's findings (see each branch) and optionally
    the director's override: ``remedy`` = ``artificial`` / ``assigned`` / ``none`` (with ``assigned`` vists)."""
    k = Kind(kind)
    rule = RULE[k]
    grades = grades_by_fault(seats, fault)
    artificial = (Change("artificial", board, grades),) if board is not None else ()
    override = facts.get("remedy")
    if override == "none":
        return Proposal(rule, "override_none", "the director lets the result stand")
    if override == "artificial" and board is not None:
        return Proposal(
            rule, "override_artificial", "artificial adjusted result by fault (§11.2 B1)", artificial
        )
    if override == "assigned" and board is not None:
        values = {seat: str((facts.get("assigned") or {}).get(seat, "")) for seat in seats}
        return Proposal(
            rule,
            "override_assigned",
            "assigned result: the most favourable possible for the non-offenders, "
            "the least favourable for the offenders (§11.2 B2)",
            (Change("assigned", board, values),),
        )
    penalty: tuple[Change, ...] = ()
    if facts.get("penalty_participant") and facts.get("penalty_matchpoints"):
        penalty = (
            Change(
                "penalty",
                participant=int(facts["penalty_participant"]),
                matchpoints=str(facts["penalty_matchpoints"]),
            ),
        )

    if k is Kind.WRONG_CARDS:
        if _flag(facts, "call_made"):
            return Proposal(
                rule,
                "wrong_cards_call",
                "the player with the wrong number of cards has made a call: artificial adjusted result, "
                "the offender may be penalised",
                artificial + penalty,
            )
        if _flag(facts, "play_completed"):
            if _flag(facts, "keep_non_offenders") and current_vists and board is not None:
                return Proposal(
                    rule,
                    "wrong_cards_keep",
                    "play completed with a wrong hand: the result is annulled; the non-offenders keep their "
                    "result (it did not depend on the opponents' play), the offenders get the least favourable",
                    (Change("assigned", board, dict(current_vists)),) + penalty,
                )
            return Proposal(
                rule,
                "wrong_cards_completed",
                "play completed with a wrong hand: the result is annulled and an artificial result awarded",
                artificial + penalty,
            )
        if _flag(facts, "seen") and not (_flag(facts, "insignificant") and _flag(facts, "consent")):
            return Proposal(
                rule,
                "wrong_cards_seen",
                "a player saw other players' cards and the information interferes: artificial result",
                artificial + penalty,
            )
        return Proposal(
            rule,
            "wrong_cards_repaired",
            "the deal is repaired (hand records, earlier tables or a redeal) and played normally",
            penalty,
        )
    if k is Kind.MISSING_CARD:
        if facts.get("found") == "played":
            return _fouled(board, facts, "missing_card_played", penalty)
        return Proposal(
            rule,
            "missing_card_restored",
            "the card is restored to the short hand (deemed always to have belonged to it); play goes on",
            penalty,
        )
    if k is Kind.DEFECTIVE_TRICK:
        return Proposal(
            rule,
            "defective_trick",
            "the trick is rectified at the table; a revoke, if established, is scored in the protocol row",
            penalty,
        )
    if k is Kind.WRONG_BOARD:
        before = [s for s in seats if s in set(facts.get("played_before") or ())]
        if not before:
            return Proposal(
                rule,
                "wrong_board_stands",
                "nobody had played the deal before: the result stands"
                + ("; the correct deal is to be played later" if _flag(facts, "play_later") else ""),
                penalty,
            )
        changes: list[Change] = []
        if board is not None:
            changes.append(Change("annul", board))
        intended = facts.get("intended_board")
        if intended:
            changes.append(Change("artificial", int(intended), grades))
        return Proposal(
            rule,
            "wrong_board_annul",
            "seat(s) {seats} had played this deal before: the second result is annulled and the players "
            "deprived of a normal result get artificial results".format(seats=", ".join(before)),
            tuple(changes) + penalty,
            {"seats": ", ".join(before)},
        )
    if k is Kind.WRONG_HAND:
        return Proposal(
            rule,
            "wrong_hand",
            "play with the wrong hand: the deal is annulled, artificial result",
            artificial + penalty,
        )
    if k is Kind.FOULED:
        return _fouled(board, facts, "fouled", penalty)
    if k is Kind.PROCEDURAL:
        return Proposal(rule, "procedural", "procedural penalty in matchpoints", penalty)
    if k is Kind.DIRECTOR_ERROR:
        everyone = {seat: FAULT_GRADE[Fault.NONE] for seat in seats}
        return Proposal(
            rule,
            "director_error",
            "the director's ruling was wrong: adjusted result treating all players as non-offending",
            (Change("artificial", board, everyone),) if board is not None else (),
        )
    return Proposal(rule, "other", "no score change unless the director chooses one", penalty)


def _fouled(board: int | None, facts: Mapping[str, Any], code: str, penalty: tuple[Change, ...]) -> Proposal:
    label = facts.get("version")
    if not label or label == "A" or board is None:
        return Proposal(
            "§10",
            "fouled_same",
            "the layout this table played is the board as dealt: the result is compared normally",
            penalty,
        )
    return Proposal(
        "§10",
        code,
        f"fouled board: this table played version {label}, scored separately from the tables that played "
        "the board as dealt",
        (Change("version", board, {"version": str(label)}),) + penalty,
        {"version": label},
    )
