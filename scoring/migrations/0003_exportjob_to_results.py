"""ExportJob moved to the results app: dropped from this app's state only; its table stays as it is."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0002_exportjob"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="ExportJob")],
            database_operations=[],
        ),
    ]
