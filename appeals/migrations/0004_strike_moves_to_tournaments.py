"""The counted failed tries (``Strike``) move to the ground app (``tournaments``), which counts PIN guesses for
every channel; the table stays ``appeals_strike``: only Django's state changes, not the database."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("appeals", "0003_strike"),
        ("tournaments", "0010_strike"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=[migrations.DeleteModel(name="Strike")]),
    ]
