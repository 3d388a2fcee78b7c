"""From a movement to the session's rounds, seatings, tables (with their codes) and boards."""

from __future__ import annotations

import datetime as dt
import random
import secrets
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from boards.models import Board, BoardSet
from preferans.movements import Movement, MovementError, build_movement, dealer_of_board, movement_to_dict
from scoring.models import Result
from tournaments.audit import log_action
from tournaments.errors import UserError
from tournaments.models import Participant, Room, Round, Seating, Session, Table
from tournaments.services.movement_errors import movement_refusal

# No 0/O, 1/I/L: codes are read aloud and typed on phones.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


class SeatingError(UserError):
    """The movement cannot be used for this session; the message is in the director's language (the core's
    ``MovementError``, when the movement itself could not be built, is its ``__cause__``)."""

    code = "movement_invalid"


def new_table_code(rng: random.Random | None = None) -> str:
    rng = rng or secrets.SystemRandom()
    return "".join(rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def movement_for(session: Session, spec: Mapping[str, Any]) -> Movement:
    tournament = session.tournament
    try:
        return build_movement(
            spec, per_table=tournament.players_per_table, deals_per_set=tournament.deals_per_set
        )
    except MovementError as exc:
        refusal = movement_refusal(exc)
        raise SeatingError(refusal.message, code=refusal.code) from exc


@transaction.atomic
def apply_movement(
    *, now: dt.datetime,
    session: Session,
    movement: Movement,
    spec: Mapping[str, Any] | None = None,
    user: Any = None,
    rng: random.Random | None = None,
    keep_results: bool = False,
) -> None:
    """Store the movement: rounds, seatings per round and table, a code per table, and the boards.

    Refused once results exist (changing the movement under played boards would orphan them), unless
    ``keep_results`` (an import, whose results were played under this very movement).
    """
    tournament = session.tournament
    if not keep_results and Result.objects.filter(session=session).exists():
        raise SeatingError(
            gettext("This session already has results: its movement can no longer be changed."),
            code="movement_has_results",
            status=409,
        )
    if movement.per_table != tournament.players_per_table:
        raise SeatingError(
            gettext("The movement is for tables of %(movement)s players, the tournament for tables of %(tournament)s.")
            % {"movement": movement.per_table, "tournament": tournament.players_per_table},
            code="movement_per_table",
        )
    numbers = set(tournament.participants.values_list("number", flat=True))
    needed = set(range(1, movement.participants + 1))
    missing = sorted(needed - numbers)
    if missing:
        shown = ", ".join(map(str, missing[:10])) + ("…" if len(missing) > 10 else "")
        raise SeatingError(
            gettext("The movement seats participants 1–%(n)s; these numbers are not registered: %(numbers)s.")
            % {"n": movement.participants, "numbers": shown},
            code="movement_unregistered",
        )
    by_number = {p.number: p for p in Participant.objects.filter(tournament=tournament, number__in=needed)}
    Seating.objects.filter(session=session).delete()
    Round.objects.filter(session=session).delete()
    Seating.objects.bulk_create(
        Seating(
            session=session,
            room=ta.room,
            round_number=rnd.number,
            table_number=ta.table,
            set_number=ta.set,
            **{f"seat_{line.value.lower()}": by_number[p] for line, p in ta.seats},
        )
        for rnd, ta in movement.seatings()
    )
    Round.objects.bulk_create(Round(session=session, number=rnd.number) for rnd in movement.rounds)
    wanted_tables = {(ta.room, ta.table) for _, ta in movement.seatings()}
    have = set(Table.objects.filter(session=session).values_list("room", "number"))
    Table.objects.filter(session=session).exclude(
        pk__in=[t.pk for t in Table.objects.filter(session=session) if (t.room, t.number) in wanted_tables]
    ).delete()
    rng = rng or secrets.SystemRandom()
    for room, number in sorted(wanted_tables - have):
        for _ in range(20):
            code = new_table_code(rng)
            if not Table.objects.filter(code=code).exists():
                break
        Table.objects.create(session=session, room=room, number=number, code=code)
    Room.objects.filter(session=session, number__gt=movement.rooms).delete()
    have_rooms = set(Room.objects.filter(session=session).values_list("number", flat=True))
    Room.objects.bulk_create(
        Room(session=session, number=r) for r in range(1, movement.rooms + 1) if r not in have_rooms
    )
    if not keep_results:  # a changed movement: boards and sets it does not use go
        Board.objects.filter(session=session, number__gt=movement.sets * movement.deals).delete()
        BoardSet.objects.filter(session=session, number__gt=movement.sets).delete()
    have_sets = set(BoardSet.objects.filter(session=session).values_list("number", flat=True))
    BoardSet.objects.bulk_create(
        BoardSet(session=session, number=s) for s in range(1, movement.sets + 1) if s not in have_sets
    )
    existing_boards = set(Board.objects.filter(session=session).values_list("number", flat=True))
    Board.objects.bulk_create(
        Board(
            session=session,
            number=b,
            set_number=s,
            dealer=dealer_of_board(b, movement.per_table, movement.deals_per_set).value,
        )
        for s in range(1, movement.sets + 1)
        for b in movement.boards_of_set(s)
        if b not in existing_boards
    )
    # The bundle keeps the director's short form (basic/book) or the whole movement as an explicit one.
    session.movement = (
        dict(spec) if spec is not None else {**movement_to_dict(movement), "scheme": "explicit"}
    )
    session.save(update_fields=["movement"])
    log_action(
        tournament=tournament,
        action="session.movement",
        user=user,
        obj=session,
        data={
            "session": session.number,
            "movement": session.movement if spec is not None else movement.scheme,
        }, at=now,
    )
