"""What the task queue looks like, for the health endpoint (``/healthz/queue``) and the
operators' command (``manage.py queue_status``), and its upkeep (``tidy``).

The database backend does not notice a worker that died: the job it was running stays
``RUNNING``. The work itself is found again by the next look (``keys``); ``tidy`` only
marks such rows failed, so that the figures here stay true, and deletes old rows.
"""

from datetime import timedelta

from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult, get_date_max

from rummy.models import JobKey

# A job still RUNNING after this has lost its worker (every job's lease is far shorter).
LOST_AFTER = timedelta(minutes=10)
# The queue keeps up while its oldest due job has waited less than this.
BEHIND_AFTER = timedelta(seconds=60)
# Jobs done are kept this long, then deleted (a bot's every move is one: the table
# would grow by millions a day); failed ones, and keys that expired, a day (the
# failures of the last hour are counted from them, and their tracebacks read).
KEEP_DONE = timedelta(hours=1)
KEEP = timedelta(days=1)

LOST = "rummy.background.queue.WorkerLost"


def status(now=None) -> dict:
    """Queue depth (jobs due and waiting), the oldest due job's age in seconds, jobs
    running, failures in the last hour, and whether the queue keeps up."""
    now = now or timezone.now()
    due = DBTaskResult.objects.ready()
    # A job is due from when it was enqueued, or, one enqueued ahead of time (a bot turn
    # due before the next look), from the time it was to run.
    never = get_date_max()
    since = [
        due.filter(run_after=never).order_by("enqueued_at").values_list("enqueued_at").first(),
        due.exclude(run_after=never).order_by("run_after").values_list("run_after").first(),
    ]
    oldest = min((first[0] for first in since if first), default=None)
    age = max((now - oldest).total_seconds(), 0.0) if oldest else 0.0
    return {
        "depth": due.count(),
        "oldest_due_seconds": round(age, 1),
        "running": DBTaskResult.objects.running().count(),
        "failed_last_hour": DBTaskResult.objects.failed()
        .filter(finished_at__gte=now - timedelta(hours=1))
        .count(),
        "keeping_up": age < BEHIND_AFTER.total_seconds(),
    }


def tidy(now=None) -> int:
    """Mark the jobs of dead workers failed; delete old jobs and expired keys.
    Returns how many jobs were found lost."""
    now = now or timezone.now()
    lost = DBTaskResult.objects.running().filter(started_at__lt=now - LOST_AFTER)
    found = lost.update(
        status=TaskResultStatus.FAILED,
        finished_at=now,
        exception_class_path=LOST,
        traceback="The worker running this job stopped before it finished.",
    )
    DBTaskResult.objects.successful().filter(finished_at__lt=now - KEEP_DONE).delete()
    DBTaskResult.objects.failed().filter(finished_at__lt=now - KEEP).delete()
    JobKey.objects.filter(leased_until__lt=now - KEEP).delete()
    return found
