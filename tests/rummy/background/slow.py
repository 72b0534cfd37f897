"""A job for the worker tests: says it started, waits for a file, says it finished."""

import time
from pathlib import Path

from django_tasks import task


@task()
def wait_for_go(folder):
    folder = Path(folder)
    (folder / "started").touch()
    # Bounded, so that a test gone wrong never leaves a worker behind for long.
    stop = time.monotonic() + 60
    while not (folder / "go").exists() and time.monotonic() < stop:
        time.sleep(0.05)
    (folder / "finished").touch()
    return "done"
