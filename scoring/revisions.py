"""No lost update: a correction carries the revision of the row it read, and a stale one is refused.

Every change through the write path (:func:`scoring.rows.result_save`) adds one to ``Result.revision``. Two
directors (or a director and the player at N, or two phones) who read revision 3 and both correct the row: the
first is stored as revision 4, the second is refused with :class:`RowChanged`, which says who changed the row
and when (from the audit trail) — nothing is overwritten, and the channel shows the row as it now is.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.models import Result
from tournaments.errors import Conflict, Detail
from tournaments.models import AuditEntry, Session
from tournaments.numbers import whole_number

# The audit actions of the write path that change a row's facts (each one is a new revision, or the row's end).
ROW_CHANGES = ("result.create", "result.update", "result.delete")


def last_change(session: Session, *, board: int, table: int, round: int) -> AuditEntry | None:
    """The latest audit entry that created, changed or deleted this row (who and when)."""
    return (
        AuditEntry.objects.filter(
            tournament_id=session.tournament_id,
            action__in=ROW_CHANGES,
            object_repr=f"board {board}, table {table}, round {round}",
            data__session=session.number,
        )
        .select_related("user")
        .order_by("-at", "-id")
        .first()
    )


def _who(entry: AuditEntry | None) -> str:
    if entry is None:
        return ""
    if entry.user is not None:
        return entry.user.get_full_name() or entry.user.get_username()
    # A player at a table is stored as «3 Ivanov · 1/S» (duplicate.at_table.actor_name): his number and name.
    return entry.actor.split(" · ")[0]


class RowChanged(Conflict):
    """The row was changed (or deleted) after the correction's author read it: nothing was stored (409).

    ``current`` is the row as it now is (``None``: deleted), ``revision`` its revision (0 when deleted)."""

    code = "row_changed"

    def __init__(self, current: Result | None, *, who: str, at: dt.datetime | None) -> None:
        self.current = current
        self.revision = current.revision if current is not None else 0
        when = timezone.localtime(at).strftime("%H:%M") if at is not None else ""
        params = {"who": who, "time": when}
        if current is None:
            text = (
                _(
                    "%(who)s deleted this row at %(time)s while you were correcting it: check the board and enter it "
                    "again if needed."
                )
                if who and when
                else _(
                    "This row was deleted while you were correcting it: check the board and enter it again "
                    "if needed."
                )
            )
        elif who and when:
            text = _(
                "%(who)s changed this row at %(time)s while you were correcting it: check it and save again."
            )
        else:
            text = _("This row was changed while you were correcting it: check it and save again.")
        super().__init__(text % params, details=[Detail("revision", "row_changed", str(self.revision))])


def check_revision(
    current: Result | None, expected: int | None, *, session: Session, board: int, table: int, round: int
) -> None:
    """Refuse a correction made on a stale read: ``expected`` is the revision its author read (``None``: the
    caller does not check, e.g. a new row). Raises :class:`RowChanged`."""
    if expected is None or (current is not None and current.revision == expected):
        return
    entry = last_change(session, board=board, table=table, round=round)
    raise RowChanged(current, who=_who(entry), at=entry.at if entry is not None else None)


def parse_revision(value: Any) -> int | None:
    """A revision as a form or a request sends it («3», 3, «"3"» from an If-Match header); ``None`` if absent or
    not a revision (then nothing matches and the correction is refused as stale only if one was required)."""
    text = str(value).strip().removeprefix("W/").strip('"') if value not in (None, "") else ""
    return whole_number(text, digits=9)
