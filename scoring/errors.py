"""Why a result, adjustment or penalty was refused: errors a user can fix, translated where they are raised.

The core explains a refused row in English with a stable ``code`` and ``params``; :class:`ResultRejected` turns
each reason into a :class:`~tournaments.errors.Detail` in the active language (:mod:`scoring.refusals`), so the
director's page, the table page and the API all show the same words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from tournaments.errors import Conflict, Detail, UserError

if TYPE_CHECKING:
    from scoring.models import Result


@dataclass(frozen=True)
class Refusal:
    """One reason a row was refused: a stable code, the field at fault, English text and its parameters."""

    code: str
    field: str
    message: str
    params: Mapping[str, object]


class ResultRejected(UserError):
    """The row breaks a rule; nothing was stored. ``refusals`` says which rules; ``details`` says it in words a
    player understands (in the active language)."""

    code = "row_invalid"

    def __init__(self, refusals: Iterable[Refusal]) -> None:
        from scoring.refusals import refusal_message

        self.refusals = tuple(refusals)
        details = [Detail(r.field, r.code, refusal_message(r)) for r in self.refusals]
        message = _("The row is not accepted.") if len(details) != 1 else details[0].message
        super().__init__(message, details=details)

    @classmethod
    def one(cls, code: str, field: str, message: str, **params: object) -> ResultRejected:
        """A refusal for one reason (``message`` is the English text, translated by its ``code``)."""
        return cls([Refusal(code, field, message, params)])


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
