"""What a session's pages ask again and again, read once per request: the boards of each set, every row's place and
state, the seatings with their players, the boards to play later. The dashboard's sections (tables, gaps, missing
rows, late boards, rows out of order) each derive their answer from one :class:`SessionFacts`, so the page costs a
fixed number of queries whatever the number of tables, rounds or rows.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property

from boards.models import Board
from scoring.models import LateBoard, Result
from tournaments.models import Seating, Session


@dataclass(frozen=True)
class RowFact:
    round: int
    room: int
    table: int
    board: int
    position: int | None
    status: str

    @property
    def place(self) -> tuple[int, int, int, int]:
        return (self.round, self.room, self.table, self.board)


class SessionFacts:
    def __init__(self, session: Session) -> None:
        self.session = session

    @cached_property
    def boards_of(self) -> dict[int, list[int]]:
        """Set number → its board numbers, ascending."""
        out: dict[int, list[int]] = defaultdict(list)
        for number, set_number in (
            Board.objects.filter(session=self.session).order_by("number").values_list("number", "set_number")
        ):
            out[set_number].append(number)
        return out

    @cached_property
    def rows(self) -> list[RowFact]:
        return [
            RowFact(*values)
            for values in Result.objects.filter(session=self.session).values_list(
                "round_number", "room", "table_number", "board_number", "position", "status"
            )
        ]

    @cached_property
    def row_places(self) -> set[tuple[int, int, int, int]]:
        return {r.place for r in self.rows}

    @cached_property
    def seatings(self) -> list[Seating]:
        """Every seating of the session with its players, by round, room and table."""
        return list(
            Seating.objects.filter(session=self.session)
            .select_related("seat_n", "seat_e", "seat_s", "seat_w")
            .order_by("round_number", "room", "table_number")
        )

    @cached_property
    def late(self) -> list[LateBoard]:
        return list(LateBoard.objects.filter(session=self.session))
