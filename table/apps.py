from django.apps import AppConfig


class TableConfig(AppConfig):
    """Players at the table: the entry page a table card opens, and the players' entry workflow."""

    name = "table"
    verbose_name = "Table entry"
