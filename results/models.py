"""Generated files: the export jobs that make them and keep them for download."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ExportJob(models.Model):
    """A generated file (PDF pack, Excel workbook, …): made by a Celery task, progress shown, kept for download."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting")
        RUNNING = "running", _("Being made")
        DONE = "done", _("Ready")
        FAILED = "failed", _("Failed")

    tournament = models.ForeignKey("tournaments.Tournament", models.CASCADE, related_name="export_jobs")
    kind = models.CharField(_("what"), max_length=40)
    format = models.CharField(_("format"), max_length=8)
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(_("state"), max_length=16, choices=Status.choices, default=Status.PENDING)
    progress = models.PositiveSmallIntegerField(_("progress, %"), default=0)
    message = models.TextField(blank=True)
    file = models.FileField(upload_to="exports/%Y/%m/", blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("requested by"),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        # The table keeps the name it had when this model lived in the scoring app.
        db_table = "scoring_exportjob"
        ordering = ["-created_at"]
        verbose_name = _("generated file")
        verbose_name_plural = _("generated files")

    def __str__(self) -> str:
        return f"{self.kind}.{self.format} ({self.status})"
