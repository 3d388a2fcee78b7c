"""The audit trail: every change to results, adjustments and penalties says who, when, what and why."""

from __future__ import annotations

import datetime as dt
from typing import Any, Required, TypedDict, Unpack

from django.utils import timezone

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
