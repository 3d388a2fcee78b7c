"""Registering participants: one by one, from the lines of an imported list, removing one, and the PINs for
confirming rows at the table. Reading the list and its preview are the ground's (``tournaments.participant_file``);
the bounds of a participant's number and texts too (``tournaments.participant_fields``)."""

from __future__ import annotations

import datetime as dt
import random
import secrets
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from players.services.register import declare_event_ratings, link_event
from preferans.bundle.bounds import PARTICIPANTS_MAX
from scoring.models import Penalty, Result
from tournaments.audit import log_action, require_reason
from tournaments.errors import UserError
from tournaments.models import Participant, Seating, Tournament
from tournaments.participant_fields import (
    clean_text,
    number_problem,
    parse_rating,
    rating_problem,
    rating_text,
    text_problems,
)
from tournaments.participant_file import ImportLine

__all__ = ["new_pin", "participant_delete", "participant_save", "participants_import", "pins_assign"]

PIN_LENGTH = 4


def _too_many_participants() -> UserError:
    """The one refusal of a field over its bound, for the import and the form alike."""
    return UserError(
        ngettext(
            "A tournament has at most %(n)s participant.",
            "A tournament has at most %(n)s participants.",
            PARTICIPANTS_MAX,
        )
        % {"n": PARTICIPANTS_MAX}
    )


def _in_use(tournament: Tournament) -> set[int]:
    """Numbers of participants who are seated or have results or penalties (they cannot be removed)."""
    seated: set[int] = set()
    for fields in Seating.objects.filter(session__tournament=tournament).values_list(
        "seat_n__number", "seat_e__number", "seat_s__number", "seat_w__number"
    ):
        seated.update(n for n in fields if n is not None)
    for fields in Result.objects.filter(session__tournament=tournament).values_list(
        "seat_n__number", "seat_e__number", "seat_s__number", "seat_w__number"
    ):
        seated.update(n for n in fields if n is not None)
    seated.update(
        Penalty.objects.filter(session__tournament=tournament).values_list("participant__number", flat=True)
    )
    return seated


@transaction.atomic
def participants_import(
    *, now: dt.datetime, tournament: Tournament, lines: Iterable[ImportLine], user: Any, replace: bool = False
) -> int:
    """Register the lines without errors; ``replace`` first removes everyone not yet seated or scored. A line's
    federation or club rating is kept on the participant (this event's list) and, once he is linked to a person
    of the register, becomes that person's declared rating (``players.services.register.declare_event_ratings``)."""
    tournament.ensure_not_locked()
    good = [line for line in lines if line.ok and line.number is not None]
    if replace:
        busy = _in_use(tournament)
        if busy:
            raise UserError(
                _("Participants are already seated or have results: add to the list instead of replacing it.")
            )
        tournament.participants.all().delete()
    existing = set(tournament.participants.values_list("number", flat=True))
    for line in good:  # the lines come from a preview; their bounds are the service's, checked here once more
        problems = [
            number_problem(line.number or 0),
            *text_problems(name=line.name, club=line.club, federation_id=line.federation_id),
            parse_rating(line.rating)[1],
        ]
        if any(problems):
            raise UserError(
                _("Line %(line)s: %(problem)s.")
                % {"line": line.line, "problem": next(p for p in problems if p)}
            )
    if len(existing | {line.number for line in good}) > PARTICIPANTS_MAX:
        raise _too_many_participants()
    clash = sorted(line.number for line in good if line.number in existing)  # type: ignore[misc]
    if clash:
        raise UserError(
            _("These numbers were registered meanwhile: %(numbers)s. Upload the file again.")
            % {"numbers": ", ".join(map(str, clash))}
        )
    rng = secrets.SystemRandom()
    pins = _pins(rng, len(good))
    Participant.objects.bulk_create(
        Participant(
            tournament=tournament,
            number=line.number,
            name=line.name,
            club=line.club,  # type: ignore[misc]
            federation_id=line.federation_id,
            declared_rating=Decimal(line.rating) if line.rating else None,
            pin=pin,
        )
        for line, pin in zip(good, pins, strict=True)
    )
    log_action(
        tournament=tournament,
        action="participants.import",
        user=user,
        obj=tournament,
        data={"added": len(good), "replace": replace, "numbers": [line.number for line in good]},
        at=now,
    )
    link_event(tournament, now=now, user=user)  # the register: link by federation number
    declare_event_ratings(
        tournament, numbers=[line.number for line in good if line.rating], now=now, user=user
    )
    return len(good)


