from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AppealsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "appeals"
    verbose_name = _("Rulings and appeals")
