"""Where a participant plays now, either form: the table his own link opens (``tournaments.personal_links``)
and his PIN slip names.

* A pulka event (Olympic, compensation, Swiss): his table in the latest drawn round, whatever its state (drawn,
  running or ended: the sheet of his last table stays his until the next draw). In that round he may have a bye,
  or no table at all (an Olympic player who went out, a Swiss player below the cut).
* A duplicate event: his table in the current round of the sessions' rounds in order — the running round, else
  the next one to start, else the last one played (as the director's pages pick the round). In that round he may
  sit out (a movement with rests) or not be seated.
* Nothing yet: no round drawn (pulka), no movement accepted (duplicate).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final, Literal

from django.db.models import Q

from pulkas.models import PulkaBye, PulkaRound, PulkaTable
from tournaments.models import Participant, Round, Seating, Table

__all__ = ["CurrentTable", "current_table"]

Why = Literal["table", "not_drawn", "bye", "no_table"]
SEAT_FIELDS: Final = ("seat_n", "seat_e", "seat_s", "seat_w")


@dataclass(frozen=True)
class CurrentTable:
    """The participant's table now (``code`` set, ``why == "table"``) or why he has none.

    ``pulka``: the event plays pulkas (its tables open at ``/pulka/<code>/``, a duplicate table's at
    ``/table/<code>/``). ``round`` is the round it is about (None: nothing drawn yet); ``session`` the duplicate
    session; ``room``/``table``/``seat`` where he sits."""

    pulka: bool
    why: Why
    round: int | None = None
    session: int | None = None
    room: int = 1
    table: int | None = None
    seat: str | None = None
    code: str = ""
    round_status: str = ""  # pending | running | ended (either form's round statuses)


def _seated(participant: Participant) -> Q:
    return Q(seat_n=participant) | Q(seat_e=participant) | Q(seat_s=participant) | Q(seat_w=participant)


def _seat_of(seats: dict[str, object], participant: Participant) -> str:
    return next(seat for seat, p in seats.items() if getattr(p, "pk", None) == participant.pk)


def current_table(participant: Participant) -> CurrentTable:
    """Where ``participant`` plays now (see the module's description)."""
    if participant.tournament.plays_pulkas:
        return _pulka(participant)
    return _duplicate(participant)


def _pulka(participant: Participant) -> CurrentTable:
    latest = PulkaRound.objects.filter(tournament_id=participant.tournament_id).order_by("-number").first()
    if latest is None:
        return CurrentTable(pulka=True, why="not_drawn")
    none = CurrentTable(pulka=True, why="no_table", round=latest.number, round_status=latest.status)
    table = PulkaTable.objects.filter(_seated(participant), round=latest).first()
    if table is not None:
        seat = _seat_of(table.seats(), participant)
        return replace(none, why="table", table=table.number, seat=seat, code=table.code)
    if PulkaBye.objects.filter(round=latest, participant=participant).exists():
        return replace(none, why="bye")
    return none


def _duplicate_round(participant: Participant) -> Round | None:
    """The running round, else the next to start, else the last played (sessions and rounds in order)."""
    rounds = list(
        Round.objects.filter(session__tournament_id=participant.tournament_id)
        .select_related("session")
        .order_by("session__number", "number")
    )
    running = [r for r in rounds if r.status == Round.Status.RUNNING]
    if running:
        return running[-1]
    pending = [r for r in rounds if r.status == Round.Status.PENDING]
    if pending:
        return pending[0]
    return rounds[-1] if rounds else None


def _duplicate(participant: Participant) -> CurrentTable:
    rnd = _duplicate_round(participant)
    if rnd is None:
        return CurrentTable(pulka=False, why="not_drawn")
    none = CurrentTable(
        pulka=False, why="no_table", round=rnd.number, session=rnd.session.number, round_status=rnd.status
    )
    seating = (
        Seating.objects.filter(_seated(participant), session=rnd.session, round_number=rnd.number)
        .select_related(*SEAT_FIELDS)
        .first()
    )
    table = (
        Table.objects.filter(session=rnd.session, room=seating.room, number=seating.table_number).first()
        if seating is not None
        else None
    )
    if seating is None or table is None:
        return none
    seat = _seat_of(dict(seating.seats()), participant)
    return replace(
        none, why="table", room=seating.room, table=seating.table_number, seat=seat, code=table.code
    )
