"""What the rules prescribe for an irregularity (duplicate-rules §10, §11, §12, §13.2.6).

:func:`propose` takes the kind of irregularity, the facts the director established and who was at fault, and
returns a :class:`Proposal`: the rule applied, a code for its wording, and the score changes it makes. The
director confirms (or overrides) it; the Django shell applies the changes through the result write path.

Fault by seat (§11.2 B1): ``offending`` → 40 % («средний минус», grade ``A-``), ``partly`` → 50 % («среднее»,
``A``), ``none`` → at least 60 % («средний плюс», ``A+``). The percentages are the tournament's, within the book's
bounds (:mod:`preferans.duplicate.artificial`); the director may raise a non-offender above A+ (``percent``).

Rulings change a row seat by seat where the book says so: §11.6 B annuls only the repeater's *second* result (by
round order, whichever row the director opened) and the others keep theirs; §11.3 C keeps the non-offenders' result
and gives the offender, whose result is annulled, the artificial A− of §11.2 Б.1 (the software's reading of the
book, 40 % of the top); §11.6 A.1 stores the row that stands.

Pure Python, no Django import.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final

from preferans.duplicate.artificial import BOOK_AVERAGE, BOOK_MINUS

__all__ = [
    "FAULT_GRADE",
    "Change",
    "Fault",
    "Kind",
    "OtherRow",
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
    ``annul`` (delete the row), ``version`` (``values`` = ``{"version": "B"}``), ``row`` (``values`` = the
    played deal to store; without deal fields the stored row keeps its deal), ``penalty`` (``participant``,
    ``matchpoints``). Any row change may carry the per-seat ``annulled`` seats (§11.6 B) and ``percent``
    (§11.2 B1, §11.3 C) of :mod:`preferans.duplicate.artificial` in ``values``. ``board`` is the row's board;
    ``table``/``round``/``room`` default to the irregularity's.
    """

    kind: str
    board: int | None = None
    values: Mapping[str, Any] = field(default_factory=dict)
    participant: int | None = None
    matchpoints: str = ""
    table: int | None = None
    round: int | None = None
    room: int | None = None


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


