"""A background worker: the database backend's worker (django-tasks-db's ``db_worker``),
in ``--threads`` threads of one process, with the look for due work
(``rummy.background.scan``) beside them, in a thread of its own. Run any number of them,
on any machine that reaches the database.

Several threads, because a job mostly waits for the database (its queries and commits,
the queue's own claim and finish), not for the CPU: one thread leaves the core idle while
it waits; a few keep it busy. Each thread has its own connection and claims its own
jobs, exactly as separate workers would.
"""

import logging
import signal
import sys
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
                    scan.look(ahead=self.interval)
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


class Threads:
    """``workers`` (the backend's ``Worker``), each running in a thread of its own.

    The signals are this process's, not each worker's: the first SIGTERM or SIGINT tells
    every thread to stop once its job is done (one waiting for a job stops within its
    poll interval) and ``run`` returns when all have; a second one exits at once."""

    def __init__(self, workers):
        self.workers = workers
        self.stopping = False

    def _run(self, worker):
        try:
            worker.run()
        except Exception:
            log.exception("a worker thread stopped")
        finally:
            connections.close_all()

    def shutdown(self, signum, frame):
        if self.stopping:
            self.reset_signals()
            sys.exit(1)
        self.stopping = True
        for worker in self.workers:
            worker.running = False

    def configure_signals(self):
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT):
            signal.signal(signum, self.shutdown)

    def reset_signals(self):
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT):
            signal.signal(signum, signal.SIG_DFL)

    def run(self):
        # Daemon threads: a second signal's exit does not wait for them.
        threads = [
            threading.Thread(target=self._run, args=(w,), name=f"worker-{i}", daemon=True)
            for i, w in enumerate(self.workers)
        ]
        for thread in threads:
            thread.start()
        # Joined with a timeout, so that the main thread runs the signal handlers.
        while any(thread.is_alive() for thread in threads):
            for thread in threads:
                thread.join(timeout=0.2)


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
        parser.add_argument(
            "--threads",
            type=int,
            default=settings.WORKER_THREADS,
            help=_("How many jobs this worker runs at once, each in a thread of its own."),
        )
        # The worker's own wait for a job, when there is none (seconds).
        parser.set_defaults(interval=settings.BOT_POLL_INTERVAL)

    def handle(
        self, *, verbosity, interval, look_every, once, threads, max_tasks, worker_id, **options
    ):
        self.configure_logging(verbosity)
        worker_id = worker_id or get_random_string(32)

        def worker():
            return Worker(
                queue_names=["*"],
                interval=interval,
                batch=once,
                backend_name=DEFAULT_TASK_BACKEND_ALIAS,
                startup_delay=not once,
                max_tasks=max_tasks,
                # One id for the process's threads: the queue's rows say which worker
                # (process, machine) ran a job, the one an operator starts and stops.
                worker_id=worker_id,
                excluded_queue_names=[],
            )

        if once:
            # In this process and this thread, signals left as they were (the tests call
            # this).
            scan.look()
            worker().run()
            return
        # SIGTERM or SIGINT: each thread finishes the job it is running, then returns (or,
        # waiting for one, at once); the looker stops with them.
        pool = Threads([worker() for _ in range(max(threads, 1))])
        pool.configure_signals()
        looker = Looker(look_every)
        looker.start()
        try:
            # Says it is up (and flushed, so a supervisor's log or a test sees it at once).
            self.stdout.write(
                _("Background worker running: a look for due work every %(seconds)s seconds.")
                % {"seconds": f"{look_every:g}"}
            )
            self.stdout.flush()
            pool.run()
        finally:
            looker.stop()
            pool.reset_signals()
            self.stdout.write(_("Background worker stopped."))
            self.stdout.flush()
