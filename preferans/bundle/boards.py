"""The boards of a session in a bundle (formats.md §2): ``boards[]`` read for shape (number, set, dealer, hands,
prikup) and written back; the cards themselves are the ``boards`` package's job.

Pure Python, no Django import. See :mod:`preferans.bundle.document`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from preferans.bundle.shape import (
    SEATS,
    Loc,
    Problems,
    check_bound,
    check_keys,
    describe,
    positive_int,
)

__all__ = ["BoardLayout", "board_to_dict", "check_dealer", "parse_boards"]

_BOARD_KEYS = frozenset({"number", "set", "dealer", "hands", "prikup"})
_RANK = r"(?:A|K|Q|J|10|9|8|7)"
_HAND_RE = re.compile(rf"^[SCDH]{_RANK}*(?: [SCDH]{_RANK}*)*$")
_CARD_RE = re.compile(rf"^[SCDH]{_RANK}$")


@dataclass(frozen=True)
class BoardLayout:
    """A board of the session as listed in ``boards[]``: hands and prikup kept as written."""

    number: int
    dealer: str
    set: int | None = None
    hands: Mapping[str, str] | None = None
    prikup: tuple[str, ...] | None = None


def parse_boards(
    raw: object, problems: Problems, loc: Loc, players: int | None, deals: int | None
) -> tuple[tuple[BoardLayout, ...], dict[int, str]]:
    """``boards[]``: shape only (number, set, dealer, hands, prikup); the cards are the boards package's job.

    Returns the boards without problems and the dealer of every listed board whose dealer is valid (so that a
    board with, say, a bad prikup does not also make its results look dealer-less).
    """
    dealers: dict[int, str] = {}
    if not isinstance(raw, list):
        problems.add(loc, f"boards must be a list, not {describe(raw)}")
        return (), dealers
    out: list[BoardLayout] = []
    seen: set[int] = set()
    for index, item in enumerate(raw, start=1):
        if not isinstance(item, dict):
            problems.add(loc.at(where=f"board entry {index}"), f"must be an object, not {describe(item)}")
            continue
        number = positive_int(item.get("number"))
        bloc = loc.at(board=number) if number is not None else loc.at(where=f"board entry {index}")
        before = len(problems)
        check_keys(problems, bloc, item, allowed=_BOARD_KEYS, required=("number", "dealer"), what="board")
        if "number" in item and number is None:
            problems.add(bloc, f"number must be a positive integer, not {item['number']!r}")
        elif number is not None:
            check_bound(problems, bloc, "board", number)
        if number is not None and number in seen:
            problems.add(bloc, "the board is listed twice")
        dealer = item.get("dealer")
        if "dealer" in item and check_dealer(dealer, players, problems, bloc) and number is not None:
            dealers.setdefault(number, str(dealer))
        board_set = item.get("set")
        if board_set is not None:
            if positive_int(board_set) is None:
                problems.add(bloc, f"set must be a positive integer, not {board_set!r}")
            elif number is not None and deals and (number - 1) // deals + 1 != board_set:
                problems.add(
                    bloc,
                    f"set {board_set} is wrong — with {deals} boards a set, board {number} "
                    f"is in set {(number - 1) // deals + 1}",
                )
        hands = item.get("hands")
        if hands is not None:
            _check_hands(hands, dealer, players, problems, bloc)
        prikup = item.get("prikup")
        if prikup is not None and (
            not isinstance(prikup, list)
            or len(prikup) != 2
            or not all(isinstance(c, str) and _CARD_RE.match(c) for c in prikup)
        ):
            problems.add(bloc, 'prikup must list two cards, top card first, such as ["H7", "D8"]')
        if number is not None:
            seen.add(number)
        if len(problems) == before and number is not None and isinstance(dealer, str):
            out.append(
                BoardLayout(
                    number,
                    dealer,
                    board_set,
                    dict(hands) if hands is not None else None,
                    tuple(prikup) if prikup is not None else None,
                )
            )
    return tuple(out), dealers


def check_dealer(dealer: object, players: int | None, problems: Problems, loc: Loc) -> bool:
    """A dealer's seat: N, E, S or W, and at a 3-player table not W (the prikup's pocket)."""
    if dealer not in SEATS:
        problems.add(loc, f"dealer must be one of N, E, S, W, not {dealer!r}")
        return False
    if players == 3 and dealer == "W":
        problems.add(
            loc, "dealer W at a 3-player table — there the dealer label marks the first hand: N, E or S"
        )
        return False
    return True


def _check_hands(hands: object, dealer: object, players: int | None, problems: Problems, loc: Loc) -> None:
    if not isinstance(hands, dict):
        problems.add(loc, f"hands must be an object of three hands by seat, not {describe(hands)}")
        return
    if players == 4 and dealer in SEATS:
        expected: tuple[str, ...] | None = tuple(s for s in SEATS if s != dealer)
    elif players == 3:
        expected = SEATS[:3]
    else:
        expected = None
    if expected is not None and set(hands) != set(expected):
        problems.add(
            loc,
            f"hands must be given for {', '.join(expected)} (the dealer's pocket holds the prikup), "
            f"not for {', '.join(map(str, hands)) or 'no seat'}",
        )
    for seat, hand in hands.items():
        if not isinstance(hand, str) or not _HAND_RE.match(hand):
            problems.add(
                loc, f"hand {seat}: {hand!r} is not written as suits and ranks such as 'SAKQ C7 DJ98 H10'"
            )


def board_to_dict(b: BoardLayout) -> dict[str, Any]:
    out: dict[str, Any] = {"number": b.number}
    if b.set is not None:
        out["set"] = b.set
    out["dealer"] = b.dealer
    if b.hands is not None:
        out["hands"] = dict(b.hands)
    if b.prikup is not None:
        out["prikup"] = list(b.prikup)
    return out
