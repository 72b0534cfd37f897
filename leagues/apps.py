from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = _("Leagues")

    def ready(self):
        # PostgreSQL timestamps parsed in C, as Django would read them (config.db.timestamps).
        from config.db import timestamps

        timestamps.install()

        # Django's place for wiring signals: rummy tells us that a game finished, and
        # the season's standings follow.
        from leagues import standings
        from rummy.public import game_finished

        game_finished.connect(
            standings.on_game_finished, dispatch_uid="leagues.standings.on_game_finished"
        )
