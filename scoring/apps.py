from django.apps import AppConfig


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from scoring.sqlite import on_connection_created

        connection_created.connect(on_connection_created, dispatch_uid="scoring.sqlite.pragmas")
