"""Publishing results (rules §1, §13): provisional during play, official when play is over, final after the
correction period; then the tournament may be locked. Nothing is public before the first publication."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scoring.results import request_rescore
from tournaments.audit import log_action
from tournaments.models import Publication, Round, Tournament, TournamentStatus
from tournaments.services.guards import DirectorError, ensure_not_locked

ORDER = (Publication.DRAFT, Publication.PROVISIONAL, Publication.OFFICIAL, Publication.FINAL)


def correction_ends_at(tournament: Tournament) -> dt.datetime | None:
    """The end of the correction period: the official publication + the correction minutes (30 by default)."""
    if tournament.official_at is None:
        return None
    return tournament.official_at + dt.timedelta(minutes=tournament.correction_minutes)


def standings_current(tournament: Tournament) -> bool:
    return all(s.standings_current for s in tournament.sessions.all())


def play_finished(tournament: Tournament) -> bool:
    sessions = tournament.sessions.all()
    return (
        bool(sessions)
        and not Round.objects.filter(session__in=sessions).exclude(status=Round.Status.ENDED).exists()
        and Round.objects.filter(session__in=sessions).exists()
    )


@transaction.atomic
def publish(*, tournament: Tournament, to: str, user: Any, at: dt.datetime | None = None) -> Tournament:
    """Move the results one step forward: provisional → official → final."""
    ensure_not_locked(tournament)
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()  # one step at a time
    tournament.refresh_from_db()
    now = at or timezone.now()
    current, target = ORDER.index(tournament.publication), ORDER.index(to)
    if target != current + 1:
        raise DirectorError(
            _("The results are “%(now)s”: the next step is “%(next)s”.")
            % {"now": tournament.get_publication_display(),
               "next": ORDER[min(current + 1, len(ORDER) - 1)].label}
        )  # fmt: skip
    if not standings_current(tournament):
        request_rescore(tournament.pk)  # eager by default: computed here; with a worker, soon
    if not standings_current(tournament):
        raise DirectorError(_("The standings are being recomputed; publish once they are current."))
    if to == Publication.PROVISIONAL:
        tournament.published_at = now
    elif to == Publication.OFFICIAL:
        if not play_finished(tournament):
            raise DirectorError(_("Official results come when every round has ended."))
        tournament.official_at = now
    elif to == Publication.FINAL:
        ends = correction_ends_at(tournament)
        if ends is not None and now < ends:
            raise DirectorError(
                _("The correction period runs until %(time)s; the results become final after it.")
                % {"time": date_format(timezone.localtime(ends), "TIME_FORMAT")}
            )
        still_open = {k: n for k, n in open_matters(tournament).items() if n}
        if still_open:
            raise DirectorError(
                _("Results cannot become final while matters are open: %(what)s. Decide or close them first.")
                % {"what": ", ".join(f"{_(OPEN_LABELS[k])} {n}" for k, n in still_open.items())}
            )
        tournament.final_at = now
    tournament.publication = to
    tournament.save(update_fields=["publication", "published_at", "official_at", "final_at"])
    log_action(tournament=tournament, action=f"publication.{to}", user=user, obj=tournament, at=now)
    return tournament


OPEN_LABELS = {"appeals": gettext_noop("appeals"), "rulings": gettext_noop("rulings"),
               "corrections": gettext_noop("corrections")}  # fmt: skip


def open_matters(tournament: Tournament) -> dict[str, int]:
    """Appeals, rulings and corrections still open (the appeals app keeps them)."""
    from appeals.services import open_matters as appeals_open_matters

    return appeals_open_matters(tournament)


@transaction.atomic
def unpublish(*, tournament: Tournament, user: Any, reason: str) -> Tournament:
    """Withdraw provisional results from the public (an error found before play ends)."""
    ensure_not_locked(tournament)
    if tournament.publication != Publication.PROVISIONAL:
        raise DirectorError(_("Only provisional results can be withdrawn."))
    if not reason.strip():
        raise DirectorError(_("Say why the results are withdrawn."))
    tournament.publication, tournament.published_at = Publication.DRAFT, None
    tournament.save(update_fields=["publication", "published_at"])
    log_action(tournament=tournament, action="publication.draft", user=user, obj=tournament, reason=reason)
    return tournament


@transaction.atomic
def tournament_lock(*, tournament: Tournament, user: Any, at: dt.datetime | None = None) -> Tournament:
    """Freeze the whole event once its results are final: settings, participants, results, everything."""
    ensure_not_locked(tournament)
    if tournament.publication != Publication.FINAL:
        raise DirectorError(_("Lock the tournament once its results are final."))
    now = at or timezone.now()
    tournament.status, tournament.locked_at = TournamentStatus.LOCKED, now
    tournament.save(update_fields=["status", "locked_at"])
    log_action(tournament=tournament, action="tournament.lock", user=user, obj=tournament, at=now)
    return tournament


def rescore_now(*, tournament: Tournament, user: Any) -> str:
    """Ask for the standings again (a stuck or failed rescore); returns how it ran."""
    log_action(tournament=tournament, action="tournament.rescore", user=user, obj=tournament)
    return request_rescore(tournament.pk)
