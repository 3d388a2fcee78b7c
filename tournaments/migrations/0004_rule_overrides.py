"""The rule-overrides field is named for what it holds (``Tournament.rules`` is now the whole set of rules);
its column keeps the name ``rules``: a change of state only."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_rescore_queue"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RenameField(model_name="tournament", old_name="rules", new_name="rule_overrides"),
                migrations.AlterField(
                    model_name="tournament",
                    name="rule_overrides",
                    field=models.JSONField(blank=True, db_column="rules", default=dict, verbose_name="rule overrides"),
                ),
            ],
            database_operations=[],
        ),
    ]
