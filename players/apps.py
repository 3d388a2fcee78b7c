from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayersConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "players"
    verbose_name = _("Players across events")

    def ready(self) -> None:
        # Master points and ratings follow final results changed by a rescore (docs/players/master-points.md).
        from players.services.points import connect

        connect()
