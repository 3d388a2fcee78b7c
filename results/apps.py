from django.apps import AppConfig


class ResultsConfig(AppConfig):
    """Results pages and generated files (standings, protocols, cards, exports, printed materials)."""

    name = "results"
    verbose_name = "Results and files"
