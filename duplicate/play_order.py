"""§4 «Сдачи разыгрываются строго в порядке их номеров»: the rows the players wrote out of the boards' order, for
the director's dashboard. Flagged, never refused (the core's :mod:`preferans.duplicate.play_order` says which).

The software's choice: only the rows a player wrote count (a row entered or corrected by the director is typed from
a paper protocol in whatever order it reaches him, and says nothing of the order of play), and the order of
writing stands for the order of play (the software does not see the play).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from duplicate.session_facts import SessionFacts
from preferans.duplicate.play_order import out_of_order
from scoring.models import Result
from tournaments.models import Session


@dataclass(frozen=True)
class OrderFlag:
    round: int
    room: int
    table: int
    board: int
    skipped: tuple[int, ...]


def order_flags(session: Session, facts: SessionFacts | None = None) -> list[OrderFlag]:
    """Every row of the session a player wrote before a lower-numbered board of the table's set had a row."""
    facts = facts or SessionFacts(session)
    written: dict[tuple[int, int, int], dict[int, int]] = defaultdict(dict)
    by_player: dict[tuple[int, int, int], set[int]] = defaultdict(set)
    for r in facts.rows:
        written[(r.round, r.room, r.table)][r.board] = r.position
        if r.status != Result.Status.DIRECTOR:
            by_player[(r.round, r.room, r.table)].add(r.board)
    out: list[OrderFlag] = []
    for s in facts.seatings:
        if s.duplicates_only:
            continue
        place = (s.round_number, s.room, s.table_number)
        for flag in out_of_order(facts.boards_of.get(s.set_number, []), written.get(place, {})):
            if flag.board in by_player[place]:
                out.append(OrderFlag(s.round_number, s.room, s.table_number, flag.board, flag.skipped))
    return out
