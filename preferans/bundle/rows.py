"""The protocol rows of a session in a bundle (formats.md §2.1): ``results[]`` read for shape, seats, dealer
and kind (played, artificial, assigned), and written back; whether a played deal is legal is the core's job.

Pure Python, no Django import. See :mod:`preferans.bundle.document`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from preferans.bundle.boards import check_dealer
from preferans.bundle.seat_adjustments import parse_seat_adjustments
from preferans.bundle.shape import (
    SEATS,
    Loc,
    Problems,
    check_bound,
    check_keys,
    check_text,
    describe,
    json_copy,
    positive_int,
)
from preferans.game.rows import ROW_FIELDS
from preferans.game.seats import table_seats
from preferans.numbers import NumberFormatError, format_fraction, parse_fraction

__all__ = [
    "DEAL_FIELDS",
    "BundleResult",
    "parse_result",
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
        "bidding",
        *DEAL_FIELDS,
    }
)
VERSION_MAX = 8  # a fouled board's version label, as stored
BIDDING_MAX = 200  # a row's written bidding (rules §13.1), as stored


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
    bidding: str = ""
    """The bidding as the table wrote it (rules §13.1 «запись торговли», where the organisers set written
    bidding): an optional one-line text of a played row, shown on the protocol; it never changes the score."""
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
        if check_dealer(dealer, players, problems, loc) and listed is not None and dealer != listed:
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
    bidding = row.get("bidding", "")
    if not isinstance(bidding, str):
        problems.add(loc, f"bidding must be a text, not {describe(bidding)}")
    else:
        check_text(problems, loc, "bidding", bidding, BIDDING_MAX)
        if bidding.strip() and (has_adjusted or has_assigned):
            problems.add(loc, "bidding belongs to a played deal, not to an artificial or assigned result")

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
        bidding=" ".join(str(bidding).split()),
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
    if r.bidding:
        out["bidding"] = r.bidding
    return out
