"""From a movement to the session's rounds, seatings, tables (with their codes) and boards."""

from __future__ import annotations

import datetime as dt
import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from boards.models import Board, BoardSet
from duplicate.movement_errors import movement_refusal
from preferans.movements import Movement, MovementError, build_movement, dealer_of_board, movement_to_dict
from preferans.movements.draw import SEED_LIMIT, draw_starting_numbers
from scoring.models import Result
from tournaments.audit import log_action
from tournaments.errors import UserError
from tournaments.models import AuditEntry, Form, Participant, Room, Round, Seating, Session, Table, Tournament
from tournaments.table_codes import unused_table_code

# No 0/O, 1/I/L: codes are read aloud and typed on phones.


class SeatingError(UserError):
    """The movement cannot be used for this session; the message is in the director's language (the core's
    ``MovementError``, when the movement itself could not be built, is its ``__cause__``)."""

    code = "movement_invalid"


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
    *,
    now: dt.datetime,
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
            gettext(
                "The movement is for tables of %(movement)s players, the tournament for tables of %(tournament)s."
            )
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
        code = unused_table_code(rng)  # no table of either form has it
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
        },
        at=now,
    )


# -- the random draw of the initial seating (seed 004, general provisions) --------------------------------------
DRAW_ACTION = "participants.draw"


@dataclass(frozen=True)
class DrawnNumber:
    participant: str
    old: int
    new: int


@dataclass(frozen=True)
class Draw:
    """A recorded draw: its seed, who drew it and when, and every participant's old and new starting number."""

    seed: int
    at: dt.datetime
    actor: str
    numbers: tuple[DrawnNumber, ...]

    @property
    def reproduced(self) -> bool:
        """The seed, applied to the numbers before the draw, gives exactly the recorded draw."""
        return draw_starting_numbers((n.old for n in self.numbers), self.seed) == {
            n.old: n.new for n in self.numbers
        }


@transaction.atomic
def draw_initial_seating(
    *, tournament: Tournament, user: Any, now: dt.datetime, seed: int | None = None
) -> Draw:
    """Draw the starting numbers at random (the movement seats by number, so this draws the initial seating).

    Refused once any result exists (the seating of played boards stays) and for pulka events (they draw their
    own tables each round). Sessions that already have a movement are seated again with the new numbers; table
    codes and PINs stay. The seed is recorded in the audit trail with every old and new number.
    """
    tournament.ensure_not_locked()
    if tournament.form != Form.DUPLICATE:
        raise UserError(
            gettext(
                "Starting numbers are drawn for duplicate events; pulka events draw their tables each round."
            ),
            code="draw_not_duplicate",
        )
    if Result.objects.filter(session__tournament=tournament).exists():
        raise UserError(
            gettext("Results have been entered: the starting numbers can no longer be drawn."),
            code="draw_has_results",
            status=409,
        )
    people = list(Participant.objects.select_for_update().filter(tournament=tournament).order_by("number"))
    if len(people) < 2:
        raise UserError(
            gettext("Register the participants first: a draw needs at least two."), code="draw_too_few"
        )
    if seed is None:
        seed = secrets.randbelow(SEED_LIMIT)
    elif not 0 <= seed < SEED_LIMIT:
        raise UserError(
            gettext("A draw seed is a whole number from 0 to %(limit)s.") % {"limit": SEED_LIMIT - 1},
            code="draw_seed",
        )
    drawn = draw_starting_numbers((p.number for p in people), seed)
    shift = max(drawn) + 1  # two steps, so that no number is ever held twice (one number per participant)
    for p in people:
        p.number += shift
    Participant.objects.bulk_update(people, ["number"])
    numbers = []
    for p in people:
        old = p.number - shift
        p.number = drawn[old]
        numbers.append(DrawnNumber(str(p.name or ""), old, p.number))
    Participant.objects.bulk_update(people, ["number"])
    for session in tournament.sessions.exclude(movement=None).order_by("number"):
        spec = session.movement
        apply_movement(session=session, movement=movement_for(session, spec), spec=spec, user=user, now=now)
    entry = log_action(
        tournament=tournament,
        action=DRAW_ACTION,
        user=user,
        obj=tournament,
        data={"seed": seed, "numbers": [[n.participant, n.old, n.new] for n in numbers]},
        at=now,
    )
    return _draw_of(entry)


def _draw_of(entry: AuditEntry) -> Draw:
    data = entry.data or {}
    numbers = tuple(DrawnNumber(str(name), int(old), int(new)) for name, old, new in data.get("numbers", []))
    return Draw(int(data["seed"]), entry.at, entry.actor, tuple(sorted(numbers, key=lambda n: n.new)))


def last_draw(tournament: Tournament) -> Draw | None:
    """The latest recorded draw of the tournament's starting numbers, if any."""
    entry = (
        AuditEntry.objects.filter(tournament=tournament, action=DRAW_ACTION).order_by("-at", "-id").first()
    )
    return _draw_of(entry) if entry is not None else None
