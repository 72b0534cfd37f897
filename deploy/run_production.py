"""Start (and stop) the documented production topology on this machine.

    SECRET_KEY=... DATABASE_URL=postgres://... REDIS_URL=redis://.../0 \\
        .venv/bin/python deploy/run_production.py start SCRATCH_DIR
    .venv/bin/python deploy/run_production.py stop SCRATCH_DIR

What it starts, as README's "Running in production" describes it: nginx (Debian's
package, installed with apt-get when missing) with ``deploy/nginx.conf`` and a
self-signed certificate made here, two daphne workers behind it and the background
worker, on the PostgreSQL and Redis the environment names, with DEBUG off. Every port is
a free loopback port chosen here; everything it writes (nginx's configuration, the
certificate, collected static files, the VAPID key, logs, ``state.json``) goes into
SCRATCH_DIR. ``stop`` ends every process ``start`` started (their ids are in
``state.json``). The systemd units in ``deploy/systemd/`` run the same commands
(``web_command``, ``worker_command``; tests/stack/test_production.py compares them).

Only the Python standard library: it runs with the project's interpreter before
anything else is imported.
"""

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[1]
NGINX_SAMPLE = BASE_DIR / "deploy" / "nginx.conf"
HOST = "127.0.0.1"
WEB_WORKERS = 2
# The longest a socket may live (README, "Sockets"); the same in the systemd unit.
WEBSOCKET_TIMEOUT = 43200
# The background worker: one command, so that changing what runs the background work
# is a one-line change here (and in deploy/systemd/carousel-worker.service).
WORKER_COMMAND = ["manage.py", "run_worker"]
READY_TIMEOUT = 90


def bin_path(name):
    """A program of the interpreter's environment (the project's .venv)."""
    return str(Path(sys.executable).with_name(name))


def web_command(port):
    """One daphne worker. No --proxy-headers: the site reads X-Forwarded-For itself."""
    return [
        bin_path("daphne"),
        *("-b", HOST, "-p", str(port)),
        *("--websocket_timeout", str(WEBSOCKET_TIMEOUT)),
        "config.asgi:application",
    ]


def worker_command():
    return [sys.executable, *WORKER_COMMAND]


def process_env(scratch, https_port):
    """The workers' environment: the caller's (DATABASE_URL, REDIS_URL, CACHE_URL,
    SECRET_KEY, EMAIL_*...) with what this set-up decides."""
    origin = f"https://{HOST}:{https_port}"
    env = dict(os.environ)
    env.update(
        DEBUG="0",
        ALLOWED_HOSTS=HOST,  # nginx passes Host as $host: the name without the port
        CSRF_TRUSTED_ORIGINS=origin,
        SITE_URL=origin,
        TRUSTED_PROXY_COUNT="1",  # one nginx in front, writing X-Forwarded-For
        STATIC_ROOT=str(scratch / "staticfiles"),
        VAPID_KEY_FILE=str(scratch / "vapid-private.pem"),
        PYTHONUNBUFFERED="1",
        # Every process's metrics in one folder: a scrape of either web worker sums them
        # all (config/metrics.py). Emptied at each start.
        PROMETHEUS_MULTIPROC_DIR=str(scratch / "metrics"),
    )
    return env


def free_port():
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def nginx_binary():
    """Debian's nginx, installed when missing (None if that fails)."""
    install = ["apt-get", "install", "-y", "-q", "nginx"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for step in ([], [install], [["apt-get", "update", "-q"], install]):
        for args in step:
            subprocess.run(args, env=env, capture_output=True, check=False)
        found = shutil.which(
            "nginx", path=os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin"])
        )
        if found or not shutil.which("apt-get"):
            return found
    return None


def self_signed_certificate(scratch):
    cert, key = scratch / "cert.pem", scratch / "key.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            "-subj", f"/CN={HOST}", "-addext", f"subjectAltName=IP:{HOST}",
            "-keyout", str(key), "-out", str(cert),
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert, key


def replace_once(text, pattern, replacement):
    """The sample with one documented line changed; it must be there exactly once, so
    that a change to the sample that this set-up no longer matches fails loudly."""
    new, count = re.subn(pattern, replacement, text, flags=re.MULTILINE)
    if count != 1:
        raise RuntimeError(f"deploy/nginx.conf: expected one match of {pattern!r}, found {count}")
    return new


def site_config(web_ports, http_port, https_port, cert, key, static_root):
    """deploy/nginx.conf with this machine's ports and paths; the rest as it is."""
    text = NGINX_SAMPLE.read_text()
    upstream = "".join(f"    server {HOST}:{port};\n" for port in web_ports)
    text = re.sub(r"^    server 127\.0\.0\.1:\d+;\n", "", text, flags=re.MULTILINE)
    text = replace_once(text, r"^(upstream carousel \{\n(?:    #.*\n)*)", r"\g<1>" + upstream)
    text = replace_once(text, r"^    listen 80;", f"    listen {HOST}:{http_port};")
    text = replace_once(
        text, r"^    listen 443 ssl http2;", f"    listen {HOST}:{https_port} ssl http2;"
    )
    text = replace_once(
        text,
        r"return 301 https://\$host\$request_uri;",
        f"return 301 https://$host:{https_port}$request_uri;",
    )
    text = replace_once(text, r"^    ssl_certificate .*;", f"    ssl_certificate     {cert};")
    text = replace_once(text, r"^    ssl_certificate_key .*;", f"    ssl_certificate_key {key};")
    return replace_once(
        text, r"^        alias /srv/carousel/staticfiles/;", f"        alias {static_root}/;"
    )


def main_config(scratch):
    """nginx's own frame around the site: everything in the scratch directory."""
    temp = scratch / "nginx-temp"
    temp.mkdir(exist_ok=True)
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers read the scratch files
    paths = "".join(
        f"    {kind}_temp_path {temp / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"{user}daemon off;\nworker_processes 1;\npid {scratch / 'nginx.pid'};\n"
        f"error_log {scratch / 'nginx-error.log'};\n"
        "events { worker_connections 512; }\n"
        "http {\n    include /etc/nginx/mime.types;\n    default_type application/octet-stream;\n"
        f"    access_log {scratch / 'nginx-access.log'};\n{paths}"
        f"    include {scratch / 'carousel.conf'};\n}}\n"
    )


def spawn(args, env, scratch, name):
    log = open(scratch / f"{name}.log", "ab")  # noqa: SIM115 (the child holds it)
    with log:
        return subprocess.Popen(
            args,
            cwd=BASE_DIR,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        ).pid


def manage(env, *args):
    subprocess.run(
        [sys.executable, "manage.py", *args], cwd=BASE_DIR, env=env, check=True, capture_output=True
    )


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def wait_ok(url, pids, timeout=READY_TIMEOUT):
    """Until ``url`` answers 200 (the certificate is our own: not verified here)."""
    context = ssl._create_unverified_context()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        dead = [name for name, pid in pids.items() if not alive(pid)]
        if dead:
            raise RuntimeError(f"exited during start: {', '.join(dead)}")
        try:
            with urllib.request.urlopen(url, timeout=2, context=context) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} not ready in {timeout}s")


