"""The facts of an event, either form (the ground every other app builds on).

* :mod:`.event` — the tournament and its participants;
* :mod:`.play` — sessions, rooms, rounds, tables and seatings;
* :mod:`.records` — the audit trail, sanctions, counted failed tries.
"""

from tournaments.models.event import (
    Confirmation,
    Form,
    Participant,
    Publication,
    Tournament,
    TournamentStatus,
    UnequalResults,
    Variant,
    default_artificial,
)
from tournaments.models.play import Room, Round, Seating, Session, Table
from tournaments.models.records import AuditEntry, Sanction, Strike

__all__ = [
    "AuditEntry",
    "Confirmation",
    "Form",
    "Participant",
    "Publication",
    "Room",
    "Round",
    "Sanction",
    "Seating",
    "Session",
    "Strike",
    "Table",
    "Tournament",
    "TournamentStatus",
    "UnequalResults",
    "Variant",
    "default_artificial",
]
