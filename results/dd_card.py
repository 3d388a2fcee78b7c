"""The personal card's "tricks taken / possible" (issue 19, docs/double-dummy.md): for each row a participant
played as declarer or whister, what his side took against what best play by everybody gives
(``preferans.dd.checks.tricks_line``), from the board's stored double-dummy analysis. The card shows a line
only where it shows the row's result (the board's results are public: every table has played it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boards.analysis import stored_analysis
from boards.models import Board
from preferans.dd.checks import TricksLine, tricks_line
from preferans.game import RowInvalid, parse_row
from results.derived import ScoreCard
from scoring.models import Result
from tournaments.models import Tournament

Key = tuple[int, int, int, int, int]  # session, board, round, table, room


def card_lines(tournament: Tournament, card: ScoreCard) -> dict[Key, TricksLine]:
    """The line of each of the card's rows that has one, by (session, board, round, table, room)."""
    wanted: dict[Key, str] = {
        (c.session, c.board, c.round, c.table, c.room): c.seat for s in card.sessions for c in s.rows
    }
    boards_wanted = {(k[0], k[1]) for k in wanted}
    if not wanted:
        return {}
    analyses: dict[tuple[int, int], Mapping[str, Mapping[str, Any]]] = {}
    boards = Board.objects.filter(session__tournament=tournament, analysis__isnull=False).select_related(
        "analysis", "session__tournament"
    )
    for board in boards:
        key = (board.session.number, board.number)
        if key in boards_wanted and (seats := stored_analysis(board)) is not None:
            analyses[key] = seats
    if not analyses:
        return {}
    lines: dict[Key, TricksLine] = {}
    results = Result.objects.filter(
        session__tournament=tournament, board_number__in={b for _s, b in analyses}, version="A"
    ).select_related("session")
    for result in results:
        key = (
            result.session.number,
            result.board_number,
            result.round_number,
            result.table_number,
            result.room,
        )
        seats = analyses.get(key[:2])
        if key not in wanted or seats is None or not result.row or result.adjusted or result.assigned:
            continue
        try:
            deal, _table = parse_row(
                result.row,
                rules=tournament.rules,
                players=tournament.players_per_table,
                dealer=result.dealer or None,
            )
        except RowInvalid:
            continue
        line = tricks_line(deal, wanted[key], seats)
        if line is not None:
            lines[key] = line
    return lines
