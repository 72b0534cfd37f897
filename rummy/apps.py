from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from config import metrics


class RummyConfig(AppConfig):
    name = "rummy"
    verbose_name = _("Games")

    def ready(self):
        from config import caches
        from rummy.background import tasks
        from rummy.engine import melds
        from rummy.signals import game_finished

        # The pure engine's meld verdicts, emptied with every other per-process cache.
        caches.register("rummy.engine.melds", melds.forget_verdicts, melds.verdicts_held)

        # Connects the log-out and password-change hooks that close sockets.
        from rummy.table import sockets  # noqa: F401

        # Every background job finished is counted for the metrics, in any process.
        metrics.watch_jobs()

        # A finished game's rating is background work, offered once the game is saved.
        game_finished.connect(
            tasks.on_game_finished, dispatch_uid="rummy.background.tasks.on_game_finished"
        )
