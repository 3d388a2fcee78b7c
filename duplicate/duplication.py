"""§2 «Если сдача подготовлена лишь на бумаге, то в первом туре игроки распределяют карты в соответствии с
предложенным ОТ раскладом и сами ее же не играют»: in a round, a table may only duplicate its set's boards for the
other tables (or rooms) without playing them. The director sets it per table and round (the movement's seating);
no row is expected from that table in that round (``duplicate.gaps``, the dashboard) and a row there is refused
(``scoring.row_checks.check_plays_boards``).

The software's choices: the setting is the director's, table by table and round by round, and only while the round
has not ended and the table has no row in it; the duplicating players' own scores simply have no row on those
boards (they are compared on the boards they play).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.models import Result
from tournaments.audit import log_action
from tournaments.errors import UserError
from tournaments.models import Round, Seating, Session


@transaction.atomic
def set_duplicating(
    *, session: Session, round: int, table: int, room: int = 1, on: bool, user: Any, now: dt.datetime
) -> Seating:
    """The table at ``table`` in ``round`` only duplicates its boards (``on``) or plays them again; audited."""
    tournament = session.tournament
    tournament.ensure_scores_open()
    seating = (
        Seating.objects.select_for_update()
        .filter(session=session, round_number=round, table_number=table, room=room)
        .first()
    )
    if seating is None:
        raise UserError(
            _("Nobody is seated at table %(t)s in round %(r)s.") % {"t": table, "r": round},
            code="seating_missing",
            status=404,
        )
    if seating.duplicates_only == on:
        return seating
    rnd = Round.objects.filter(session=session, number=round).first()
    if rnd is not None and rnd.status == Round.Status.ENDED:
        raise UserError(
            _("Round %(r)s has ended: whether a table played its boards can no longer be changed.")
            % {"r": round},
            code="round_ended",
            status=409,
        )
    if (
        on
        and Result.objects.filter(session=session, round_number=round, table_number=table, room=room).exists()
    ):
        raise UserError(
            _("Table %(t)s already has results in round %(r)s: it plays its boards.")
            % {"t": table, "r": round},
            code="table_has_rows",
            status=409,
        )
    seating.duplicates_only = on
    seating.save(update_fields=["duplicates_only"])
    log_action(
        tournament=tournament,
        action="round.duplication",
        user=user,
        obj=seating,
        at=now,
        data={"session": session.number, "round": round, "table": table, "room": room, "duplicates_only": on},
    )
    return seating


def duplicating_places(session: Session) -> set[tuple[int, int, int]]:
    """(round, room, table) of every table that only duplicates its boards in that round."""
    return set(
        Seating.objects.filter(session=session, duplicates_only=True).values_list(
            "round_number", "room", "table_number"
        )
    )
