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

from appeals.models import open_matters
from scoring.rescore import request_rescore
from tournaments.audit import log_action
from tournaments.errors import UserError
from tournaments.models import Publication, Round, Tournament, TournamentStatus

ORDER = (Publication.DRAFT, Publication.PROVISIONAL, Publication.OFFICIAL, Publication.FINAL)


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
def publish(*, tournament: Tournament, to: str, user: Any, now: dt.datetime) -> Tournament:
    """Move the results one step forward: provisional → official → final."""
    tournament.ensure_not_locked()
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()  # one step at a time
    tournament.refresh_from_db()
    current, target = ORDER.index(tournament.publication), ORDER.index(to)
    if target != current + 1:
        raise UserError(
            _("The results are “%(now)s”: the next step is “%(next)s”.")
            % {"now": tournament.get_publication_display(),
               "next": ORDER[min(current + 1, len(ORDER) - 1)].label}
        )  # fmt: skip
    if not standings_current(tournament):
        request_rescore(tournament.pk)  # eager by default: computed here; with a worker, soon
    if not standings_current(tournament):
        raise UserError(_("The standings are being recomputed; publish once they are current."))
    if to == Publication.PROVISIONAL:
        tournament.published_at = now
    elif to == Publication.OFFICIAL:
        if not play_finished(tournament):
            raise UserError(_("Official results come when every round has ended."))
        tournament.official_at = now
    elif to == Publication.FINAL:
        ends = tournament.correction_ends_at
        if ends is not None and now < ends:
            raise UserError(
                _("The correction period runs until %(time)s; the results become final after it.")
                % {"time": date_format(timezone.localtime(ends, tournament.time_zone), "TIME_FORMAT")}
            )
        still_open = {k: n for k, n in open_matters(tournament).items() if n}
        if still_open:
            raise UserError(
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




@transaction.atomic
def unpublish(*, tournament: Tournament, user: Any, reason: str, now: dt.datetime) -> Tournament:
    """Withdraw provisional results from the public (an error found before play ends)."""
    tournament.ensure_not_locked()
    if tournament.publication != Publication.PROVISIONAL:
        raise UserError(_("Only provisional results can be withdrawn."))
    if not reason.strip():
        raise UserError(_("Say why the results are withdrawn."))
    tournament.publication, tournament.published_at = Publication.DRAFT, None
    tournament.save(update_fields=["publication", "published_at"])
    log_action(tournament=tournament, action="publication.draft", user=user, obj=tournament, reason=reason, at=now)
    return tournament


@transaction.atomic
def tournament_lock(*, tournament: Tournament, user: Any, now: dt.datetime) -> Tournament:
    """Freeze the whole event once its results are final: settings, participants, results, everything."""
    tournament.ensure_not_locked()
    if tournament.publication != Publication.FINAL:
        raise UserError(_("Lock the tournament once its results are final."))
    tournament.status, tournament.locked_at = TournamentStatus.LOCKED, now
    tournament.save(update_fields=["status", "locked_at"])
    log_action(tournament=tournament, action="tournament.lock", user=user, obj=tournament, at=now)
    return tournament


def rescore_now(*, tournament: Tournament, user: Any, now: dt.datetime) -> str:
    """Ask for the standings again (a stuck or failed rescore); returns how it ran."""
    log_action(tournament=tournament, action="tournament.rescore", user=user, obj=tournament, at=now)
    return request_rescore(tournament.pk)
