"""The site's metrics in Prometheus' format (prometheus_client): requests, sockets, game
actions and background jobs. Served at ``/metrics`` (config.urls) to a scraper holding
``METRICS_TOKEN`` as a bearer token, or to a staff user; anyone else gets a 404.

Several processes, one answer: each daphne worker and background worker counts in its
own memory, so a scrape of one worker would see a fraction. With
``PROMETHEUS_MULTIPROC_DIR`` set (it must be, before this module is imported, in every
process of the machine: deploy/run_production.py and the systemd units set it) the
client's multiprocess mode is used: every process writes its values to files in that
folder, and a scrape of any worker sums them all (``collect``). Counters of processes
that exited stay in the sum (a restart does not reset a total); the open-socket gauge
counts live processes only: a scrape first drops the gauge files of processes that no
longer exist (a killed worker never says so itself). Background workers on another
machine write to their own folder, which nothing scrapes: their work shows in the
queue's figures instead, which every scrape reads from the database. Without the
variable (``make run``, the tests) the process's own registry is served.
"""

import os
import re
from pathlib import Path

MULTIPROCESS_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
if MULTIPROCESS_DIR:
    # The client writes its files there from the first metric made (below).
    os.makedirs(MULTIPROCESS_DIR, exist_ok=True)

from prometheus_client import (  # noqa: E402 (the folder must exist first)
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

REQUESTS = Counter(
    "carousel_http_requests",
    "HTTP requests answered, by method and status class",
    ["method", "status"],
)
REQUEST_SECONDS = Histogram(
    "carousel_http_request_seconds",
    "Time from the request reaching Django to its answer",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
SOCKETS_OPEN = Gauge("carousel_websockets_open", "WebSockets open now", multiprocess_mode="livesum")
SOCKETS_OPENED = Counter("carousel_websockets_opened", "WebSockets accepted")
ACTIONS = Counter(
    "carousel_game_actions",
    "Actions of the game page, by control and outcome (applied, draft, refused)",
    ["action", "outcome"],
)
JOBS = Counter(
    "carousel_background_jobs", "Background jobs finished, by task and status", ["task", "status"]
)
JOB_SECONDS = Histogram(
    "carousel_background_job_seconds",
    "Time a background job ran",
    ["task"],
    buckets=(0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300),
)

LIVE_GAUGE_FILE = re.compile(r"^gauge_live\w*?_(\d+)\.db$")


def status_class(status: int) -> str:
    return f"{status // 100}xx"


def _sweep_dead_processes() -> None:
    """Drop the live-gauge files of processes that are gone (killed, or exited)."""
    for path in Path(MULTIPROCESS_DIR).glob("gauge_live*.db"):
        match = LIVE_GAUGE_FILE.match(path.name)
        if match and not Path(f"/proc/{match.group(1)}").exists():
            multiprocess.mark_process_dead(int(match.group(1)), MULTIPROCESS_DIR)


def collect(*extra) -> tuple[bytes, str]:
    """The exposition of every process of this machine (or of this one alone), with the
    ``extra`` collectors (figures read at scrape time) after it."""
    if MULTIPROCESS_DIR:
        _sweep_dead_processes()
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, MULTIPROCESS_DIR)
        body = generate_latest(registry)
    else:
        body = generate_latest(REGISTRY)
    if extra:
        scraped = CollectorRegistry(auto_describe=False)
        for collector in extra:
            scraped.register(collector)
        body += generate_latest(scraped)
    return body, CONTENT_TYPE_LATEST


class CountSockets:
    """ASGI wrapper of the WebSocket application: a socket counts as open from its
    accept until its application ends."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        accepted = False

        async def counting_send(message):
            nonlocal accepted
            if message.get("type") == "websocket.accept" and not accepted:
                accepted = True
                SOCKETS_OPEN.inc()
                SOCKETS_OPENED.inc()
            await send(message)

        try:
            return await self.app(scope, receive, counting_send)
        finally:
            if accepted:
                SOCKETS_OPEN.dec()


def job_finished(sender, task_result, **kwargs) -> None:
    """django-tasks' ``task_finished``: one job done, with its status and time."""
    task = getattr(task_result.task, "name", "unknown")
    status = getattr(task_result.status, "value", task_result.status)
    JOBS.labels(task, str(status).lower()).inc()
    if task_result.started_at and task_result.finished_at:
        seconds = (task_result.finished_at - task_result.started_at).total_seconds()
        JOB_SECONDS.labels(task).observe(max(seconds, 0.0))


def watch_jobs() -> None:
    from django_tasks.signals import task_finished

    task_finished.connect(job_finished, dispatch_uid="carousel-job-metrics")
