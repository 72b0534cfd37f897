from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    # An app of its own (label "ratings") because its history rows point at rummy's
    # games: its migrations come after both leagues' and rummy's, with no cycle.
    name = "leagues.ratings"
    label = "ratings"
    verbose_name = _("Ratings")
