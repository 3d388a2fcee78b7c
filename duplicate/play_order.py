"""§4 «Сдачи разыгрываются строго в порядке их номеров»: the rows the players wrote out of the boards' order, for
the director's dashboard. Flagged, never refused (the core's :mod:`preferans.duplicate.play_order` says which).

The software's choice: only the rows a player wrote count (a row entered or corrected by the director is typed from
a paper protocol in whatever order it reaches him, and says nothing of the order of play), and the order of
writing stands for the order of play (the software does not see the play).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from boards.models import Board
from preferans.duplicate.play_order import out_of_order
from scoring.models import Result
from tournaments.models import Seating, Session


@dataclass(frozen=True)
class OrderFlag:
    round: int
    room: int
    table: int
    board: int
    skipped: tuple[int, ...]


def order_flags(session: Session) -> list[OrderFlag]:
    """Every row of the session a player wrote before a lower-numbered board of the table's set had a row."""
    boards_of: dict[int, list[int]] = defaultdict(list)
    for number, set_number in Board.objects.filter(session=session).values_list("number", "set_number"):
        boards_of[set_number].append(number)
    written: dict[tuple[int, int, int], dict[int, int]] = defaultdict(dict)
    by_player: dict[tuple[int, int, int], set[int]] = defaultdict(set)
    for rnd, room, table, board, position, status in Result.objects.filter(session=session).values_list(
        "round_number", "room", "table_number", "board_number", "position", "status"
    ):
        written[(rnd, room, table)][board] = position
        if status != Result.Status.DIRECTOR:
            by_player[(rnd, room, table)].add(board)
    out: list[OrderFlag] = []
    seatings = Seating.objects.filter(session=session, duplicates_only=False).order_by(
        "round_number", "room", "table_number"
    )
    for rnd, room, table, set_number in seatings.values_list(
        "round_number", "room", "table_number", "set_number"
    ):
        place = (rnd, room, table)
        for flag in out_of_order(boards_of.get(set_number, []), written.get(place, {})):
            if flag.board in by_player[place]:
                out.append(OrderFlag(rnd, room, table, flag.board, flag.skipped))
    return out
