"""Suspicious rows for the director (issue 19, docs/double-dummy.md): the session's played rows that their
board's stored double-dummy analysis contradicts (``preferans.dd.checks``). For the director's dashboard only —
never for a player's page (a finding tells who holds which cards while the board is still in play)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from boards.analysis import stored_analysis
from boards.models import Board
from preferans.dd.checks import Finding, row_findings
from preferans.game import RowInvalid, parse_row
from scoring.models import Result
from tournaments.models import Session


@dataclass(frozen=True)
class RowFlag:
    """One finding of one row, with where the row was played."""

    result_id: int
    board: int
    round: int
    table: int
    room: int
    contract: str
    finding: Finding


def row_flags(
    result: Result, seats: Mapping[str, Mapping[str, Any]], *, rules: Any, players: int
) -> list[RowFlag]:
    """The findings of one stored row against ``seats``; none for a row that is not a valid played row, or that
    was played in another version of a fouled board (its layout is not the analysed one)."""
    if result.version != "A" or result.adjusted is not None or result.assigned is not None or not result.row:
        return []
    try:
        deal, _table = parse_row(result.row, rules=rules, players=players, dealer=result.dealer or None)
    except RowInvalid:
        return []
    return [
        RowFlag(
            result.pk,
            result.board_number,
            result.round_number,
            result.table_number,
            result.room,
            str(result.row.get("contract", "")),
            finding,
        )
        for finding in row_findings(deal, seats)
    ]


def session_flags(session: Session) -> list[RowFlag]:
    """Every finding of the session's rows whose board has an analysis of its current layout, by board, round
    and table."""
    tournament = session.tournament
    boards = {
        b.number: b
        for b in Board.objects.filter(session=session, analysis__isnull=False).select_related(
            "analysis", "session__tournament"
        )
    }
    if not boards:
        return []
    analyses: dict[int, Mapping[str, Mapping[str, Any]]] = {}
    for number, board in boards.items():
        seats = stored_analysis(board)
        if seats is not None:
            analyses[number] = seats
    flags: list[RowFlag] = []
    results = Result.objects.filter(session=session, board_number__in=list(analyses))
    for result in results.order_by("board_number", "round_number", "room", "table_number"):
        flags.extend(
            row_flags(
                result,
                analyses[result.board_number],
                rules=tournament.rules,
                players=tournament.players_per_table,
            )
        )
    return flags
