"""What an open socket costs a web worker while nothing happens: its memory, and the CPU
of its upkeep, on one daphne worker.

    python bench/sockets.py --stack default --sockets 1000
    python bench/sockets.py --stack pg --pg-db carousel_bench_sockets --sockets 1000

It sets up as bench/load.py does (a scratch database, players four to a game, a session
each; with ``--stack pg``, PostgreSQL and Redis), starts ONE daphne worker, and opens the
game page's socket (``/ws/games/<id>/``, one a player) in ``--steps`` equal steps. After
each step, once the worker is quiet, it reads the worker's resident memory (``VmRSS``)
and its CPU over ``--idle`` seconds in which no one moves: what remains is the sockets'
own upkeep (daphne's pings, the presence mark's refresh every ``REFRESH_SECONDS``). With
Redis, also Redis's ``used_memory``. Per socket: the change from no socket to all of
them, divided by their number. The clients run in this process; their CPU is not
counted. Loopback only; bounded in sockets and time.
"""

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

from bench.load import (  # noqa: E402
    cpu_seconds,
    create_database,
    create_rows,
    drop_database,
    scratch_env,
    settle,
)
from tests.stack.servers import HOST, free_port, start_servers, stop  # noqa: E402

MAX_SOCKETS, MAX_IDLE = 4000, 300


def resident_mib(server) -> float:
    """The worker's resident memory (Linux /proc), MiB."""
    for line in Path(f"/proc/{server.process.pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def redis_mib(args) -> float | None:
    if args.stack != "pg":
        return None
    import redis

    return redis.Redis.from_url(args.redis_url).info("memory")["used_memory"] / 2**20


async def hold(url, headers, ready, done):
    """One socket, opened, read (its first view, pings answered) until ``done``."""
    from websockets.asyncio.client import connect

    async with connect(url, additional_headers=headers, max_size=2**22, open_timeout=60) as ws:
        ready.set()
        reader = asyncio.ensure_future(ws.recv())
        while not done.is_set():
            finished, _ = await asyncio.wait({reader}, timeout=1)
            if finished:
                reader.result()  # a closed socket raises here
                reader = asyncio.ensure_future(ws.recv())
        reader.cancel()


async def measure(args, server, sockets):
    """Open the sockets step by step; after each step, the worker's memory and idle CPU."""
    done = asyncio.Event()
    limit = asyncio.Semaphore(50)
    tasks, rows = [], []

    async def open_one(game, session):
        ready = asyncio.Event()
        headers = {
            "Cookie": f"sessionid={session}",
            "Origin": f"http://{HOST}:{server.port}",
        }
        url = f"ws://{HOST}:{server.port}/ws/games/{game}/"
        async with limit:
            tasks.append(asyncio.ensure_future(hold(url, headers, ready, done)))
            await asyncio.wait_for(ready.wait(), 60)

    async def read(count):
        await settle([server], quiet=0.02, step=1.0, limit=30)
        mib = resident_mib(server)
        redis = redis_mib(args)
        before, started = cpu_seconds([server]), time.monotonic()
        await asyncio.sleep(args.idle)
        cpu = cpu_seconds([server]) - before
        rows.append((count, mib, redis, cpu / (time.monotonic() - started)))
        extra = f", Redis {redis:.1f} MiB" if redis is not None else ""
        print(
            f"sockets: {count} open: worker {mib:.1f} MiB resident{extra}; "
            f"idle CPU {1000 * rows[-1][3]:.1f} ms/s over {args.idle:.0f} s",
            flush=True,
        )

    await read(0)
    opened = 0
    step = -(-len(sockets) // args.steps)
    try:
        for start in range(0, len(sockets), step):
            batch = sockets[start : start + step]
            await asyncio.gather(*(open_one(game, session) for game, session in batch))
            opened += len(batch)
            await read(opened)
    finally:
        done.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    return rows


def report(rows):
    print(per_socket(rows[0], rows[-1]))
    if len(rows) > 2:
        # Without the first step, which also pays the worker's warm-up (first renders,
        # the connection pool, caches filled once).
        print(per_socket(rows[1], rows[-1]))


def per_socket(start, end):
    """What one open socket costs between two steps (count, worker MiB, Redis MiB or
    None, idle CPU s/s), as a line."""
    (first, mib0, redis0, cpu0), (count, mib, redis, cpu) = start, end
    sockets = count - first
    line = (
        f"sockets: per open socket, from {first} to {count}: worker memory "
        f"{1024 * (mib - mib0) / sockets:.1f} KiB"
    )
    if redis is not None:
        line += f", Redis {1024 * (redis - redis0) / sockets:.2f} KiB"
    return line + f", idle CPU {1e6 * (cpu - cpu0) / sockets:.1f} us per second"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stack", choices=["default", "pg"], default="default")
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--idle", type=float, default=60, help="seconds of idle CPU per step")
    parser.add_argument(
        "--pg-url", default=os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432")
    )
    parser.add_argument("--pg-db", default="carousel_bench_sockets")
    parser.add_argument(
        "--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
    )
    args = parser.parse_args(argv)
    args.sockets = max(4, min(args.sockets, MAX_SOCKETS))
    args.idle = max(1.0, min(args.idle, MAX_IDLE))
    args.steps = max(1, args.steps)
    # What bench.load's set-up reads: a player per socket, four to a game.
    args.players, args.games = args.sockets, args.sockets // 4

    workdir = Path(tempfile.mkdtemp(prefix="carousel-sockets-"))
    env = scratch_env(args, workdir)
    servers = []
    try:
        create_database(args, env)
        games = create_rows(args, env)
        port = free_port()
        env["CSRF_TRUSTED_ORIGINS"] = f"http://{HOST}:{port}"
        servers = start_servers(1, env, workdir, ports=[port])
        sockets = [(game, session) for game, sessions in games for session in sessions]
        rows = asyncio.run(measure(args, servers[0], sockets))
        report(rows)
        return 0
    finally:
        stop(servers)
        drop_database(args)
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
