from django.apps import AppConfig


class PulkasConfig(AppConfig):
    """Events played as whole games (pulkas): Olympic, compensation and Swiss rounds, the sheet at the table."""

    name = "pulkas"
    verbose_name = "Pulka events"
