"""Bundle parts of a session: board layouts, results (protocol rows) and penalties (formats.md §2, §2.1).

Pure Python, no Django import. See :mod:`preferans.bundle.document`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from preferans.bundle.bounds import REASON_MAX
from preferans.bundle.seat_adjustments import parse_seat_adjustments
from preferans.bundle.shape import (
    SEATS,
    Loc,
    Problems,
    check_bound,
    check_keys,
    check_text,
    describe,
    positive_int,
)
from preferans.duplicate.penalties import check_penalty
from preferans.game.rows import ROW_FIELDS
from preferans.game.seats import table_seats
from preferans.numbers import NumberFormatError, format_fraction, parse_fraction

__all__ = [
    "DEAL_FIELDS",
    "BoardLayout",
    "BundlePenalty",
    "BundleResult",
    "board_to_dict",
    "json_copy",
    "parse_boards",
    "parse_penalties",
    "parse_result",
    "penalty_to_dict",
    "result_to_dict",
]

DEAL_FIELDS = tuple(field for field in ROW_FIELDS if field != "vists")
"""The played-deal fields of a protocol row (scoring-spec §11), handed to the preferans core as written."""

_ROW_KEYS = frozenset(
    {
        "board",
        "round",
        "table",
        "room",
        "seats",
        "dealer",
        "version",
        "vists",
        "adjusted",
        "assigned",
        "annulled",
        "percent",
        *DEAL_FIELDS,
    }
)
_BOARD_KEYS = frozenset({"number", "set", "dealer", "hands", "prikup"})
VERSION_MAX = 8  # a fouled board's version label, as stored
_PENALTY_KEYS = frozenset({"participant", "matchpoints", "reason"})
_RANK = r"(?:A|K|Q|J|10|9|8|7)"
_HAND_RE = re.compile(rf"^[SCDH]{_RANK}*(?: [SCDH]{_RANK}*)*$")
_CARD_RE = re.compile(rf"^[SCDH]{_RANK}$")


def json_copy(value: Any) -> Any:
    """A deep copy of decoded JSON (dicts, lists, scalars), much faster than :func:`copy.deepcopy`."""
    kind = type(value)
    if kind is dict:
        return {k: json_copy(v) for k, v in value.items()}
    if kind is list:
        return [json_copy(v) for v in value]
    return value


@dataclass(frozen=True)
class BoardLayout:
    """A board of the session as listed in ``boards[]``: hands and prikup kept as written."""

    number: int
    dealer: str
    set: int | None = None
    hands: Mapping[str, str] | None = None
    prikup: tuple[str, ...] | None = None


@dataclass(frozen=True)
class BundlePenalty:
    """A procedural penalty (§12) in matchpoints, added to the participant's session total."""

    participant: int
    matchpoints: Fraction
    reason: str | None = None


@dataclass(frozen=True)
class BundleResult:
    """One row of a board's protocol (formats.md §2.1).

    Exactly one of: a played deal (``deal`` holds the row fields, ``vists`` the optional written vists that must
    match the computed ones), an artificial adjusted result (``adjusted``: A-/A/A+ per seat) or an assigned one
    (``assigned``: vists per seat). ``dealer`` is the row's dealer, or the board's when the row omits it.
    """

    board: int
    round: int
    table: int
    seats: Mapping[str, int]
    dealer: str
    version: str = "A"
    deal: Mapping[str, Any] = field(default_factory=dict)
    vists: Mapping[str, Fraction] | None = None
    adjusted: Mapping[str, str] | None = None
    assigned: Mapping[str, Fraction] | None = None
    room: int = 1
    """The room the table is in (formats.md §2.1, seed §2, §5 procedure 2); rooms play the same boards and are
    compared as one field, so the room identifies the row, never its comparison group."""
    annulled: tuple[str, ...] = ()
    """Seats whose result on this row is annulled (§11.6 B, a player's second result on a board): they leave
    their line's comparison and earn nothing here; the other seats are compared normally."""
    percent: Mapping[str, Fraction] | None = None
    """Per-seat percentages of the board-line top (:mod:`preferans.duplicate.artificial`): a non-offender's
    artificial result above A+ (§11.2 B1), or a seat of a played row taken out of the comparison (§11.3 C)."""
    key: int | None = field(default=None, compare=False)
    """The caller's own name for the row (a database key); never read from or written to a file: scoring
    returns it with the row's numbers so that the caller matches them by key, not by position."""

    @property
    def kind(self) -> str:
        """``"played"``, ``"artificial"`` or ``"assigned"``."""
        if self.adjusted is not None:
            return "artificial"
        if self.assigned is not None:
            return "assigned"
        return "played"


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
        if "dealer" in item and _check_dealer(dealer, players, problems, bloc) and number is not None:
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


def _check_dealer(dealer: object, players: int | None, problems: Problems, loc: Loc) -> bool:
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