def start(scratch):
    scratch = Path(scratch).resolve()
    scratch.mkdir(parents=True, exist_ok=True)
    for name in ("SECRET_KEY", "DATABASE_URL", "REDIS_URL"):
        if not os.environ.get(name):
            raise SystemExit(f"{name} must be set (README, 'Running in production')")
    nginx = nginx_binary()
    if not nginx:
        raise SystemExit("nginx is not installed and apt-get could not install it")
    web_ports = [free_port() for _ in range(WEB_WORKERS)]
    http_port, https_port = free_port(), free_port()
    env = process_env(scratch, https_port)
    shutil.rmtree(env["PROMETHEUS_MULTIPROC_DIR"], ignore_errors=True)
    Path(env["PROMETHEUS_MULTIPROC_DIR"]).mkdir()
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput")
    manage(env, "vapid_keys", "--file", env["VAPID_KEY_FILE"])
    cert, key = self_signed_certificate(scratch)
    (scratch / "carousel.conf").write_text(
        site_config(web_ports, http_port, https_port, cert, key, scratch / "staticfiles")
    )
    (scratch / "nginx.conf").write_text(main_config(scratch))
    nginx_args = [
        nginx,
        "-p",
        str(scratch),
        "-c",
        str(scratch / "nginx.conf"),
        "-e",
        str(scratch / "nginx-error.log"),
    ]
    subprocess.run([*nginx_args, "-t"], check=True, capture_output=True)
    commands = {f"web-{n + 1}": web_command(port) for n, port in enumerate(web_ports)}
    commands["worker"] = worker_command()
    commands["nginx"] = nginx_args
    state = {
        "url": f"https://{HOST}:{https_port}",
        "http_port": http_port,
        "https_port": https_port,
        "web_ports": web_ports,
        "cert": str(cert),
        "commands": commands,
        "pids": {},
    }
    state_file = scratch / "state.json"
    try:
        for name, args in commands.items():
            state["pids"][name] = spawn(args, env, scratch, name)
            state_file.write_text(json.dumps(state, indent=2))
        for port in web_ports:
            wait_ok(f"http://{HOST}:{port}/healthz/live", state["pids"])
        wait_ok(f"{state['url']}/healthz", state["pids"])
    except BaseException:
        stop(scratch)
        raise
    return state


def stop(scratch):
    """End every process ``start`` recorded (each leads its own process group)."""
    state_file = Path(scratch) / "state.json"
    if not state_file.exists():
        return
    pids = json.loads(state_file.read_text())["pids"]
    for pid in pids.values():
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGTERM)
    deadline = time.monotonic() + 15
    while any(alive(pid) for pid in pids.values()) and time.monotonic() < deadline:
        time.sleep(0.1)
    for pid in pids.values():
        if alive(pid):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)


def main(argv):
    if len(argv) != 3 or argv[1] not in ("start", "stop"):
        raise SystemExit(f"usage: {argv[0]} start|stop SCRATCH_DIR")
    if argv[1] == "start":
        try:
            state = start(argv[2])
        except (RuntimeError, subprocess.CalledProcessError) as error:
            detail = getattr(error, "stderr", b"") or b""
            raise SystemExit(
                f"could not start: {error}\n{detail.decode(errors='replace')}"
            ) from error
        print(state["url"])
    else:
        stop(argv[2])


if __name__ == "__main__":
    main(sys.argv)
