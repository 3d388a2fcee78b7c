"""The audit trail: every change to results, adjustments and penalties says who, when, what and why."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any, Required, TypedDict, Unpack

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.models import AuditEntry, Tournament


class AuditFields(TypedDict, total=False):
    """What an audit entry says: which tournament, what was done (``action``), by whom (``user``, or ``actor``
    naming who acted), to what (``obj``), with which facts (``data``), why (``reason``) and when (``at``)."""

    tournament: Required[Tournament]
    action: Required[str]
    user: Any
    actor: str
    obj: object | None
    data: dict[str, Any] | None
    reason: str
    at: dt.datetime | None


def log_action(**fields: Unpack[AuditFields]) -> AuditEntry:
    """Write one audit entry. ``user`` is a Django user or None (then ``actor`` names who acted)."""
    entry = audit_entry(**fields)
    entry.save(force_insert=True)
    return entry


def audit_entry(
    *,
    tournament: Tournament,
    action: str,
    user: Any = None,
    actor: str = "",
    obj: object | None = None,
    data: dict[str, Any] | None = None,
    reason: str = "",
    at: dt.datetime | None = None,
) -> AuditEntry:
    """An unsaved audit entry, for writing several in one statement (``AuditEntry.objects.bulk_create``)."""
    if user is not None and not getattr(user, "is_authenticated", False):
        user = None
    if not actor and user is not None:
        actor = user.get_username()
    return AuditEntry(
        tournament=tournament,
        at=at or timezone.now(),
        user=user,
        actor=actor[:200],
        action=action,
        object_repr=str(obj)[:200] if obj is not None else "",
        data=data or {},
        reason=reason,
    )


# What each action code of the audit trail means, in the reader's language; the pages show these words and keep
# the code itself in a tooltip. An unknown code (a new action) is shown as it is.
ACTION_LABELS = {
    "tournament.create": gettext_lazy("Tournament created"),
    "tournament.settings": gettext_lazy("Settings changed"),
    "tournament.import": gettext_lazy("Tournament imported"),
    "tournament.rescore": gettext_lazy("Standings recomputed"),
    "master_points.award": gettext_lazy("Master points awarded"),
    "master_points.recompute": gettext_lazy("Master points recomputed"),
    "tournament.lock": gettext_lazy("Tournament locked"),
    "tournament.director_add": gettext_lazy("Director added"),
    "tournament.director_remove": gettext_lazy("Director removed"),
    "session.create": gettext_lazy("Session added"),
    "session.movement": gettext_lazy("Movement chosen"),
    "round.start": gettext_lazy("Round started"),
    "round.end": gettext_lazy("Round ended"),
    "participant.create": gettext_lazy("Participant registered"),
    "participant.update": gettext_lazy("Participant changed"),
    "participant.delete": gettext_lazy("Participant deleted"),
    "participant.suspend": gettext_lazy("Player suspended"),
    "participant.disqualify": gettext_lazy("Player disqualified"),
    "sanction.withdraw": gettext_lazy("Sanction withdrawn"),
    "participants.import": gettext_lazy("Participants imported"),
    "participants.pins": gettext_lazy("PINs issued"),
    "participants.draw": gettext_lazy("Initial seating drawn"),
    "result.create": gettext_lazy("Result recorded"),
    "result.update": gettext_lazy("Result corrected"),
    "result.delete": gettext_lazy("Result deleted"),
    "result.confirm": gettext_lazy("Result confirmed"),
    "result.dispute": gettext_lazy("Result disputed"),
    "penalty.create": gettext_lazy("Penalty given"),
    "penalty.delete": gettext_lazy("Penalty withdrawn"),
    "board.layout": gettext_lazy("Layout recorded"),
    "board.played_layout": gettext_lazy("Layout played at a table recorded"),
    "board.fouled": gettext_lazy("Board marked fouled"),
    "board.unfouled": gettext_lazy("Board no longer fouled"),
    "publication.draft": gettext_lazy("Publication withdrawn"),
    "publication.provisional": gettext_lazy("Provisional results published"),
    "publication.official": gettext_lazy("Official results published"),
    "publication.final": gettext_lazy("Results made final"),
    "irregularity.record": gettext_lazy("Ruling recorded"),
    "irregularity.revise": gettext_lazy("Ruling revised"),
    "irregularity.apply": gettext_lazy("Ruling applied"),
    "irregularity.dismiss": gettext_lazy("Ruling dismissed"),
    "appeal.notice": gettext_lazy("Appeal announced"),
    "appeal.file": gettext_lazy("Appeal filed"),
    "appeal.admit": gettext_lazy("Appeal admitted"),
    "appeal.refuse": gettext_lazy("Appeal refused"),
    "appeal.withdraw": gettext_lazy("Appeal withdrawn"),
    "correction.request": gettext_lazy("Correction requested"),
    "correction.apply": gettext_lazy("Correction applied"),
    "correction.refuse": gettext_lazy("Correction refused"),
    "appeals.settings": gettext_lazy("Appeal settings changed"),
    "committee.add": gettext_lazy("Committee member added"),
    "committee.remove": gettext_lazy("Committee member removed"),
    "pulka_event_created": gettext_lazy("Event created"),
    "pulka_event_imported": gettext_lazy("Event imported"),
    "pulka_settings_changed": gettext_lazy("Settings changed"),
    "pulka_round_drawn": gettext_lazy("Round drawn"),
    "pulka_round_undrawn": gettext_lazy("Round draw cancelled"),
    "pulka_round_started": gettext_lazy("Round started"),
    "pulka_round_ended": gettext_lazy("Round ended"),
    "pulka_tie_decided": gettext_lazy("Tie decided"),
    "pulka_deal_entered": gettext_lazy("Deal recorded"),
    "pulka_deal_confirmed": gettext_lazy("Deal confirmed"),
    "pulka_deal_corrected": gettext_lazy("Deal corrected"),
    "pulka_table_stopped": gettext_lazy("Table stopped"),
    "pulka_table_reopened": gettext_lazy("Table reopened"),
    # The kinds the appeals' audit page filters by (a code's prefix).
    "result.": gettext_lazy("results"),
    "penalty.": gettext_lazy("penalties"),
    "appeal.": gettext_lazy("appeals"),
    "irregularity.": gettext_lazy("rulings"),
    "correction.": gettext_lazy("corrections"),
    "committee.": gettext_lazy("appeals committee"),
    "appeals.": gettext_lazy("appeal settings"),
    "pulka_deal_": gettext_lazy("deals"),
}

# The objects' stored descriptions (``object_repr``, written in English by the models' ``__str__``), in words.
_RESULT_REPR = re.compile(r"^board (\d+), table (\d+), round (\d+)$")
_NUMBERED_REPR = re.compile(r" — \d+ / (\d+)$")  # a session's round or board: «Cup — 1 / 3»
_CORRECTION_REPR = re.compile(r"^correction (\d+): deal (\d+)$")


def action_label(code: str) -> str:
    """The words for an audit entry's action code: «result.create» → «Result recorded»."""
    label = ACTION_LABELS.get(code)
    return str(label) if label is not None else code


def object_label(action: str, text: str) -> str:
    """An audit entry's object in words: «board 9, table 1, round 3» → «board 9, table 1, round 3» translated."""
    if m := _RESULT_REPR.match(text):
        return _("board %(b)s, table %(t)s, round %(r)s") % {"b": m[1], "t": m[2], "r": m[3]}
    if m := _CORRECTION_REPR.match(text):
        return _("correction %(n)s: deal %(d)s") % {"n": m[1], "d": m[2]}
    m = _NUMBERED_REPR.search(text)
    if m and action.startswith("round."):
        return _("round %(n)s") % {"n": m[1]}
    if m and action.startswith("board."):
        return _("board %(n)s") % {"n": m[1]}
    return text
