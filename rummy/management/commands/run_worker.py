"""A background worker: the database backend's worker (django-tasks-db's ``db_worker``)
with the look for due work (``rummy.background.scan``) beside it, in a thread of its own.
Run any number of them, on any machine that reaches the database."""

import logging
import threading

from django.conf import settings
from django.db import close_old_connections, connections
from django.utils.crypto import get_random_string
from django.utils.translation import gettext as _
from django_tasks import DEFAULT_TASK_BACKEND_ALIAS
from django_tasks_db.management.commands.db_worker import Command as DatabaseWorkerCommand
from django_tasks_db.management.commands.db_worker import Worker

from rummy.background import scan

log = logging.getLogger(__name__)


class Looker(threading.Thread):
    """Looks for due work every ``interval`` seconds until stopped. A failed look (the
    database restarting) is logged and the next one comes as usual."""

    def __init__(self, interval):
        super().__init__(name="look-for-due-work", daemon=True)
        self.interval = interval
        self.stopping = threading.Event()

    def run(self):
        try:
            while not self.stopping.is_set():
                try:
                    scan.look()
                except Exception:
                    log.exception("the look for due work failed")
                # A long-running thread must not keep a connection the server dropped.
                close_old_connections()
                self.stopping.wait(self.interval)
        finally:
            connections.close_all()

    def stop(self):
        self.stopping.set()
        self.join(timeout=30)


class Command(DatabaseWorkerCommand):
    help = _(
        "Run a background worker: look for due work (timeouts, bot turns, emails and "
        "pushes, reviews) and run the jobs of the queue. SIGTERM or Ctrl-C: finish the "
        "job in progress, then stop."
    )

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument(
            "--look-every",
            type=float,
            default=settings.BOT_POLL_INTERVAL,
            help=_("Seconds between looks for due work."),
        )
        parser.add_argument(
            "--once",
            action="store_true",
            help=_("Look for due work once, run every job it finds, and exit."),
        )
        # The worker's own wait for a job, when there is none (seconds).
        parser.set_defaults(interval=settings.BOT_POLL_INTERVAL)

    def handle(self, *, verbosity, interval, look_every, once, max_tasks, worker_id, **options):
        self.configure_logging(verbosity)
        worker = Worker(
            queue_names=["*"],
            interval=interval,
            batch=once,
            backend_name=DEFAULT_TASK_BACKEND_ALIAS,
            startup_delay=not once,
            max_tasks=max_tasks,
            worker_id=worker_id or get_random_string(32),
            excluded_queue_names=[],
        )
        if once:
            # In this process, signals left as they were (the tests call this).
            scan.look()
            worker.run()
            return
        # SIGTERM or SIGINT: the worker finishes the job it is running, then returns (or,
        # waiting for one, exits at once); the looker stops with it.
        worker.configure_signals()
        looker = Looker(look_every)
        looker.start()
        try:
            # Says it is up (and flushed, so a supervisor's log or a test sees it at once).
            self.stdout.write(
                _("Background worker running: a look for due work every %(seconds)s seconds.")
                % {"seconds": f"{look_every:g}"}
            )
            self.stdout.flush()
            worker.run()
        finally:
            looker.stop()
            worker.reset_signals()
            self.stdout.write(_("Background worker stopped."))
            self.stdout.flush()
