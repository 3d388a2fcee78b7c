"""Reading a layout typed by hand (duplicate-rules §2: when the organisers did not pre-deal, the first table
writes the layout into the protocol after round 1; the director types it in).

Pure Python, no Django: the form in ``boards/forms.py`` only calls :func:`read_layout` / :func:`board_from_typed`
and shows the issues. Every issue has a stable ``code`` and ``params`` for translation, an English
``message``, and is filed under the field it concerns (``"N"``, ``"E"``, ``"S"``, ``"W"``, ``"prikup_top"``,
``"prikup_bottom"``) or under :data:`GENERAL` when it spans several fields (a card written twice, missing cards).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from preferans.cards.deal import PRIKUP, BoardError, DealtBoard, Seat, build_board, check_layout, hand_seats
from preferans.cards.deck import Card, Issue, NotationError, parse_card, parse_hand

__all__ = ["GENERAL", "PRIKUP_BOTTOM", "PRIKUP_TOP", "LayoutCheck", "board_from_typed", "read_layout"]

GENERAL: Final = "__all__"
PRIKUP_TOP: Final = "prikup_top"
PRIKUP_BOTTOM: Final = "prikup_bottom"


@dataclass(frozen=True)
class LayoutCheck:
    """The outcome of reading a typed layout.

    ``hands`` and ``prikup`` (top card first) hold what could be read; ``issues`` maps a field name (or
    :data:`GENERAL`) to its problems. The layout is usable when ``ok``.
    """

    hands: Mapping[Seat, tuple[Card, ...]]
    prikup: tuple[Card, ...]
    issues: Mapping[str, tuple[Issue, ...]] = field(default_factory=dict, hash=False)

    @property
    def ok(self) -> bool:
        return not self.issues

    @property
    def all_issues(self) -> tuple[Issue, ...]:
        return tuple(issue for issues in self.issues.values() for issue in issues)


def _field_of(issue: Issue) -> str:
    if issue.place is None:
        return GENERAL
    if issue.place == PRIKUP:
        return GENERAL if issue.code == "duplicate" else PRIKUP_TOP
    return issue.place


def read_layout(
    hands: Mapping[Seat, str], prikup_top: str, prikup_bottom: str, *, exact_counts: bool = True
) -> LayoutCheck:
    """Parse three typed hands and the two prikup cards, then check the 32 cards are each there once.

    Notation errors are reported first (per field); the duplicate/missing check runs only once everything
    could be read, so that a typo does not show up again as "missing" cards. With ``exact_counts`` off
    (a fouled board, where a pocket may hold the wrong number of cards) only duplicates and missing cards
    are checked.
    """
    issues: dict[str, list[Issue]] = {}
    parsed: dict[Seat, tuple[Card, ...]] = {}
    for seat, text in hands.items():
        try:
            parsed[seat] = parse_hand(text, place=seat.value)
        except NotationError as exc:
            issues.setdefault(seat.value, []).append(exc.issue)
    prikup: list[Card] = []
    for name, label, text in (
        (PRIKUP_TOP, "top", prikup_top),
        (PRIKUP_BOTTOM, "bottom", prikup_bottom),
    ):
        if not text.strip():
            if exact_counts:
                issues.setdefault(name, []).append(
                    Issue(
                        code="prikup_card_missing",
                        message=f"the {label} card of the prikup is not written",
                        params={"position": label},
                        place=PRIKUP,
                    )
                )
            continue
        try:
            prikup.append(parse_card(text, place=f"the prikup ({label})"))
        except NotationError as exc:
            issues.setdefault(name, []).append(exc.issue)
    if not issues:
        for issue in check_layout(
            {seat.value: cards for seat, cards in parsed.items()}, prikup, exact_counts=exact_counts
        ):
            if issue.code == "wrong_count" and issue.place == PRIKUP:
                continue  # an empty prikup field was already reported
            issues.setdefault(_field_of(issue), []).append(issue)
    return LayoutCheck(
        hands=MappingProxyType(parsed),
        prikup=tuple(prikup),
        issues=MappingProxyType({key: tuple(value) for key, value in issues.items()}),
    )


def board_from_typed(
    *,
    number: int,
    set_number: int,
    dealer: Seat,
    players: int,
    hands: Mapping[Seat, str],
    prikup_top: str,
    prikup_bottom: str,
) -> DealtBoard:
    """Make the board from a typed layout, or raise :class:`BoardError` with every issue.

    ``hands`` must name exactly the hand pockets of the board: the seats other than the dealer at a
    4-player table, N, E, S at a 3-player table.
    """
    expected = hand_seats(dealer, players)
    if set(hands) != set(expected):
        wanted = ", ".join(seat.value for seat in expected)
        got = ", ".join(seat.value for seat in Seat if seat in hands)
        raise BoardError(
            [
                Issue(
                    code="hand_seats",
                    message=f"with dealer {dealer.value} at a {players}-player table the hands are {wanted}, not {got}",
                    params={
                        "expected": tuple(s.value for s in expected),
                        "got": tuple(s.value for s in Seat if s in hands),
                    },
                )
            ],
            board=number,
        )
    check = read_layout(hands, prikup_top, prikup_bottom)
    if not check.ok:
        raise BoardError(check.all_issues, board=number)
    return build_board(
        number=number, set_number=set_number, dealer=dealer, hands=check.hands, prikup=check.prikup
    )