def parse_result(
    row: object,
    problems: Problems,
    session_loc: Loc,
    position: int,
    *,
    players: int | None,
    known: frozenset[int],
    artificial: Mapping[str, Fraction],
    board_dealers: Mapping[int, str],
) -> BundleResult | None:
    """One row (formats.md §2.1). Returns ``None`` when it has problems of its own (all reported)."""
    if not isinstance(row, dict):
        problems.add(session_loc.at(where=f"result {position}"), f"must be an object, not {describe(row)}")
        return None
    board = positive_int(row.get("board"))
    table = positive_int(row.get("table"))
    rnd = positive_int(row.get("round"))
    room = positive_int(row.get("room", 1))
    where = None if board is not None and table is not None and rnd is not None else f"result {position}"
    loc = Loc(session_loc.session, board, table, rnd, where, room)
    before = len(problems)
    check_keys(
        problems, loc, row, allowed=_ROW_KEYS, required=("board", "round", "table", "seats"), what="result"
    )
    for key, value in (("board", board), ("table", table), ("round", rnd), ("room", room)):
        if key in row and value is None:
            problems.add(loc, f"{key} must be a positive integer, not {row[key]!r}")
        elif value is not None:
            check_bound(problems, loc, key, value)

    seats = _parse_seats(row.get("seats"), problems, loc, players, known) if "seats" in row else None

    dealer = row.get("dealer")
    listed = board_dealers.get(board) if board is not None else None
    if "dealer" in row:
        if _check_dealer(dealer, players, problems, loc) and listed is not None and dealer != listed:
            problems.add(loc, f"dealer {dealer} differs from the board's dealer {listed}")
    elif listed is not None:
        dealer = listed
    elif board is not None:
        problems.add(
            loc, "dealer missing — the board is not listed in boards[], so the result must name its dealer"
        )

    version = row.get("version", "A")
    if not isinstance(version, str) or not version.strip():
        problems.add(loc, f"version must be a non-empty label such as 'A', not {version!r}")
    else:
        check_text(problems, loc, "version", version, VERSION_MAX)

    deal = {key: row[key] for key in DEAL_FIELDS if key in row}
    adjusted_raw, assigned_raw = row.get("adjusted"), row.get("assigned")
    has_adjusted, has_assigned = "adjusted" in row, "assigned" in row
    seat_keys = tuple(seats) if seats is not None else None
    adjusted: dict[str, str] | None = None
    assigned: dict[str, Fraction] | None = None
    vists: dict[str, Fraction] | None = None
    if has_adjusted and has_assigned:
        problems.add(loc, "a result is either artificial (adjusted) or assigned, not both")
    elif has_adjusted or has_assigned:
        kind = "adjusted" if has_adjusted else "assigned"
        if deal:
            problems.add(loc, f"an {kind} result carries no played-deal fields ({', '.join(deal)})")
        if "vists" in row:
            problems.add(
                loc, f"an {kind} result has no vists field — the {kind} map says what each seat gets"
            )
        if has_adjusted:
            adjusted = _parse_adjusted(adjusted_raw, problems, loc, seat_keys, artificial)
        else:
            assigned = _parse_seat_numbers(assigned_raw, problems, loc, seat_keys, "assigned")
    elif not deal:
        problems.add(
            loc,
            "no deal: a result needs the played deal (contract, declarer, w1, w2, …), "
            "an artificial result (adjusted) or an assigned one (assigned)",
        )
    if "vists" in row and not (has_adjusted or has_assigned):
        vists = _parse_seat_numbers(row["vists"], problems, loc, seat_keys, "vists")
    annulled, percent = parse_seat_adjustments(row, problems, loc, seat_keys, adjusted, artificial)

    if (
        len(problems) > before
        or seats is None
        or board is None
        or table is None
        or rnd is None
        or room is None
    ):
        return None
    assert isinstance(dealer, str) and isinstance(version, str)
    return BundleResult(
        board,
        rnd,
        table,
        seats,
        dealer,
        version,
        json_copy(deal),
        vists,
        adjusted,
        assigned,
        room=room,
        annulled=annulled,
        percent=percent,
    )


def _parse_seats(
    raw: object, problems: Problems, loc: Loc, players: int | None, known: frozenset[int]
) -> dict[str, int] | None:
    if not isinstance(raw, dict):
        problems.add(loc, f"seats must be an object of participant numbers by seat, not {describe(raw)}")
        return None
    before = len(problems)
    seats: dict[str, int] = {}
    where: dict[int, str] = {}
    for seat in raw:
        if seat not in SEATS:
            problems.add(loc, f"unknown seat {seat!r} — seats are N, E, S and W")
    for seat in SEATS:
        if seat not in raw:
            if players == 4 or (players == 3 and seat != "W"):
                problems.add(
                    loc,
                    f"seat {seat} is missing — a {players}-player table seats "
                    f"{', '.join(table_seats(players))}",
                )
            continue
        if seat == "W" and players == 3:
            problems.add(
                loc, "a W seat at a 3-player table — 3-player tables seat N, E and S (W holds the prikup)"
            )
            continue
        number = positive_int(raw[seat])
        if number is None:
            problems.add(loc, f"seat {seat}: {raw[seat]!r} is not a participant number")
            continue
        if number not in known:
            problems.add(loc, f"seat {seat}: participant {number} is not in the participants list")
        if number in where:
            problems.add(loc, f"participant {number} is seated twice ({where[number]} and {seat})")
        where.setdefault(number, seat)
        seats[seat] = number
    return seats if len(problems) == before else None


