"""Real ASGI server processes for the stack proofs (and the load benchmark).

``start_servers(n, env)`` starts ``n`` daphne processes on free loopback ports with the
given environment, waits until each answers ``/healthz`` and returns them; ``stop``
ends them. Loopback only, always: nothing here listens on or talks to another address.
"""

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
DAPHNE = str(Path(sys.executable).with_name("daphne"))
HOST = "127.0.0.1"


def free_port():
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


@dataclass
class Server:
    port: int
    env: dict
    log_path: Path
    process: subprocess.Popen | None = None
    _log: object = field(default=None, repr=False)

    @property
    def base_url(self):
        return f"http://{HOST}:{self.port}"

    @property
    def ws_url(self):
        return f"ws://{HOST}:{self.port}"

    def spawn(self):
        self._log = open(self.log_path, "ab")  # noqa: SIM115 (kept open while it runs)
        self.process = subprocess.Popen(
            [DAPHNE, "-b", HOST, "-p", str(self.port), "config.asgi:application"],
            cwd=BASE_DIR,
            env=self.env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        return self

    def start(self, timeout=30):
        self.spawn()
        self.wait_ready(timeout)
        return self

    def wait_ready(self, timeout=30):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"daphne on {self.port} exited:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.base_url}/healthz/live", timeout=2) as reply:
                    if reply.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"daphne on {self.port} not ready in {timeout}s:\n{self.log_tail()}")

    def kill(self, sig=signal.SIGKILL):
        """Kill the process (SIGKILL by default: a crash, no clean shutdown)."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(10)

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        if self._log:
            self._log.close()
            self._log = None

    def restart(self, timeout=30):
        self.stop()
        return self.start(timeout)

    def log_tail(self, chars=4000):
        try:
            return self.log_path.read_bytes()[-chars:].decode(errors="replace")
        except OSError:
            return ""


def server_env(database_url, redis_url=None, **extra):
    """The environment of a server process: the caller's, with the stack's variables."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env["DATABASE_URL"] = database_url
    if redis_url:
        env["REDIS_URL"] = redis_url
    else:
        env.pop("REDIS_URL", None)
    env.setdefault("PYTHONUNBUFFERED", "1")
    env.update({k: str(v) for k, v in extra.items()})
    return env


def start_servers(n, env, log_dir, timeout=30, ports=None):
    """``ports``: the ports to listen on (chosen here when not given)."""
    ports = ports or [free_port() for _ in range(n)]
    servers = [Server(ports[i], env, Path(log_dir) / f"daphne-{i}.log") for i in range(n)]
    started = []
    try:
        for server in servers:
            # Start them all, then wait: two Django start-ups overlap on two cores.
            started.append(server.spawn())
        for server in servers:
            server.wait_ready(timeout)
    except BaseException:
        stop(started)
        raise
    return servers


def stop(servers):
    for server in servers:
        server.stop()
