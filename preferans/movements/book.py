"""The book's special schemes (seed §5, procedure 4) as data, exactly as in movements.md §3.

One typo of the seed is corrected: the printed 16-player route of group 2 reads ``3W-3N-4N-4S-4E-4W-4S``
(4S twice, 3S missing); mapping the 8-player route onto tables 3–4 with the fixed seat at 3E gives
``3W-3N-4N-3S-4E-4W-4S``, which is what is used here.
"""

from __future__ import annotations

from .model import Movement, MovementError
from .reasons import Reason
from .routes import Group, RouteScheme, parse_route, parse_row, route_movement

_R8 = "1S-1W-2W-1E-2N-2S-2E"
_R9 = "P-2E-2W-2S-1S-1W-2N-1E-1N"
_R12 = "1S-2W-3W-2E-2S-3E-1W-3S-3N-2N-1E"
_R13 = "P-2W-3W-1W-2S-1E-2E-2N-1S-3E-3S-3N-1N"
_R16B = "3W-3N-4N-3S-4E-4W-4S"  # typo corrected (the seed prints 4S in place of 3S)
_R18B = "P-3N-3E-4N-3W-3S-4S-4W-4E"
_R24B = "4W-5N-6N-5S-5W-6S-4N-6W-6E-5E-4S"


def _scheme(n: int, tables: int, groups: list[tuple[str, tuple[str, ...]]], row: str) -> RouteScheme:
    return RouteScheme(
        name=Reason(f"book scheme for {n} participants (§5)", "book_scheme", {"participants": n}),
        participants=n,
        tables=tables,
        groups=tuple(Group(parse_route(r), fixed) for r, fixed in groups),
        row=parse_row(row),
    )


BOOK_SCHEMES: dict[int, RouteScheme] = {
    8: _scheme(8, 2, [(_R8, ("1N",))], "/1,2/-Z-Z-Z-Z-Z-Z"),
    9: _scheme(9, 2, [(_R9, ())], "/1,2/-Z-Z-Z-Z-Z-Z-Z-Z"),
    12: _scheme(12, 3, [(_R12, ("1N",))], "1-Z-Z-Z-2-Z-Z-3-Z-Z-Z"),
    13: _scheme(13, 3, [(_R13, ())], "1-Z-Z-2-3-Z-Z-Z-Z-Z-Z-Z-Z"),
    16: _scheme(16, 4, [(_R8, ("1N",)), (_R16B, ("3E",))], "/1,2/-/3,4/-Z-Z-Z-Z-Z"),
    18: _scheme(18, 4, [(_R9, ()), (_R18B, ())], "/1,2/-/3,4/-Z-Z-Z-Z-Z-Z-Z"),
    24: _scheme(24, 6, [(_R12, ("1N",)), (_R24B, ("4E",))], "1-4-Z-Z-2-5-Z-3-6-Z-Z"),
}


def _note(n: int, text: str) -> Reason:
    return Reason(text, f"book_note_{n}")


BOOK_NOTES: dict[int, Reason] = {
    8: _note(8, "7 sets of at least two deals; tables 1 and 2 play the same set"),
    9: _note(9, "9 sets of at least two deals; tables 1 and 2 play the same set; P = rest"),
    12: _note(12, "11 sets; 1N keeps its player"),
    13: _note(13, "13 sets; P = rest"),
    16: _note(16, "two groups of 8 (players 1–8 at tables 1–2, 9–16 at tables 3–4); No. 16 stays at 3E"),
    18: _note(18, "two groups of 9 (players 1–9 at tables 1–2, 10–18 at tables 3–4)"),
    24: _note(
        24,
        "two groups of 12 (players 1–12 at tables 1–3, 13–24 at tables 4–6); No. 24 stays at 4E; "
        "note the table order in the row",
    ),
}


# The book's misprints that a scheme here corrects (movements.md §3): what the printout must say about them.
BOOK_CORRECTIONS: dict[int, Reason] = {
    16: Reason(
        "The route of group 2 (players 9–16, tables 3–4) corrects a misprint of the book: the book prints "
        "3W-3N-4N-4S-4E-4W-4S (4S twice, 3S missing); used here is 3W-3N-4N-3S-4E-4W-4S, the 8-player route "
        "moved to tables 3–4 with No. 16 fixed at 3E.",
        "book_misprint_16",
        {"printed": "3W-3N-4N-4S-4E-4W-4S", "used": _R16B, "tables": "3–4"},
    ),
}
CORRECTED_TABLES: dict[int, tuple[int, ...]] = {16: (3, 4)}


def book_correction(m: Movement) -> tuple[Reason, tuple[int, ...]] | None:
    """The note a printout of ``m`` carries when ``m`` is a book scheme whose printed route was corrected, and
    the tables that route seats; ``None`` for any other movement."""
    n = m.participants
    if m.scheme != "book" or m.per_table != 4 or m.rooms != 1 or n not in BOOK_CORRECTIONS:
        return None
    return BOOK_CORRECTIONS[n], CORRECTED_TABLES[n]


def book_numbers() -> tuple[int, ...]:
    return tuple(sorted(BOOK_SCHEMES))


def book_scheme(participants: int) -> RouteScheme:
    try:
        return BOOK_SCHEMES[participants]
    except KeyError:
        raise MovementError(
            f"the book has special schemes (§5, procedure 4) only for "
            f"{', '.join(str(n) for n in book_numbers())} participants, not {participants}",
            code="book_participants",
            params={"participants": participants, "available": ", ".join(str(n) for n in book_numbers())},
        ) from None


def book_movement(participants: int, *, rounds: int | None = None, deals_per_set: int = 0) -> Movement:
    """The book's scheme for ``participants`` (4 players per table), full cycle or shortened."""
    return route_movement(
        book_scheme(participants), rounds=rounds, scheme_label="book", deals_per_set=deals_per_set
    )
