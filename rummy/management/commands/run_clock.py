import signal
import time

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import close_old_connections
from django.utils.translation import gettext as _

from rummy.background import background_pass


class Command(BaseCommand):
    help = _("Run the turn clock: play timeouts for turns whose deadline has passed.")

    def add_arguments(self, parser):
        parser.add_argument(
            "--interval",
            type=float,
            default=settings.CLOCK_INTERVAL,
            help=_("Seconds between passes."),
        )
        parser.add_argument("--once", action="store_true", help=_("Run one pass and exit."))

    def handle(self, *args, interval, once, **options):
        self.running = True
        signal.signal(signal.SIGTERM, self._stop)
        while self.running:
            try:
                played = background_pass()
            except Exception as error:  # a database hiccup must not kill the clock
                self.stderr.write(f"clock pass failed: {error!r}")
                played = 0
            if played:
                self.stdout.write(_("%(n)d timeout(s) played") % {"n": played})
            if once:
                break
            time.sleep(interval)
            # A long-running process must not keep a connection the server dropped.
            close_old_connections()

    def _stop(self, *args):
        self.running = False
