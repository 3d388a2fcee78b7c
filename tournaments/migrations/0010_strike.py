"""The counted failed tries (``Strike``) come here from the appeals app; the table ``appeals_strike`` that its
migration made is kept as it is: only Django's state changes."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0009_players_across_events"),
        ("appeals", "0003_strike"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Strike",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("key", models.CharField(max_length=200, unique=True)),
                        ("count", models.PositiveIntegerField(default=0)),
                        ("started", models.DateTimeField()),
                    ],
                    options={
                        "db_table": "appeals_strike",
                        "indexes": [models.Index(fields=["started"], name="appeals_strike_started")],
                    },
                ),
            ]
        ),
    ]
