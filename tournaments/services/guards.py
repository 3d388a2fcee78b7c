"""Errors a director can fix, and the checks that keep a finished event from changing under its results."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.models import Publication, Tournament


class DirectorError(ValueError):
    """A request the rules refuse, with a message for the director (already in the active language)."""


def ensure_not_locked(tournament: Tournament) -> None:
    if tournament.is_locked:
        raise DirectorError(_("The tournament is locked: nothing in it can be changed any more."))


def ensure_results_editable(tournament: Tournament) -> None:
    """Results, adjustments and penalties change only before the results are final (rules §13.2.4)."""
    ensure_not_locked(tournament)
    if tournament.publication == Publication.FINAL:
        raise DirectorError(
            _("The results are final: results, adjustments and penalties can no longer be changed.")
        )
