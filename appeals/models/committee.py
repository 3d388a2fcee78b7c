"""The tournament's appeals committee and the vote that elected it (rules, general provisions: «Апелляционном
комитете турнира (АКТ), выбранном голосованием из наиболее авторитетных участников турнира»)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import formats, timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _


class CommitteeElection(models.Model):
    """The vote that elected the tournament's appeals committee (rules, general provisions: «Апелляционном
    комитете турнира (АКТ), выбранном голосованием из наиболее авторитетных участников турнира»): when it was
    held, how many votes were cast and how; who was elected, with his votes, is on each :class:`CommitteeMember`."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", models.CASCADE, related_name="committee_elections"
    )
    held_at = models.DateTimeField(_("vote held at"))
    voters = models.PositiveIntegerField(_("votes cast"))
    note = models.TextField(_("how the vote was held"), blank=True)
    recorded_at = models.DateTimeField(_("recorded at"))
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["tournament", "-held_at", "-id"]
        verbose_name = _("committee election")
        verbose_name_plural = _("committee elections")

    def __str__(self) -> str:
        return gettext("committee elected %(at)s") % {"at": self.held_at.strftime("%d.%m.%Y %H:%M")}


class CommitteeMember(models.Model):
    """A member of the tournament's appeals committee («АКТ», elected from the most authoritative players);
    ``election`` and ``votes``: the vote that elected him (none: added by the director without a recorded vote)."""

    tournament = models.ForeignKey("tournaments.Tournament", models.CASCADE, related_name="committee")
    name = models.CharField(_("name"), max_length=200)
    participant = models.ForeignKey(
        "tournaments.Participant",
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("participant"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("login"),
    )
    is_chair = models.BooleanField(_("chair"), default=False)
    election = models.ForeignKey(
        CommitteeElection,
        models.PROTECT,
        null=True,
        blank=True,
        related_name="members",
        verbose_name=_("elected by the vote"),
    )
    votes = models.PositiveIntegerField(_("votes for"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "-is_chair", "name"]
        verbose_name = _("committee member")
        verbose_name_plural = _("committee members")

    def __str__(self) -> str:
        return self.name

    def votes_words(self) -> str:
        """How he came onto the committee, in the reader's language: the vote (its date in the event's zone)
        and his votes of those cast, or that no vote is recorded for him."""
        election = self.election
        if election is None or self.votes is None:
            return gettext("not elected by a recorded vote")
        held = formats.date_format(
            timezone.localtime(election.held_at, self.tournament.time_zone), "d.m.Y H:i"
        )
        return ngettext(
            "elected by vote on %(at)s: %(votes)s of %(voters)s vote",
            "elected by vote on %(at)s: %(votes)s of %(voters)s votes",
            election.voters,
        ) % {"at": held, "votes": self.votes, "voters": election.voters}
