import signal
import threading
import time

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import close_old_connections
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rummy.background import background_pass, bot_poll


class Command(BaseCommand):
    help = _("Run the turn clock: play timeouts for turns whose deadline has passed.")

    def add_arguments(self, parser):
        parser.add_argument(
            "--interval",
            type=float,
            default=settings.CLOCK_INTERVAL,
            help=_("Seconds between passes."),
        )
        parser.add_argument(
            "--bot-poll",
            type=float,
            default=settings.BOT_POLL_INTERVAL,
            help=_("Seconds between looks for bot turns that are due."),
        )
        parser.add_argument("--once", action="store_true", help=_("Run one pass and exit."))

    def handle(self, *args, interval, once, bot_poll, **options):
        # An Event, not time.sleep: the signal handler sets it, so a stop request ends
        # the wait at once instead of after up to ``interval`` seconds (a supervisor
        # would otherwise give up and SIGKILL the clock). A pass in progress is never cut
        # short: the handler only sets the flag, and the loop checks it between passes.
        self.stopping = threading.Event()
        # Restored on the way out, so that call_command (the tests) leaves the caller's
        # own Ctrl-C and SIGTERM handling as it was.
        previous = {
            signum: signal.signal(signum, self._stop) for signum in (signal.SIGTERM, signal.SIGINT)
        }
        try:
            self._loop(interval, once, bot_poll)
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)

    def _loop(self, interval, once, poll):
        # Says it is up (and flushed, so a supervisor's log or a test sees it at once).
        self.stdout.write(
            _("Turn clock running: a pass every %(seconds)s seconds.")
            % {"seconds": f"{interval:g}"}
        )
        self.stdout.flush()
        # Bots must answer within about a second, the deadlines and emails only every
        # ``interval``: one loop does both, the full pass when its time has come and the
        # cheap bot poll (one indexed query when no bot is due) every ``poll`` seconds.
        # Kept in this one process rather than a task library: the due work is already
        # data in the games table, and one more long-running worker would buy nothing.
        next_pass = time.monotonic()
        while not self.stopping.is_set():
            if time.monotonic() >= next_pass:
                self._pass()
                next_pass = time.monotonic() + interval
            self._bots()
            wait = max(0.0, min(poll, next_pass - time.monotonic()))
            if once or self.stopping.wait(wait):
                break
            # A long-running process must not keep a connection the server dropped.
            close_old_connections()
        self.stdout.write(_("Turn clock stopped."))

    def _pass(self):
        try:
            played = background_pass()
        except Exception as error:  # a database hiccup must not kill the clock
            self.stderr.write(f"clock pass failed: {error!r}")
            played = 0
        if played:
            self.stdout.write(
                ngettext("%(n)d timeout played", "%(n)d timeouts played", played) % {"n": played}
            )

    def _bots(self):
        try:
            bot_poll()
        except Exception as error:  # nor a failing bot poll
            self.stderr.write(f"bot poll failed: {error!r}")

    def _stop(self, *args):
        self.stopping.set()
