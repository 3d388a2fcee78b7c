"""The «where» of a matter: a board of a duplicate session or a deal of a pulka table; who sat there, and when
the next deal there is known to have started (§1: the notice comes before it)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from appeals.models import Appeal
from appeals.services._errors import AppealsError
from pulkas.models import PulkaDeal, PulkaRound, PulkaTable
from scoring.models import Result
from tournaments.errors import UserError
from tournaments.models import Round, Seating, Session, Tournament


@dataclass(frozen=True)
class Place:
    """Where a matter happened, as its model stores it, and who sat there (seat → participant number).

    ``fields``: at a duplicate event ``session``, ``round_number``, ``table_number``, ``board_number``; at a pulka
    event ``pulka_table``, ``deal_number``, ``round_number``, ``table_number``. ``audit``: the same in the audit
    trail's words."""

    fields: dict[str, Any]
    seats: dict[str, int]
    audit: dict[str, Any] = field(default_factory=dict)

    @property
    def table(self) -> int:
        return int(self.fields["table_number"])

    @property
    def deal_key(self) -> dict[str, Any]:
        """The fields that name the deal (a recorded notice is found by them)."""
        return {k: v for k, v in self.fields.items() if k != "table_number"}


def guard_open(tournament: Tournament) -> None:
    """Nothing new is filed, recorded or changed at a locked event (the tournament's own rule,
    :meth:`~tournaments.models.Tournament.ensure_not_locked`, as an appeals error): an appeal, a ruling or a
    correction filed there could never be applied, and the committee's record is closed with it."""
    try:
        tournament.ensure_not_locked()
    except UserError as exc:
        raise AppealsError(exc.message, code=exc.code) from exc


def guard_form(tournament: Tournament, *, pulka: bool) -> None:
    """The event is open (:func:`guard_open`) and the «where» is the tournament's own: a pulka deal at an event
    played in pulkas, a board of a session at a duplicate event."""
    guard_open(tournament)
    if pulka and not tournament.plays_pulkas:
        raise AppealsError(
            _("This event is played in sessions: name the session, round, table and board."),
            code="where_form",
        )
    if not pulka and tournament.plays_pulkas:
        raise AppealsError(
            _("This event is played in pulkas: name the round, the table and the deal."), code="where_form"
        )


def pulka_next_deal_started_at(*, table: PulkaTable, deal: int) -> dt.datetime | None:
    """The earliest moment the next deal at a pulka table is known to have started (§1 notice deadline): the next
    deal written on its sheet, or the next round started."""
    moments: list[dt.datetime] = []
    later = PulkaDeal.objects.filter(table=table, number__gt=deal).order_by("number").first()
    if later is not None:
        moments.append(later.created_at)
    round_number = table.round.number
    nxt = (
        PulkaRound.objects.filter(tournament_id=table.round.tournament_id, number=round_number + 1)
        .values_list("started_at", flat=True)
        .first()
    )
    if nxt is not None:
        moments.append(nxt)
    return min(moments) if moments else None


def next_deal_of(matter: Appeal) -> dt.datetime | None:
    """When the deal after the appeal's deal is known to have started, at either kind of event."""
    if matter.pulka_table is not None and matter.deal_number is not None:
        return pulka_next_deal_started_at(table=matter.pulka_table, deal=matter.deal_number)
    assert matter.session is not None and matter.board_number is not None
    return next_deal_started_at(
        session=matter.session,
        board=matter.board_number,
        round=matter.round_number,
        table=matter.table_number,
        room=matter.room,
    )


def rejection_text(exc: UserError) -> str:
    """A write path's refusal in one line: every reason it gave."""
    return "; ".join(d.message for d in exc.details) or exc.message


def deal_seats(
    *, session: Session, board: int | None, round: int, table: int, room: int = 1
) -> dict[str, int]:
    """Who sat where at the deal: from the protocol row if entered, else from the seating."""
    if board is not None:
        result = (
            Result.objects.filter(
                session=session, room=room, board_number=board, round_number=round, table_number=table
            )
            .select_related("seat_n", "seat_e", "seat_s", "seat_w")
            .first()
        )
        if result is not None:
            return result.seats()
    seating = (
        Seating.objects.filter(session=session, room=room, round_number=round, table_number=table)
        .select_related("seat_n", "seat_e", "seat_s", "seat_w")
        .first()
    )
    if seating is None:
        return {}
    return {seat: p.number for seat, p in seating.seats().items()}


def next_deal_started_at(
    *, session: Session, board: int, round: int, table: int, room: int = 1
) -> dt.datetime | None:
    """The earliest moment the next deal at that table is known to have started (§1 notice deadline): a later
    board of the round entered at that table, or the next round started."""
    moments: list[dt.datetime] = []
    later = (
        Result.objects.filter(
            session=session, room=room, round_number=round, table_number=table, board_number__gt=board
        )
        .order_by("created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    if later is not None:
        moments.append(later)
    nxt = Round.objects.filter(session=session, number=round + 1).values_list("started_at", flat=True).first()
    if nxt is not None:
        moments.append(nxt)
    return min(moments) if moments else None
