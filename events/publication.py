"""Publishing results (rules §1, §13), either form: provisional during play, official when play is over, final
after the correction period; then the tournament may be locked. Nothing is public before the first publication.

Every channel takes these steps through :func:`publish`, :func:`unpublish` and :func:`tournament_lock`: the
director's publication page, the API (``POST /api/tournaments/<slug>/publication/``) and
``manage.py publish``. What the form changes is asked here once: whether play is over (a duplicate event's
rounds all ended; a pulka event's last round ended with nothing more to draw) and what is still open
(:func:`publication_gaps`)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from appeals.models import open_matters
from duplicate.gaps import publication_gaps as duplicate_gaps
from players.services.points import results_final
from pulkas.services.gaps import pulka_gaps
from pulkas.services.rounds import play_over
from scoring.rescore import request_rescore
from tournaments.audit import log_action, require_reason
from tournaments.errors import UserError
from tournaments.gaps import Gaps, require_acknowledged
from tournaments.models import Publication, Round, Tournament, TournamentStatus

ORDER = (Publication.DRAFT, Publication.PROVISIONAL, Publication.OFFICIAL, Publication.FINAL)


def standings_current(tournament: Tournament) -> bool:
    return all(s.standings_current for s in tournament.sessions.all())


def play_finished(tournament: Tournament) -> bool:
    """Play is over: official results may come (rules §1). A pulka event: its last round ended and nothing more
    is to be drawn (the Olympic final played, or every round of a compensation or Swiss event)."""
    if tournament.plays_pulkas:
        return play_over(tournament)
    sessions = tournament.sessions.all()
    return (
        bool(sessions)
        and not Round.objects.filter(session__in=sessions).exclude(status=Round.Status.ENDED).exists()
        and Round.objects.filter(session__in=sessions).exists()
    )


def publication_gaps(tournament: Tournament) -> Gaps:
    """What is still open before publishing: a duplicate event's rows in the rounds that have ended; a pulka
    event's unconfirmed deals, tables still playing and undecided ties (``tournaments.gaps``)."""
    return pulka_gaps(tournament) if tournament.plays_pulkas else duplicate_gaps(tournament)


def final_blockers(tournament: Tournament, now: dt.datetime) -> list[str]:
    """Why the official results cannot become final yet (empty: they can), in the active language.

    The correction period (rules §1: «в течение 30 минут после обнародования официального результата», unless
    the organisers set another time) and any appeal, ruling or correction still open.
    """
    out = []
    ends = tournament.correction_ends_at
    if ends is not None and now < ends:
        out.append(
            _("The correction period runs until %(time)s; the results become final after it.")
            % {"time": date_format(timezone.localtime(ends, tournament.time_zone), "TIME_FORMAT")}
        )
    still_open = {k: n for k, n in open_matters(tournament).items() if n}
    if still_open:
        out.append(
            _("Results cannot become final while matters are open: %(what)s. Decide or close them first.")
            % {"what": ", ".join(f"{_(OPEN_LABELS[k])} {n}" for k, n in still_open.items())}
        )
    return out


@transaction.atomic
def publish(
    *,
    tournament: Tournament,
    to: str,
    user: Any,
    now: dt.datetime,
    acknowledged: str = "",
    actor: str = "",
    reason: str = "",
    reason_required: bool = False,
) -> Tournament:
    """Move the results one step forward: provisional → official → final.

    With something still open (:func:`publication_gaps`), the step goes through only when ``acknowledged`` is
    the token of exactly those gaps (the director saw them). ``actor`` names who acted when there is no user
    (the command line); ``reason`` (the director's words when he confirmed the step) goes into the audit, and
    with ``reason_required`` (the page asks for it before a step that cannot be undone) an empty one is refused
    once every other check has passed, so each channel reads the same refusals first.
    """
    if to not in ORDER[1:]:
        raise UserError(
            _("Publish as “provisional”, “official” or “final”."), code="publication_unknown", status=400
        )
    tournament.ensure_not_locked()
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()  # one step at a time
    tournament.refresh_from_db()
    current, target = ORDER.index(tournament.publication), ORDER.index(to)
    if target != current + 1:
        raise UserError(
            _("The results are “%(now)s”: the next step is “%(next)s”.")
            % {
                "now": tournament.get_publication_display(),
                "next": ORDER[min(current + 1, len(ORDER) - 1)].label,
            },
            code="publication_order",
            status=409,
        )
    if not standings_current(tournament):
        request_rescore(tournament.pk)  # eager by default: computed here; with a worker, soon
    if not standings_current(tournament):
        raise UserError(
            _("The standings are being recomputed; publish once they are current."), code="standings_stale"
        )
    if to == Publication.PROVISIONAL:
        tournament.published_at = now
    elif to == Publication.OFFICIAL:
        if not play_finished(tournament):
            raise UserError(
                _("Official results come when play is over: the final has been played and its round ended.")
                if tournament.form == "olympic"
                else _("Official results come when every round of the event has been played and ended.")
                if tournament.plays_pulkas
                else _("Official results come when every round has ended."),
                code="play_not_over",
                status=409,
            )
        tournament.official_at = now
    elif to == Publication.FINAL:
        blockers = final_blockers(tournament, now)
        if blockers:
            ends = tournament.correction_ends_at
            running = ends is not None and now < ends
            raise UserError(blockers[0], code="correction_period" if running else "open_matters", status=409)
        tournament.final_at = now
    gaps = publication_gaps(tournament)
    require_acknowledged(gaps, acknowledged, refusal=_("Some results are not complete"))
    if reason_required:
        require_reason(reason)
    tournament.publication = to
    tournament.save(update_fields=["publication", "published_at", "official_at", "final_at"])
    data = gaps.counts() if gaps else None
    log_action(
        tournament=tournament,
        action=f"publication.{to}",
        user=user,
        actor=actor,
        obj=tournament,
        at=now,
        data=data,
        reason=reason[:500],
    )
    if to == Publication.FINAL:
        results_final(
            tournament, now=now, user=user
        )  # master points and ratings (docs/players/master-points.md)
    return tournament


