"""What an event keeps on record: the audit trail, sanctions of participants, counted failed tries."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.event import Participant, Tournament
from tournaments.models.play import Session


class AuditEntry(models.Model):
    """Who changed what, when and why (every change to results, adjustments and penalties)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit_entries")
    at = models.DateTimeField(_("when"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, verbose_name=_("who")
    )
    actor = models.CharField(_("actor"), max_length=200, blank=True)
    action = models.CharField(_("action"), max_length=64)
    object_repr = models.CharField(_("object"), max_length=200, blank=True)
    data = models.JSONField(_("details"), default=dict, blank=True)
    reason = models.TextField(_("reason"), blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.object_repr}"


class Sanction(models.Model):
    """A disciplinary measure of §13.2.4 against a participant, as the director records it (audited).

    * Suspension («отстранять участника от игры в текущей сессии или любой её части»): from play in a session,
      or in some of its rounds (``first_round``…``last_round``; empty: from the first / to the last). The
      director's decision is final.
    * Disqualification («дисквалифицировать участника с одобрения турнирного комитета или ОТ»): needs the
      approval of the tournament committee or the organisers (``approved_by``); the participant leaves the
      ranking (:func:`preferans.duplicate.standings.rank_totals`).
    """

    class Kind(models.TextChoices):
        SUSPENSION = "suspension", _("Suspension from play")
        DISQUALIFICATION = "disqualification", _("Disqualification")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="sanctions")
    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="sanctions")
    kind = models.CharField(_("measure"), max_length=16, choices=Kind.choices)
    session = models.ForeignKey(Session, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    first_round = models.PositiveSmallIntegerField(_("from round"), null=True, blank=True)
    last_round = models.PositiveSmallIntegerField(_("to round"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=300)
    approved_by = models.CharField(_("approved by"), max_length=200, blank=True)
    at = models.DateTimeField(_("when"))

    class Meta:
        ordering = ["tournament", "participant__number", "id"]
        verbose_name = _("sanction")
        verbose_name_plural = _("sanctions")
        constraints = [
            models.CheckConstraint(
                condition=(Q(kind="suspension") & Q(session__isnull=False))
                | (Q(kind="disqualification") & Q(session__isnull=True) & ~Q(approved_by="")),
                name="sanction_kind_fields",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.participant}: {self.get_kind_display()}"


class Strike(models.Model):
    """A count of failed tries under one key in a window (wrong PINs, unknown table codes, failed logins).

    Kept in the database so that every web process counts together and each try is taken by one atomic
    ``UPDATE`` (``tournaments.pins.take``); ``started`` is when the window opened.
    """

    key = models.CharField(max_length=200, unique=True)
    count = models.PositiveIntegerField(default=0)
    started = models.DateTimeField()

    class Meta:
        db_table = "appeals_strike"  # made by the appeals app before the PIN counting moved to the ground
        indexes = [models.Index(fields=["started"], name="appeals_strike_started")]

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"