def _parse_adjusted(
    raw: object,
    problems: Problems,
    loc: Loc,
    seats: tuple[str, ...] | None,
    artificial: Mapping[str, Fraction],
) -> dict[str, str] | None:
    if not isinstance(raw, dict):
        problems.add(loc, f'adjusted must be an object such as {{"N": "A+", …}}, not {describe(raw)}')
        return None
    before = len(problems)
    _check_seat_keys(raw, problems, loc, seats, "adjusted")
    for seat, label in raw.items():
        if label not in artificial:
            problems.add(loc, f"adjusted {seat}: {label!r} is not an artificial result — use A-, A or A+")
    return {s: raw[s] for s in SEATS if s in raw} if len(problems) == before else None


def _parse_seat_numbers(
    raw: object, problems: Problems, loc: Loc, seats: tuple[str, ...] | None, what: str
) -> dict[str, Fraction] | None:
    if not isinstance(raw, dict):
        problems.add(loc, f"{what} must be an object of vists by seat, not {describe(raw)}")
        return None
    before = len(problems)
    _check_seat_keys(raw, problems, loc, seats, what)
    values: dict[str, Fraction] = {}
    for seat in SEATS:
        if seat in raw:
            try:
                values[seat] = parse_fraction(raw[seat])
            except NumberFormatError as exc:
                problems.add(loc, f"{what} {seat}: {exc}")
    return values if len(problems) == before else None


def _check_seat_keys(
    raw: dict[str, Any], problems: Problems, loc: Loc, seats: tuple[str, ...] | None, what: str
) -> None:
    if seats is None:
        return
    missing = [s for s in seats if s not in raw]
    extra = [s for s in raw if s not in seats]
    if missing:
        problems.add(loc, f"{what} must give every seated seat — {', '.join(missing)} missing")
    if extra:
        problems.add(loc, f"{what}: {', '.join(map(str, extra))} is not a seat at this table")


def parse_penalties(
    raw: object, problems: Problems, loc: Loc, known: frozenset[int]
) -> tuple[BundlePenalty, ...]:
    if not isinstance(raw, list):
        problems.add(loc, f"penalties must be a list, not {describe(raw)}")
        return ()
    out: list[BundlePenalty] = []
    for index, item in enumerate(raw, start=1):
        ploc = loc.at(where=f"penalty {index}")
        if not isinstance(item, dict):
            problems.add(ploc, f"must be an object, not {describe(item)}")
            continue
        before = len(problems)
        check_keys(
            problems,
            ploc,
            item,
            allowed=_PENALTY_KEYS,
            required=("participant", "matchpoints"),
            what="penalty",
        )
        number = positive_int(item.get("participant"))
        if "participant" in item:
            if number is None:
                problems.add(ploc, f"participant must be a participant number, not {item['participant']!r}")
            elif number not in known:
                problems.add(ploc, f"participant {number} is not in the participants list")
        value: Fraction | None = None
        if "matchpoints" in item:
            try:
                value = parse_fraction(item["matchpoints"])
            except NumberFormatError as exc:
                problems.add(ploc, f"matchpoints: {exc}")
            if value is not None and (refusal := check_penalty(value)) is not None:
                problems.add(ploc, f"matchpoints: {refusal}")
        reason = item.get("reason")
        if reason is not None and not isinstance(reason, str):
            problems.add(ploc, f"reason must be a string, not {describe(reason)}")
        elif reason is not None:
            check_text(problems, ploc, "reason", reason, REASON_MAX)
        if len(problems) == before and number is not None and value is not None:
            out.append(BundlePenalty(number, value, reason))
    return tuple(out)


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


def result_to_dict(r: BundleResult) -> dict[str, Any]:
    out: dict[str, Any] = {
        "board": r.board,
        "round": r.round,
        "table": r.table,
    }
    if r.room != 1:
        out["room"] = r.room
    out["seats"] = dict(r.seats)
    out["dealer"] = r.dealer
    if r.version != "A":
        out["version"] = r.version
    out.update(json_copy(dict(r.deal)))
    if r.vists is not None:
        out["vists"] = {seat: format_fraction(v) for seat, v in r.vists.items()}
    if r.adjusted is not None:
        out["adjusted"] = dict(r.adjusted)
    if r.assigned is not None:
        out["assigned"] = {seat: format_fraction(v) for seat, v in r.assigned.items()}
    if r.annulled:
        out["annulled"] = list(r.annulled)
    if r.percent:
        out["percent"] = {seat: format_fraction(v) for seat, v in r.percent.items()}
    return out


def penalty_to_dict(p: BundlePenalty) -> dict[str, Any]:
    out: dict[str, Any] = {"participant": p.participant, "matchpoints": format_fraction(p.matchpoints)}
    if p.reason is not None:
        out["reason"] = p.reason
    return out