OPEN_LABELS = {
    "appeals": gettext_noop("appeals"),
    "rulings": gettext_noop("rulings"),
    "corrections": gettext_noop("corrections"),
}


@transaction.atomic
def unpublish(*, tournament: Tournament, user: Any, reason: str, now: dt.datetime) -> Tournament:
    """Take the results one step back, with a reason (audited): official → provisional, provisional → draft.

    Official results go back to provisional until they are final (an error found after play; the correction
    period starts again from the next official publication); provisional ones leave the public. Final results
    stay final.
    """
    tournament.ensure_not_locked()
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    tournament.refresh_from_db()
    if tournament.publication not in (Publication.PROVISIONAL, Publication.OFFICIAL):
        raise UserError(_("Only provisional or official results can be withdrawn; final results stay final."))
    if not reason.strip():
        raise UserError(_("Say why the results are withdrawn."))
    if tournament.publication == Publication.OFFICIAL:
        tournament.publication, tournament.official_at = Publication.PROVISIONAL, None
        fields = ["publication", "official_at"]
    else:
        tournament.publication, tournament.published_at = Publication.DRAFT, None
        fields = ["publication", "published_at"]
    tournament.save(update_fields=fields)
    log_action(
        tournament=tournament,
        action=f"publication.{tournament.publication}",
        user=user,
        obj=tournament,
        reason=reason,
        at=now,
        data={"withdrawn": True},
    )
    return tournament


@transaction.atomic
def tournament_lock(
    *, tournament: Tournament, user: Any, now: dt.datetime, reason: str = "", reason_required: bool = False
) -> Tournament:
    """Freeze the whole event once its results are final: settings, participants, results, everything."""
    tournament.ensure_not_locked()
    if tournament.publication != Publication.FINAL:
        raise UserError(_("Lock the tournament once its results are final."))
    if reason_required:
        require_reason(reason)
    return _set_locked(tournament, True, user=user, now=now, reason=reason)


def _set_locked(
    tournament: Tournament, locked: bool, *, user: Any, now: dt.datetime, reason: str
) -> Tournament:
    """Lock or unlock (play stays finished when unlocked), audited with the reason."""
    tournament.status = TournamentStatus.LOCKED if locked else TournamentStatus.FINISHED
    tournament.locked_at = now if locked else None
    tournament.save(update_fields=["status", "locked_at"])
    log_action(
        tournament=tournament,
        action="tournament.lock" if locked else "tournament.unlock",
        user=user,
        obj=tournament,
        at=now,
        reason=reason[:500],
    )
    return tournament


UNLOCK_PERMISSION = "tournaments.unlock_tournament"


def can_unlock(user: Any) -> bool:
    """Who may unlock a locked event: the organisers (the permission; a superuser has every permission)."""
    return bool(getattr(user, "is_authenticated", False) and user.has_perm(UNLOCK_PERMISSION))


@transaction.atomic
def tournament_unlock(*, tournament: Tournament, user: Any, reason: str, now: dt.datetime) -> Tournament:
    """Open a locked event again (an organiser, with a reason, audited): play stays finished and the results
    stay final; what a director may change is what he could change before the lock."""
    if not can_unlock(user):
        raise UserError(
            _("Only the organisers can unlock a tournament."), code="unlock_not_allowed", status=403
        )
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    tournament.refresh_from_db()
    if not tournament.is_locked:
        raise UserError(_("The tournament is not locked."), code="not_locked", status=409)
    require_reason(reason)
    return _set_locked(tournament, False, user=user, now=now, reason=reason)


def rescore_now(*, tournament: Tournament, user: Any, now: dt.datetime) -> str:
    """Compute the standings again, here and now (a stuck, failed, or queued and never taken rescore); returns
    how it ran ("inline" or "failed")."""
    log_action(tournament=tournament, action="tournament.rescore", user=user, obj=tournament, at=now)
    return request_rescore(tournament.pk, inline=True)
