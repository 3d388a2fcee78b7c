from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The REST API (``/api/``): thin views over the services of the other apps."""

    name = "api"
    verbose_name = "REST API"
