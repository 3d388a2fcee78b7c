"""A duplicate row that clashes with the stored state: entered meanwhile by another device, or closed to players.

A row refused by the rules (either form) is :class:`tournaments.refusals.ResultRejected`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from tournaments.errors import Conflict, Detail

if TYPE_CHECKING:
    from scoring.models import Result


class ResultConflict(Conflict):
    """A row for this board, table and round already exists (another device got there first)."""

    def __init__(self, existing: Result) -> None:
        self.existing = existing
        if existing.room != 1:  # several rooms (rules §2): table 1 of room 2 is not table 1 of room 1
            text = _(
                "Board %(board)s at table %(table)s of room %(room)s in round %(round)s has already been "
                "entered (another device was first)."
            )
        else:
            text = _(
                "Board %(board)s at table %(table)s in round %(round)s has already been entered (another "
                "device was first)."
            )
        super().__init__(
            text
            % {
                "board": existing.board_number,
                "table": existing.table_number,
                "round": existing.round_number,
                "room": existing.room,
            },
            code="conflict",
            details=[Detail("board", "already_entered", str(existing.pk))],
        )


class ResultLocked(Conflict):
    """The row is confirmed, disputed or the director's: players can no longer change or confirm it."""

    def __init__(self, result: Result) -> None:
        self.result = result
        super().__init__(
            _("This row is %(status)s: only the director can change it now.")
            % {"status": result.get_status_display()},
            code="locked",
        )
