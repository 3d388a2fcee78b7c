"""A board in the bundle's form (formats.md §2): ``{"number", "set", "dealer", "hands", "prikup"}``.

:func:`board_to_dict` writes a :class:`~preferans.cards.deal.DealtBoard` in that form, :func:`board_from_dict`
reads one back naming every problem (:class:`~preferans.cards.deal.BoardError`), :func:`stored_board` reads a
board as the database keeps it. Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from preferans.cards.deal import PRIKUP, BoardError, DealtBoard, Seat, build_board, set_of_board
from preferans.cards.deck import Card, Issue, NotationError, ParamValue, format_hand, parse_card, parse_hand

_KEYS: Final = frozenset({"number", "set", "dealer", "hands", "prikup"})


def board_to_dict(board: DealtBoard) -> dict[str, Any]:
    """``{"number": 1, "set": 1, "dealer": "W", "hands": {"N": "SAKQ C7 DJ98 H10", …}, "prikup": ["H7", "D8"]}``."""
    return {
        "number": board.number,
        "set": board.set_number,
        "dealer": board.dealer.value,
        "hands": {seat.value: format_hand(cards) for seat, cards in board.hands.items()},
        "prikup": [card.notation for card in board.prikup],
    }


def _problem(code: str, message: str, **params: ParamValue) -> Issue:
    return Issue(code=code, message=message, params=params)


def board_from_dict(data: Mapping[str, Any], *, deals_per_set: int | None = None) -> DealtBoard:
    """Read a board in the bundle's form; raise :class:`BoardError` naming every problem.

    ``set`` may be left out when ``deals_per_set`` is given (it then follows from the number); when both are
    present they must agree.
    """
    if not isinstance(data, Mapping):
        raise BoardError(
            [_problem("not_an_object", f"a board must be a JSON object, not {type(data).__name__}")]
        )
    raw_number = data.get("number")
    number = raw_number if isinstance(raw_number, int) and not isinstance(raw_number, bool) else None
    issues: list[Issue] = []
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        issues.append(
            _problem(
                "unknown_field",
                f"unknown field(s): {', '.join(map(str, unknown))}",
                fields=tuple(map(str, unknown)),
            )
        )
    for key in ("number", "dealer", "hands", "prikup"):
        if key not in data:
            issues.append(_problem("missing_field", f"the field {key!r} is missing", field=key))
    if "set" not in data and deals_per_set is None:
        issues.append(_problem("missing_field", "the field 'set' is missing", field="set"))
    for key in ("number", "set"):
        if key in data:
            value = data[key]
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                issues.append(
                    _problem(
                        f"bad_{key}",
                        f"{key!r} must be a positive whole number, not {value!r}",
                        value=repr(value),
                    )
                )
    set_number: int | None = None
    if isinstance(data.get("set"), int) and not isinstance(data.get("set"), bool):
        set_number = data["set"]
    if deals_per_set is not None and number is not None and number >= 1:
        expected = set_of_board(number, deals_per_set)
        if set_number is None and "set" not in data:
            set_number = expected
        elif set_number is not None and set_number != expected:
            issues.append(
                _problem(
                    "wrong_set",
                    f"board {number} belongs to set {expected} with {deals_per_set} deals per set, not set {set_number}",
                    expected=expected,
                    set=set_number,
                )
            )
    dealer: Seat | None = None
    if "dealer" in data:
        raw = data["dealer"]
        if isinstance(raw, str) and raw in Seat._value2member_map_:
            dealer = Seat(raw)
        else:
            issues.append(
                _problem("bad_dealer", f"'dealer' must be one of N, E, S, W, not {raw!r}", value=repr(raw))
            )
    hands: dict[Seat, tuple[Card, ...]] = {}
    raw_hands = data.get("hands")
    if "hands" in data:
        if not isinstance(raw_hands, Mapping):
            issues.append(_problem("bad_hands", "'hands' must be an object mapping seats to hands"))
        else:
            for key, text in raw_hands.items():
                if key not in Seat._value2member_map_:
                    issues.append(
                        _problem(
                            "bad_seat", f"{key!r} in 'hands' is not a seat (N, E, S or W)", value=str(key)
                        )
                    )
                    continue
                if not isinstance(text, str):
                    issues.append(
                        _problem(
                            "bad_hand",
                            f'the hand of {key} must be a string like "SAKQ C7 DJ98 H10"',
                            place=key,
                        )
                    )
                    continue
                try:
                    hands[Seat(key)] = parse_hand(text, place=key)
                except NotationError as exc:
                    issues.append(exc.issue)
    prikup: list[Card] = []
    raw_prikup = data.get("prikup")
    if "prikup" in data:
        if not isinstance(raw_prikup, list) or not all(isinstance(c, str) for c in raw_prikup):
            issues.append(
                _problem(
                    "bad_prikup", '\'prikup\' must be a list of two cards, top card first, e.g. ["H7", "D8"]'
                )
            )
        else:
            for text in raw_prikup:
                try:
                    prikup.append(parse_card(text, place=PRIKUP))
                except NotationError as exc:
                    issues.append(exc.issue)
    if issues:
        raise BoardError(issues, board=number)
    assert dealer is not None and set_number is not None and number is not None
    return build_board(number=number, set_number=set_number, dealer=dealer, hands=hands, prikup=prikup)


def stored_board(
    *, number: int, set_number: int, dealer: str, hands: Mapping[str, str], prikup: Sequence[str]
) -> DealtBoard:
    """A board as it is stored (hands in the bundle's notation, the prikup top card first), checked."""
    return board_from_dict(
        {"number": number, "set": set_number, "dealer": dealer, "hands": dict(hands), "prikup": list(prikup)}
    )
