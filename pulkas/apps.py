from django.apps import AppConfig


def _pulka_table_has(code: str) -> bool:
    from pulkas.models import PulkaTable

    return PulkaTable.objects.filter(code=code).exists()


class PulkasConfig(AppConfig):
    """Events played as whole games (pulkas): Olympic, compensation and Swiss rounds, the sheet at the table."""

    name = "pulkas"
    verbose_name = "Pulka events"

    def ready(self) -> None:
        from tournaments.table_codes import holds_table_codes

        holds_table_codes(_pulka_table_has)  # a code is unique across both forms (tournaments.table_codes)
