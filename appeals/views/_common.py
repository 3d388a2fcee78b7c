"""Helpers shared by every page of rulings, appeals and corrections.

Looking a tournament and its session up, the access checks (a director; a director or a member of the
appeals committee; sending the anonymous to the login page and refusing everybody else), running a service
call so that its refusal shows as an error message, and the lookups several pages repeat: the people at a
table, the seats of the tournament's tables, the result of a deal and the audit entries of a matter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Model, Q, QuerySet
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404

from appeals import services as svc
from appeals.models import CommitteeMember, ScoreChange
from preferans.game.seats import table_seats
from scoring.models import Result
from tournaments.models import AuditEntry, Participant, Session, Tournament
from tournaments.permissions import can_direct

T = TypeVar("T")


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


def _refuse(request: HttpRequest) -> HttpResponseBase:
    """The anonymous go to the login page; anybody else is refused."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied


def _guard_director(request: HttpRequest, t: Tournament) -> HttpResponseBase | None:
    if not can_direct(request.user, t):
        return _refuse(request)
    return None


def _guard_director_or_committee(request: HttpRequest, t: Tournament) -> HttpResponseBase | None:
    if not (can_direct(request.user, t) or _is_committee(request.user, t)):
        return _refuse(request)
    return None


def _is_committee(user: Any, t: Tournament) -> bool:
    return bool(
        getattr(user, "is_authenticated", False)
        and CommitteeMember.objects.filter(tournament=t, user=user).exists()
    )


def _committee_member(request: HttpRequest, t: Tournament) -> CommitteeMember | None:
    """The committee member the logged-in user is, if any."""
    if not request.user.is_authenticated:
        return None
    return CommitteeMember.objects.filter(tournament=t, user=request.user).first()


def _run(request: HttpRequest, call: Callable[[], Any], ok: str) -> bool:
    """Call a service; show its refusal as an error message. True when it went through."""
    try:
        call()
    except svc.AppealsError as exc:
        messages.error(request, exc.message)
        return False
    messages.success(request, ok)
    return True


def _create(
    request: HttpRequest, call: Callable[[], T], ok: str, *, refusal: Callable[[T], str] | None = None
) -> T | None:
    """Like :func:`_run` for a service that makes something: what it made, or None when it was refused.

    ``refusal`` says why what was made is stored as refused (a late appeal or correction request, empty when it
    is not): then the page shows that reason alone, never the success beside it."""
    try:
        made = call()
    except svc.AppealsError as exc:
        messages.error(request, exc.message)
        return None
    why = refusal(made) if refusal is not None else ""
    if why:
        messages.error(request, why)
    else:
        messages.success(request, ok)
    return made


def appeal_refusal(appeal: Any) -> str:
    """Why a stored appeal is refused (empty when it is not)."""
    return str(appeal.refusal or appeal.get_status_display()) if appeal.status == "refused" else ""


def correction_refusal(correction: Any) -> str:
    """Why a stored correction request is refused (empty when it is not)."""
    return (
        str(correction.refusal or correction.get_status_display()) if correction.status == "refused" else ""
    )


def _session(t: Tournament, number: int) -> Session | None:
    return t.sessions.filter(number=number).first()


def _names(t: Tournament, seats: dict[str, int]) -> list[tuple[str, int, str]]:
    people = {p.number: p.name for p in Participant.objects.filter(tournament=t, number__in=seats.values())}
    return [(seat, n, people.get(n, "")) for seat, n in seats.items()]


def _seats_of(t: Tournament, seats: Iterable[str]) -> list[str]:
    """The seats of the tournament's tables that the matter names, in table order."""
    return [s for s in table_seats(t.players_per_table) if s in seats]


def _result_of(matter: Any) -> Result | None:
    """The result of the deal an appeal or a correction is about."""
    return Result.objects.filter(
        session=matter.session,
        room=matter.room,
        board_number=matter.board_number,
        round_number=matter.round_number,
        table_number=matter.table_number,
    ).first()


def _audit_of(t: Tournament, key: str, matter: Model) -> QuerySet[AuditEntry]:
    """The audit entries of an appeal or a ruling (``key``): its own and those of its score changes."""
    entries = ScoreChange.objects.filter(**{key: matter}, audit_entry__isnull=False).values("audit_entry")
    own = Q(**{f"data__{key}": matter.pk})
    return AuditEntry.objects.filter(own | Q(pk__in=entries), tournament=t).order_by("at", "id")
