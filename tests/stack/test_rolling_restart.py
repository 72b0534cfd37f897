"""An upgrade without a lost move: bench/load.py --rolling-restart, at a small scale.
While players act as fast as the servers answer, each of the two daphne workers in
turn is stopped with SIGTERM and started again (the next only once the first answers),
then the background worker. Each worker drains and exits by itself (the requests in
progress answer, the sockets close as "restarting": config/shutdown.py); every action a
player sent is in the game's log exactly once, every dropped socket reopened by itself,
and every game's log is contiguous and replays (verify_games). The same with SIGKILL,
a crash: a request cut off mid-move is sent again at the same version, and the write
path's version check makes it land once."""

import json
import os
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest

pytestmark = pytest.mark.stack

BASE_DIR = Path(__file__).resolve().parents[2]


def rolling_restart(tmp_path, signal):
    url = urllib.parse.urlsplit(os.environ["DATABASE_URL"])
    summary = tmp_path / "summary.json"
    run = subprocess.run(
        [
            sys.executable,
            str(BASE_DIR / "bench" / "load.py"),
            *("--stack", "pg", "--players", "8", "--games", "4"),
            *("--duration", "10", "--rate", "0", "--baseline-seconds", "0.5"),
            *("--pg-url", f"{url.scheme}://{url.netloc}"),
            *("--pg-db", f"{url.path.lstrip('/')}_rolling"),
            *("--redis-url", os.environ["REDIS_URL"]),
            *("--rolling-restart", "--restart-signal", signal, "--summary", str(summary)),
        ],
        cwd=BASE_DIR,
        capture_output=True,
        text=True,
        timeout=540,
        check=False,
    )
    assert summary.exists(), run.stdout[-3000:] + run.stderr[-3000:]
    print(run.stdout[-2000:])
    return run, json.loads(summary.read_text())


def test_restarting_every_worker_under_load_loses_no_move_and_applies_none_twice(tmp_path):
    run, figures = rolling_restart(tmp_path, "SIGTERM")
    names = [name for name, _exited, _by_itself, _back in figures["restarts"]]
    assert names == ["web-1", "web-2", "worker"]
    # Each drained and exited by itself: none had to be killed (config/shutdown.py).
    assert all(by_itself for _name, _exited, by_itself, _back in figures["restarts"])
    assert figures["logged"] > 0 and figures["sent"] == figures["logged"]
    assert figures["failed"] == 0
    assert figures["duplicates"] == 0
    assert figures["socket_drops"] > 0  # the restarts did cut sockets
    assert figures["sockets_still_down"] == 0
    assert figures["contiguous"] is True
    assert figures["replayed"] is True
    assert run.returncode == 0, run.stdout[-3000:]


def test_killing_every_worker_under_load_loses_no_move_and_applies_none_twice(tmp_path):
    run, figures = rolling_restart(tmp_path, "SIGKILL")
    assert figures["failed"] == 0 and figures["duplicates"] == 0
    assert figures["sent"] == figures["logged"] > 0
    assert figures["sockets_still_down"] == 0 < figures["socket_drops"]
    assert figures["contiguous"] is True and figures["replayed"] is True
    assert run.returncode == 0, run.stdout[-3000:]