@dataclass(frozen=True)
class OtherRow:
    """Where a participant seated at the irregularity's table played the same board before or after (§11.6 B):
    his ``seat`` here, the other row's ``round``, ``table``, ``room`` and his seat there."""

    seat: str
    round: int
    table: int
    room: int = 1
    seat_there: str = ""

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> OtherRow:
        return cls(
            str(raw["seat"]),
            int(raw["round"]),
            int(raw["table"]),
            int(raw.get("room") or 1),
            str(raw.get("seat_there") or raw["seat"]),
        )


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
    round: int | None = None,
    percentages: Mapping[str, Fraction] | None = None,
) -> Proposal:
    """The remedy the rules prescribe. ``facts`` holds the kind's findings (see each branch) and optionally
    the director's override: ``remedy`` = ``artificial`` / ``assigned`` / ``none`` (with ``assigned`` vists),
    ``percent`` (a non-offender's artificial result above A+, §11.2 B1, with ``percent_reason``) and ``row``
    (the deal as played, when no row of it is stored). ``current_vists`` is the stored row's (``None``: no row
    stored); ``round`` is the irregularity's; ``percentages`` the tournament's A-/A/A+."""
    k = Kind(kind)
    rule = RULE[k]
    grades = grades_by_fault(seats, fault)
    raised = {
        s: str(v)
        for s, v in dict(facts.get("percent") or {}).items()
        if str(v).strip() and grades.get(s) == "A+"
    }
    art_values: dict[str, Any] = dict(grades)
    if raised:
        art_values["percent"] = raised
    artificial = (Change("artificial", board, art_values),) if board is not None else ()
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
                at_fault = _annulled_artificial(seats, fault, percentages)
                if at_fault:
                    return Proposal(
                        rule,
                        "wrong_cards_keep",
                        "play completed with a wrong hand: the non-offenders keep their result (it did not "
                        "depend on the opponents' play); the result is annulled for {seats}, who get "
                        "the artificial result A- (40 % of the top; a side partly at fault A, 50 %)".format(
                            seats=", ".join(at_fault)
                        ),
                        (Change("row", board, {"percent": at_fault}),) + penalty,
                        {"seats": ", ".join(at_fault)},
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
        found = facts.get("found")
        if found == "played":
            return _fouled(board, facts, "missing_card_played", penalty)
        if found == "not_found":
            return Proposal(
                rule,
                "missing_card_not_found",
                "the card cannot be found: the director reconstructs the layout as far as possible on another "
                "deck and play goes on (§11.4 A.2, B.2); a penalty may follow (§11.4 B.3)",
                penalty,
            )
        return Proposal(
            rule,
            "missing_card_restored",
            "the card is found and returned to the short hand, deemed always to have belonged to it; it may "
            "become a penalty card and not having played it may establish a revoke (§11.4 A.1, B.1 b, B.3)",
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
        return _wrong_board(rule, board, seats, grades, facts, current_vists, round, penalty)
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


def _annulled_artificial(
    seats: Sequence[str], fault: Mapping[str, str], percentages: Mapping[str, Fraction] | None
) -> dict[str, str]:
    """§11.3 В: «результат должен быть аннулирован. Но возможно сохранение результата ненарушивших игроков» — the
    seats whose result is annulled and what they get. An annulled result leaves that seat no result reached
    naturally, so §11.2 Б.1 gives it the artificial result: A− (40 % of the top) for the side definitely at
    fault, A (50 %) for a side partly at fault — the same as when the whole row is annulled
    (``wrong_cards_completed``). The offender is not made worse off because the non-offenders could keep
    theirs."""
    minus = (percentages or {}).get("A-", BOOK_MINUS)
    average = (percentages or {}).get("A", BOOK_AVERAGE)
    out: dict[str, str] = {}
    for seat in seats:
        found = fault.get(seat)
        if found == Fault.OFFENDING:
            out[seat] = str(minus)
        elif found == Fault.PARTLY:
            out[seat] = str(average)
    return out


def _wrong_board(
    rule: str,
    board: int | None,
    seats: Sequence[str],
    grades: Mapping[str, str],
    facts: Mapping[str, Any],
    current_vists: Mapping[str, str] | None,
    round: int | None,
    penalty: tuple[Change, ...],
) -> Proposal:
    """§11.6. A: nobody had played the deal — the result stands (stored if the table could not store it).
    B: a player had played it — his *second* result, by time of play, is annulled; the others keep theirs."""
    played_row = dict(facts.get("row") or {})
    store = (
        (Change("row", board, played_row),)
        if board is not None and played_row and current_vists is None
        else ()
    )
    others = [OtherRow.of(o) for o in facts.get("other_rows") or ()]
    before = [
        s for s in seats if s in set(facts.get("played_before") or ()) or any(o.seat == s for o in others)
    ]
    if not before:
        later = "; the correct deal is to be played later (§11.6 A.2)" if _flag(facts, "play_later") else ""
        if board is not None and current_vists is None and not played_row:
            return Proposal(
                rule,
                "wrong_board_stands_enter",
                "nobody had played the deal before: the result stands (§11.6 A.1) — enter the row as played "
                "so that it is stored and compared" + later,
                penalty,
                {"later": bool(later)},
            )
        return Proposal(
            rule,
            "wrong_board_stands",
            "nobody had played the deal before: the result stands (§11.6 A.1) and is compared with the board's "
            "other results" + later,
            store + penalty,
            {"later": bool(later)},
        )
    here: list[str] = []  # seats whose second result is this row's
    there: list[Change] = []  # the seat's second result is the other row's (played in a later round)
    for seat in before:
        mine = [o for o in others if o.seat == seat]
        if not mine or round is None or any(o.round < round for o in mine):
            here.append(seat)
        for o in mine:
            if round is not None and o.round > round:
                there.append(
                    Change(
                        "row", board, {"annulled": [o.seat_there]}, table=o.table, round=o.round, room=o.room
                    )
                )
    changes: list[Change] = list(there)
    missing = False
    if board is not None and here:
        if set(here) >= set(seats):
            changes.append(Change("annul", board))
        elif current_vists is not None:
            changes.append(Change("row", board, {"annulled": here}))
        elif played_row:
            changes.append(Change("row", board, {**played_row, "annulled": here}))
        else:
            missing = True
    elif store:
        changes.extend(store)
    elif board is not None and current_vists is None:
        missing = True
    intended = facts.get("intended_board")
    if intended:
        changes.append(Change("artificial", int(intended), dict(grades)))
    text = (
        "seat(s) {seats} had played this deal before: each one's second result (the later round) is annulled; "
        "the other players keep their result on this board and are compared normally"
    ).format(seats=", ".join(before))
    if intended:
        text += "; the players deprived of a normal result on the intended board get artificial results"
    if missing:
        text += " — enter the row as played so that the other players' result is stored"
    return Proposal(
        rule,
        "wrong_board_annul",
        text,
        tuple(changes) + penalty,
        {"seats": ", ".join(before), "here": ", ".join(here), "intended": intended or "", "missing": missing},
    )


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
