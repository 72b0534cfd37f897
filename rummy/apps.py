from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RummyConfig(AppConfig):
    name = "rummy"
    verbose_name = _("Games")
