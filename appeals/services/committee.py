"""The appeals committee's election (rules, general provisions: «Апелляционном комитете турнира (АКТ), выбранном
голосованием из наиболее авторитетных участников турнира»).

The director records the vote: when it was held, how many votes were cast, how (a note), and who was elected
with the votes each received. A member already on the committee (the same participant number, or the same name)
is linked to the vote rather than added twice. Everything is checked before anything is written; the vote is
audited with who was elected and their votes; the committee's decision and its printed form show them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from appeals.models import CommitteeElection, CommitteeMember
from appeals.services._errors import AppealsError
from appeals.services._where import guard_open
from tournaments.audit import log_action
from tournaments.models import Participant, Tournament

MAX_ELECTED: Final = 15
"""At most this many members elected in one vote (a committee is a handful of players)."""
MAX_VOTERS: Final = 10_000
MAX_NOTE: Final = 2000


def _when(moment: dt.datetime, zone: dt.tzinfo) -> str:
    """A moment as people read it: the date, hours and minutes in the event's time zone."""
    return formats.date_format(timezone.localtime(moment, zone), "d.m.Y H:i")


@dataclass(frozen=True)
class Elected:
    """One member the vote elected: his name, his participant number if he plays, the votes he received, whether
    he chairs the committee, and a login to sign decisions on the web (optional)."""

    name: str
    votes: int
    participant: int | None = None
    is_chair: bool = False
    username: str = ""


def _check(
    tournament: Tournament,
    *,
    held_at: dt.datetime,
    voters: int,
    elected: Sequence[Elected],
    note: str,
    now: dt.datetime,
) -> dict[int, Participant]:
    """Every refusal before anything is written, in the user's words; the participants named, by number."""
    if held_at > now:
        raise AppealsError(
            _("The vote cannot be recorded before it is held (%(at)s is still to come).")
            % {"at": _when(held_at, tournament.time_zone)},
            code="held_at",
        )
    if not 1 <= voters <= MAX_VOTERS:
        raise AppealsError(
            _("Say how many votes were cast: from 1 to %(max)s.") % {"max": MAX_VOTERS}, code="voters"
        )
    if len(note) > MAX_NOTE:
        raise AppealsError(
            ngettext(
                "The note on the vote is at most %(max)s character.",
                "The note on the vote is at most %(max)s characters.",
                MAX_NOTE,
            )
            % {"max": MAX_NOTE},
            code="note",
        )
    if not elected:
        raise AppealsError(_("Name at least one member the vote elected."), code="elected")
    if len(elected) > MAX_ELECTED:
        raise AppealsError(
            ngettext(
                "At most %(max)s member is elected in one vote.",
                "At most %(max)s members are elected in one vote.",
                MAX_ELECTED,
            )
            % {"max": MAX_ELECTED},
            code="elected",
        )
    names = [e.name.strip() for e in elected]
    if any(not n or len(n) > 200 for n in names):
        raise AppealsError(_("Each member elected needs a name (at most 200 characters)."), code="name")
    if len({n.casefold() for n in names}) != len(names):
        raise AppealsError(_("A member is named twice."), code="name")
    for e in elected:
        if not 0 <= e.votes <= voters:
            raise AppealsError(
                ngettext(
                    "%(name)s: the votes received are from 0 to the %(voters)s vote cast.",
                    "%(name)s: the votes received are from 0 to the %(voters)s votes cast.",
                    voters,
                )
                % {"name": e.name.strip(), "voters": voters},
                code="votes",
            )
    if sum(1 for e in elected if e.is_chair) > 1:
        raise AppealsError(_("Only one member chairs the committee."), code="chair")
    numbers = [e.participant for e in elected if e.participant]
    if len(set(numbers)) != len(numbers):
        raise AppealsError(_("A participant number is named twice."), code="participant")
    found = {p.number: p for p in Participant.objects.filter(tournament=tournament, number__in=numbers)}
    missing = sorted(set(numbers) - set(found))
    if missing:
        raise AppealsError(
            _("There is no participant number %(n)s.") % {"n": ", ".join(map(str, missing))},
            code="participant",
        )
    return found


def committee_elect(
    *,
    tournament: Tournament,
    held_at: dt.datetime,
    voters: int,
    elected: Sequence[Elected],
    note: str = "",
    user: Any,
    now: dt.datetime,
) -> CommitteeElection:
    """Record the vote that elected the appeals committee, and the members it elected with their votes."""
    guard_open(tournament)
    people = _check(tournament, held_at=held_at, voters=voters, elected=elected, note=note, now=now)
    logins = {}
    for e in elected:
        if e.username.strip():
            login = get_user_model().objects.filter(username=e.username.strip()).first()
            if login is None:
                raise AppealsError(_("There is no login “%(u)s”.") % {"u": e.username}, code="username")
            logins[e.name.strip()] = login
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        election = CommitteeElection.objects.create(
            tournament=tournament,
            held_at=held_at,
            voters=voters,
            note=note.strip(),
            recorded_at=now,
            recorded_by=user if getattr(user, "is_authenticated", False) else None,
        )
        if any(e.is_chair for e in elected):
            CommitteeMember.objects.filter(tournament=tournament).update(is_chair=False)
        current = list(CommitteeMember.objects.select_for_update().filter(tournament=tournament))
        for e in elected:
            name = e.name.strip()
            person = people.get(e.participant) if e.participant else None
            member = next(
                (
                    m
                    for m in current
                    if (person is not None and m.participant_id == person.pk)
                    or m.name.casefold() == name.casefold()
                ),
                None,
            )
            if member is None:
                member = CommitteeMember(tournament=tournament)
            member.name, member.participant = name, person or member.participant
            member.user = logins.get(name, member.user)
            member.is_chair = e.is_chair or (member.is_chair and not any(x.is_chair for x in elected))
            member.election, member.votes = election, e.votes
            member.save()
        log_action(
            tournament=tournament,
            action="committee.elect",
            user=user,
            obj=election,
            at=now,
            reason=note.strip(),
            data={
                "election": election.pk,
                "held_at": held_at.isoformat(),
                "voters": voters,
                "members": [
                    {
                        "name": e.name.strip(),
                        "participant": e.participant,
                        "votes": e.votes,
                        "chair": e.is_chair,
                    }
                    for e in elected
                ],
            },
        )
    return election
