"""Checks across the rows of a session of a bundle (formats.md §2, §2.1): one row per (room, board, table, round),
nobody at two tables in a round or on a board twice (unless a ruling annulled one of his results, §11.6 B), one
dealer per board, and every row at a table its session's movement seats.

Pure Python, no Django import. See :mod:`preferans.bundle.document`.
"""

from __future__ import annotations

from collections.abc import Mapping

from preferans.bundle.rows import BundleResult
from preferans.bundle.shape import Loc, Problems

__all__ = ["check_fits_movement", "check_results"]


def check_results(
    results: list[BundleResult], problems: Problems, loc: Loc, board_dealers: Mapping[int, str]
) -> None:
    """Checks across the rows of a session (seating consistency, one dealer per board).

    A row is identified by (room, board, table, round): tables are numbered within their room (formats.md §2.1).
    """
    first_at: dict[tuple[int, int, int, int], int] = {}
    dealer_of: dict[int, tuple[str, BundleResult]] = {}
    table_in_round: dict[tuple[int, int], tuple[int, int]] = {}
    played: dict[tuple[int, int], BundleResult] = {}
    for index, r in enumerate(results):
        rloc = loc.at(board=r.board, table=r.table, round=r.round, room=r.room)
        key = (r.room, r.board, r.table, r.round)
        if key in first_at:
            problems.add(
                rloc, "a second result for the same board, table and round — one table plays a board once"
            )
        else:
            first_at[key] = index
        if r.board not in board_dealers:
            seen = dealer_of.setdefault(r.board, (r.dealer, r))
            if seen[0] != r.dealer:
                other = seen[1]
                problems.add(
                    rloc,
                    f"dealer {r.dealer} differs from dealer {seen[0]} of the same board at {_where(other)} "
                    "— all results of a board have one dealer",
                )
        for number in r.seats.values():
            at = table_in_round.setdefault((number, r.round), (r.room, r.table))
            if at != (r.room, r.table):
                problems.add(rloc, f"participant {number} also sits at {_table_name(*at)} in this round")
            before = played.setdefault((number, r.board), r)
            repeated = before is not r and key != (before.room, before.board, before.table, before.round)
            if repeated and not (_annuls(r, number) or _annuls(before, number)):  # §11.6 B: one is annulled
                problems.add(rloc, f"participant {number} already played this board ({_where(before)})")


def check_fits_movement(
    results: list[BundleResult], places: frozenset[tuple[int, int, int]], problems: Problems, loc: Loc
) -> None:
    """Every row's table exists in the session's movement in that round, in that room (formats.md §2)."""
    rooms = {room for room, _table, _round in places}
    for r in results:
        if (r.room, r.table, r.round) in places:
            continue
        rloc = loc.at(board=r.board, table=r.table, round=r.round, room=r.room)
        if r.room not in rooms:
            count = max(rooms, default=1)
            problems.add(
                rloc,
                f"room {r.room} is not in the movement — it has {count} room{'s' if count > 1 else ''}",
            )
        else:
            problems.add(rloc, f"the movement seats no {_table_name(r.room, r.table)} in round {r.round}")


def _annuls(r: BundleResult, number: int) -> bool:
    return any(r.seats.get(seat) == number for seat in r.annulled)


def _table_name(room: int, table: int) -> str:
    return f"table {table}" if room == 1 else f"room {room}, table {table}"


def _where(r: BundleResult) -> str:
    return f"{_table_name(r.room, r.table)}, round {r.round}"
