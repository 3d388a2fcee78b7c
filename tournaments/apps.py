from django.apps import AppConfig


def _duplicate_table_has(code: str) -> bool:
    from tournaments.models import Table

    return Table.objects.filter(code=code).exists()


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from tournaments.table_codes import holds_table_codes

        holds_table_codes(
            _duplicate_table_has
        )  # a code is unique across both forms (tournaments.table_codes)
