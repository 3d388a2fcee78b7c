"""Proposed links between participants and persons of the register (issue 29; docs/players/register.md).

A federation number a director types or imports, or a person he picks on his event's link page, names someone who
may be a stranger: unless :func:`players.services.register.may_link_directly`, the link is only proposed
(``Participant.proposed_person``). The register's staff (:func:`players.services.register.can_edit_register`) see
every proposal (:func:`pending`) and confirm it (:func:`confirm`: it becomes ``Participant.person`` and the event
counts in the person's history, master points and rating from then on — an event already final gets its awards
and ratings computed again) or refuse it (:func:`refuse`: never proposed again for that participant). Both are
audited in the event's log and in the site's log.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from players.services.points import award_master_points
from players.services.ratings import refresh_ratings
from players.services.register import can_edit_register, site_log
from tournaments.audit import log_action
from tournaments.errors import UserError
from tournaments.models import Participant, Publication

PENDING_MAX = 500  # proposals listed on one page


def pending() -> QuerySet[Participant]:
    """Every proposal awaiting the register's staff, oldest event first."""
    return (
        Participant.objects.filter(proposed_person__isnull=False)
        .select_related("tournament", "proposed_person")
        .order_by("tournament_id", "number")
    )


def _proposal(participant_id: int) -> Participant:
    participant = (
        Participant.objects.select_for_update()
        .select_related("tournament", "proposed_person")
        .filter(pk=participant_id, proposed_person__isnull=False)
        .first()
    )
    if participant is None:
        raise UserError(_("This proposal was settled meanwhile."), code="link_settled")
    return participant


def _guard(user: Any) -> None:
    if not can_edit_register(user):
        raise UserError(
            _("Only the register's staff confirm or refuse links."), code="link_forbidden", status=403
        )


@transaction.atomic
def confirm(*, participant_id: int, user: Any, now: dt.datetime) -> Participant:
    """The participant is the proposed person: linked; a final event's master points and ratings follow."""
    _guard(user)
    participant = _proposal(participant_id)
    person = participant.proposed_person
    assert person is not None
    if person.merged_into_id is not None:
        raise UserError(_("This person was merged into another: link the participant to that one."))
    participant.person, participant.proposed_person = person, None
    participant.save(update_fields=["person", "proposed_person"])
    _log_settled(participant, person, "person.confirm", user=user, now=now)
    tournament = participant.tournament
    if tournament.publication == Publication.FINAL:
        award_master_points(tournament, now=now, user=user, reason="a link to the register was confirmed")
        refresh_ratings(tournament, now=now)
    return participant


@transaction.atomic
def refuse(*, participant_id: int, user: Any, now: dt.datetime) -> Participant:
    """The participant is not the proposed person: nothing is linked, and he is not proposed again."""
    _guard(user)
    participant = _proposal(participant_id)
    person = participant.proposed_person
    assert person is not None
    participant.proposed_person, participant.refused_person = None, person
    participant.save(update_fields=["proposed_person", "refused_person"])
    _log_settled(participant, person, "person.refuse", user=user, now=now)
    return participant


def _log_settled(participant: Participant, person: Any, action: str, *, user: Any, now: dt.datetime) -> None:
    """A proposal settled, in the event's audit and the register's site log."""
    data = {"participant": participant.number, "person": person.pk}
    log_action(
        tournament=participant.tournament, action=action, user=user, obj=participant, data=data, at=now
    )
    site_log(user, person, action, data | {"tournament": participant.tournament.slug})
