"""The background worker as ``make run`` and production start it: its links point at the
port the site serves, it stops at once on SIGTERM or Ctrl-C while it waits, and a
SIGTERM during a job lets the job finish before it exits."""

import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)


def _env(**extra):
    # The subprocesses run on their own SQLite file, whatever this run's database is.
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "SITE_URL"}}
    env.update(PYTHONUNBUFFERED="1", **extra)
    return env


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_make_run_on_another_port_links_to_that_port():
    dry = subprocess.run(
        ["make", "-n", "run", "PORT=8100"],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for program in ("manage.py run_worker", "daphne"):
        (line,) = [line for line in dry.splitlines() if program in line]
        # Run the line's own SITE_URL assignment in a shell with SITE_URL unset.
        assignment = re.search(r"SITE_URL=\S+", line)
        assert assignment, f"{program} gets no SITE_URL: {line}"
        url = subprocess.run(
            ["sh", "-c", f"{assignment.group()} sh -c 'echo $SITE_URL'"],
            env=_env(),
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        assert url == "http://127.0.0.1:8100", program


@pytest.fixture
def worker_db(tmp_path):
    path = tmp_path / "worker.sqlite3"
    _manage(path, "migrate", "--noinput")
    return path


def _manage(db, *args):
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=_env(SQLITE_PATH=str(db)),
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def _start_worker(db, threads=1):
    return subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "run_worker",
            "--look-every",
            "30",
            "--threads",
            str(threads),
        ],
        cwd=ROOT,
        env=_env(SQLITE_PATH=str(db)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def first_line(process, timeout):
    """The process's first line of output, without hanging if it never comes."""
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], timeout)
    return process.stdout.readline() if ready else ""


def _stopped(process):
    if process.poll() is None:
        process.kill()
        process.wait()


def _wait_for(path, process, timeout=60):
    stop = time.monotonic() + timeout
    while not path.exists():
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        assert time.monotonic() < stop, f"{path.name} never came"
        time.sleep(0.05)


@pytest.mark.parametrize(
    ("signum", "threads"), [(signal.SIGTERM, 1), (signal.SIGINT, 1), (signal.SIGTERM, 3)]
)
def test_the_worker_stops_at_once_on_a_signal_while_it_waits(worker_db, signum, threads):
    worker = _start_worker(worker_db, threads)
    try:
        assert "Background worker running" in first_line(worker, timeout=30)
        worker.send_signal(signum)
        assert worker.wait(timeout=20) == 0, worker.stderr.read() if worker.stderr else ""
    finally:
        _stopped(worker)


@pytest.mark.parametrize("threads", [1, 3])
def test_sigterm_during_a_job_lets_the_job_finish_then_the_worker_exits(
    worker_db, tmp_path, threads
):
    _manage(
        worker_db,
        "shell",
        "-v",
        "0",
        "-c",
        "from tests.rummy.background.slow import wait_for_go; "
        f"wait_for_go.enqueue({str(tmp_path)!r})",
    )
    # With several threads, the others wait for jobs meanwhile: they stop, this one not.
    worker = _start_worker(worker_db, threads)
    try:
        _wait_for(tmp_path / "started", worker)
        worker.send_signal(signal.SIGTERM)
        # The job is still running, and the worker with it, until the job may end.
        time.sleep(0.5)
        assert worker.poll() is None and not (tmp_path / "finished").exists()
        (tmp_path / "go").touch()
        assert worker.wait(timeout=30) == 0, worker.stderr.read() if worker.stderr else ""
    finally:
        _stopped(worker)
    assert (tmp_path / "finished").exists()
    status = _manage(
        worker_db,
        "shell",
        "-v",
        "0",
        "-c",
        "from django_tasks_db.models import DBTaskResult; "
        "print(*DBTaskResult.objects.filter(task_path__endswith='wait_for_go')"
        ".values_list('status', flat=True))",
    )
    assert status.split() == ["SUCCESSFUL"]
