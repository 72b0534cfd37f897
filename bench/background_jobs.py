"""The empty job of ``bench/background.py``: what the queue costs when the job costs nothing."""

from django_tasks import task


@task()
def noop():
    return None
