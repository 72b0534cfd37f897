"""The turn clock as ``make run`` starts it: its links point at the port it serves, and
it stops promptly (finishing the pass in progress) on SIGTERM or Ctrl-C."""

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
    for program in ("manage.py run_clock", "daphne"):
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


@pytest.fixture(scope="module")
def clock_db(tmp_path_factory):
    path = tmp_path_factory.mktemp("clock") / "clock.sqlite3"
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=_env(SQLITE_PATH=str(path)),
        capture_output=True,
        check=True,
    )
    return path


def first_line(process, timeout):
    """The process's first line of output, without hanging if it never comes."""
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], timeout)
    return process.stdout.readline() if ready else ""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_the_clock_stops_at_once_on_a_signal(clock_db, signum):
    clock = subprocess.Popen(
        [sys.executable, "manage.py", "run_clock", "--interval", "30"],
        cwd=ROOT,
        env=_env(SQLITE_PATH=str(clock_db)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        # The start line comes before the first pass; give that pass a moment so the
        # signal lands in the 30-second wait, which is what used to ignore it.
        assert "Turn clock running" in first_line(clock, timeout=20)
        time.sleep(1)
        clock.send_signal(signum)
        started = time.monotonic()
        assert clock.wait(timeout=5) == 0, clock.stderr.read() if clock.stderr else ""
        assert time.monotonic() - started < 5
    finally:
        if clock.poll() is None:
            clock.kill()
            clock.wait()