def new_pin(rng: random.Random | None = None) -> str:
    """Four digits from the operating system's secure randomness (or ``rng`` in tests)."""
    rng = rng or secrets.SystemRandom()
    return "".join(rng.choice("0123456789") for _ in range(PIN_LENGTH))


def _pins(rng: random.Random, n: int) -> list[str]:
    return [new_pin(rng) for _ in range(n)]


@transaction.atomic
def participant_save(
    *,
    now: dt.datetime,
    tournament: Tournament,
    user: Any,
    number: int,
    name: str,
    club: str = "",
    federation_id: str = "",
    declared_rating: Decimal | None = None,
    participant: Participant | None = None,
    rng: random.Random | None = None,
) -> Participant:
    """Register a participant, or change one (``participant``). A seated participant keeps his number. His
    federation or club rating is this event's, as a list's would be, and goes to his person when he is linked."""
    tournament.ensure_not_locked()
    name, club, federation_id = clean_text(name), clean_text(club), clean_text(federation_id)
    if not name:
        raise UserError(_("Give the participant's name."))
    problem = number_problem(number)
    if problem:
        raise UserError(problem, code="number")
    problems = text_problems(name=name, club=club, federation_id=federation_id)
    if problems:
        raise UserError(_("Too long: %(problems)s.") % {"problems": "; ".join(problems)}, code="too_long")
    problem = None if declared_rating is None else rating_problem(declared_rating)
    if problem:
        raise UserError(problem, code="rating")
    if participant is None and tournament.participants.count() >= PARTICIPANTS_MAX:
        raise _too_many_participants()
    clash = tournament.participants.filter(number=number)
    if participant is not None:
        clash = clash.exclude(pk=participant.pk)
    if clash.exists():
        raise UserError(_("Number %(n)s is already registered.") % {"n": number})
    if participant is None:
        participant = Participant.objects.create(
            tournament=tournament,
            number=number,
            name=name,
            club=club.strip(),
            federation_id=federation_id.strip(),
            declared_rating=declared_rating,
            pin=new_pin(rng),
        )
        action, before = "participant.create", None
    else:
        if participant.number != number and participant.number in _in_use(tournament):
            raise UserError(_("This participant is already seated: his number cannot change."))
        before = {
            "number": participant.number,
            "name": participant.name,
            "club": participant.club,
            "federation_id": participant.federation_id,
            "rating": rating_text(participant.declared_rating),
        }
        participant.number, participant.name = number, name
        participant.club, participant.federation_id = club.strip(), federation_id.strip()
        participant.declared_rating = declared_rating
        participant.save()
        action = "participant.update"
    log_action(
        tournament=tournament,
        action=action,
        user=user,
        obj=participant,
        data={
            "before": before,
            "after": {
                "number": number,
                "name": name,
                "club": participant.club,
                "federation_id": participant.federation_id,
                "rating": rating_text(declared_rating),
            },
        },
        at=now,
    )
    if declared_rating is not None:
        declare_event_ratings(tournament, numbers=[number], now=now, user=user)
    return participant


@transaction.atomic
def participant_delete(*, now: dt.datetime, participant: Participant, user: Any) -> None:
    """Remove a participant who is not seated and has no results or penalties."""
    tournament = participant.tournament
    tournament.ensure_not_locked()
    if participant.number in _in_use(tournament):
        raise UserError(_("This participant is seated or has results: he cannot be removed."))
    log_action(
        tournament=tournament,
        action="participant.delete",
        user=user,
        obj=participant,
        data={"number": participant.number, "name": participant.name},
        at=now,
    )
    participant.delete()


@transaction.atomic
def pins_assign(
    *,
    now: dt.datetime,
    tournament: Tournament,
    user: Any,
    everyone: bool = False,
    rng: random.Random | None = None,
    reason: str = "",
) -> int:
    """Give a PIN to every participant without one (``everyone``: new PINs for all).

    New PINs for all make every printed slip stop working: once any participant has a PIN, that needs the
    director's confirmed reason (audited)."""
    tournament.ensure_not_locked()
    if everyone and tournament.participants.exclude(pin="").exclude(pin__isnull=True).exists():
        require_reason(reason)
    rng = rng or secrets.SystemRandom()
    people = (
        tournament.participants.all()
        if everyone
        else tournament.participants.filter(Q(pin="") | Q(pin__isnull=True))
    )
    people = list(people)
    for p in people:
        p.pin = new_pin(rng)
    Participant.objects.bulk_update(people, ["pin"])
    log_action(
        tournament=tournament,
        action="participants.pins",
        user=user,
        obj=tournament,
        data={"count": len(people), "everyone": everyone},
        at=now,
        reason=reason[:500],
    )
    return len(people)
