"""ExportJob, moved here from the scoring app: added to this app's state only; the table scoring_exportjob
(created by scoring 0002) is kept with its rows."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("scoring", "0003_exportjob_to_results"),
        ("tournaments", "0003_rescore_queue"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="ExportJob",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("kind", models.CharField(max_length=40, verbose_name="what")),
                        ("format", models.CharField(max_length=8, verbose_name="format")),
                        ("options", models.JSONField(blank=True, default=dict)),
                        ("status", models.CharField(choices=[("pending", "Waiting"), ("running", "Being made"), ("done", "Ready"), ("failed", "Failed")], default="pending", max_length=16, verbose_name="state")),
                        ("progress", models.PositiveSmallIntegerField(default=0, verbose_name="progress, %")),
                        ("message", models.TextField(blank=True)),
                        ("file", models.FileField(blank=True, upload_to="exports/%Y/%m/")),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("finished_at", models.DateTimeField(blank=True, null=True)),
                        ("created_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL, verbose_name="requested by")),
                        ("tournament", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="export_jobs", to="tournaments.tournament")),
                    ],
                    options={
                        "verbose_name": "generated file",
                        "verbose_name_plural": "generated files",
                        "ordering": ["-created_at"],
                        "db_table": "scoring_exportjob",
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
