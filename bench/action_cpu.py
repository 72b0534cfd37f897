"""CPU of one table action in-process: the HTMX POST alone, and the four table sockets'
``game.updated`` renders, with ``time.process_time()`` (steadier than the load
benchmark's figures on a shared machine, since nothing else's CPU is counted).

    python bench/action_cpu.py                         # SQLite scratch file
    python bench/action_cpu.py --pg-db carousel_bench_x --redis-url redis://127.0.0.1:6379/15
    python bench/action_cpu.py --profile post          # cProfile of the POSTs, top 40

One game of four players, DEBUG off, the whole middleware stack (Django's test client
with a session cookie, as the load benchmark's players send it); the player to move
draws, then passes when the draw is over, as ``bench/load.py``'s players do. The
sockets part opens the four table sockets (``WebsocketCommunicator``, the in-memory
channel layer) and measures, per action, the CPU between the POST's answer and the last
socket's frame: what ``game_updated`` costs the server, without the channel layer.
"""

import argparse
import asyncio
import os
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))


def environment(args, workdir):
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        SECRET_KEY="bench-" + secrets.token_urlsafe(48),
        DEBUG="0",
        SECURE_SSL_REDIRECT="0",
        SECURE_COOKIES="0",
        ALLOWED_HOSTS="testserver",
        CSRF_TRUSTED_ORIGINS="http://testserver",
        LOG_LEVEL="WARNING",
    )
    for name in ("DATABASE_URL", "REDIS_URL", "CACHE_URL"):
        os.environ.pop(name, None)
    if args.pg_db:
        os.environ["DATABASE_URL"] = f"{args.pg_url.rstrip('/')}/{args.pg_db}"
    else:
        os.environ["SQLITE_PATH"] = str(workdir / "cpu.sqlite3")
    if args.redis_url:
        os.environ["CACHE_URL"] = args.redis_url
        os.environ["REDIS_URL"] = args.redis_url


def pg_admin(args, sql):
    import psycopg

    with psycopg.connect(f"{args.pg_url.rstrip('/')}/postgres", autocommit=True) as conn:
        conn.execute(sql)


def set_up(args):
    import django
    from django.core.management import call_command

    if args.pg_db:
        pg_admin(args, f'DROP DATABASE IF EXISTS "{args.pg_db}" WITH (FORCE)')
        pg_admin(args, f'CREATE DATABASE "{args.pg_db}"')
    django.setup()
    call_command("migrate", "--noinput", verbosity=0)
    from django.conf import settings
    from django.test import Client

    from leagues.models import League, Membership, User

    users = [
        User.objects.create_user(
            username=f"cpu{i}", email=f"cpu{i}@example.com", password=None, display_name=f"P{i}"
        )
        for i in range(4)
    ]
    league = League.objects.create(name="Cpu", slug="cpu")
    Membership.objects.bulk_create(
        [Membership(league=league, user=u, role=Membership.Role.MEMBER) for u in users]
    )
    clients = {}
    for user in users:
        client = Client(enforce_csrf_checks=False)
        client.force_login(user)
        clients[user.pk] = client
    cookies = {
        pk: f"{settings.SESSION_COOKIE_NAME}={c.cookies[settings.SESSION_COOKIE_NAME].value}"
        for pk, c in clients.items()
    }
    return (league, users), clients, cookies


def new_game(table):
    """A started game of the four players (a game ends after some rounds)."""
    from rummy import play

    league, users = table
    game = play.open_table(league, users[0], max_seats=4)
    for user in users[1:]:
        play.take_seat(game.pk, user)  # a full table starts by itself
    return game.pk


def next_action(game_id):
    """(user id to move, action, version) as the bench's players choose it."""
    from rummy import engine
    from rummy.models import Game

    game = Game.objects.get(pk=game_id)
    state = game.engine_state()
    if state.game_over:
        return None
    legal = engine.legal_actions(state, state.turn)
    action = "draw" if engine.Action.DRAW in legal else "pass"
    return game.to_move_id, action, game.version


def post(clients, game_id, nxt):
    user_id, action, version = nxt
    reply = clients[user_id].post(
        f"/games/{game_id}/act/",
        {"action": action, "version": str(version)},
        HTTP_HX_REQUEST="true",
    )
    assert reply.status_code == 200, (reply.status_code, reply.content[:300])


def measure_posts(args, table, clients):
    times = []
    game_id = new_game(table)
    for i in range(args.warmup + args.actions):
        nxt = next_action(game_id)
        if nxt is None:
            game_id = new_game(table)
            nxt = next_action(game_id)
        t0 = time.process_time()
        post(clients, game_id, nxt)
        if i >= args.warmup:
            times.append(time.process_time() - t0)
    return times


async def open_sockets(game_id, cookies):
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    sockets = []
    for cookie in cookies.values():
        headers = [(b"origin", b"http://testserver"), (b"cookie", cookie.encode())]
        communicator = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers)
        ok, _code = await communicator.connect()
        assert ok
        await communicator.receive_from()  # the first view (no page stamp)
        sockets.append(communicator)
    return sockets


async def measure_sockets(args, table, clients, cookies):
    from channels.db import database_sync_to_async

    game_id = await database_sync_to_async(new_game)(table)
    sockets = await open_sockets(game_id, cookies)
    post_times, socket_times = [], []
    try:
        for i in range(args.warmup + args.actions):
            nxt = await database_sync_to_async(next_action)(game_id)
            if nxt is None:  # the game is over: the next one
                for communicator in sockets:
                    await communicator.disconnect()
                game_id = await database_sync_to_async(new_game)(table)
                sockets = await open_sockets(game_id, cookies)
                nxt = await database_sync_to_async(next_action)(game_id)
            t0 = time.process_time()
            await database_sync_to_async(post)(clients, game_id, nxt)
            t1 = time.process_time()
            for communicator in sockets:
                await communicator.receive_from(timeout=10)
            t2 = time.process_time()
            if i >= args.warmup:
                post_times.append(t1 - t0)
                socket_times.append(t2 - t1)
    finally:
        for communicator in sockets:
            await communicator.disconnect()
    return post_times, socket_times


def summary(name, values):
    ms = sorted(v * 1000 for v in values)
    return (
        f"{name}: median {statistics.median(ms):.2f} ms, mean {statistics.mean(ms):.2f} ms, "
        f"p10 {ms[len(ms) // 10]:.2f}, p90 {ms[len(ms) * 9 // 10]:.2f} ({len(ms)} actions)"
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--pg-db", default="", help="a scratch PostgreSQL database (dropped)")
    parser.add_argument(
        "--pg-url", default=os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432")
    )
    parser.add_argument("--redis-url", default="", help="Redis for the cache (else locmem)")
    parser.add_argument("--profile", choices=["post", "sockets"], default=None)
    parser.add_argument("--profile-out", default="", help="also write the profile here")
    args = parser.parse_args(argv)
    args.actions = max(10, min(args.actions, 2000))
    workdir = Path(tempfile.mkdtemp(prefix="carousel-cpu-"))
    environment(args, workdir)
    try:
        table, clients, cookies = set_up(args)
        if args.profile:
            import cProfile
            import pstats

            profiler = cProfile.Profile(time.process_time)
            if args.profile == "post":
                measure_posts(args, table, clients)  # warm, then profile
                profiler.enable()
                measure_posts(args, table, clients)
            else:
                profiler.enable()
                asyncio.run(measure_sockets(args, table, clients, cookies))
            profiler.disable()
            if args.profile_out:
                profiler.dump_stats(args.profile_out)
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(60)
            pstats.Stats(profiler).sort_stats("tottime").print_stats(40)
            return 0
        posts = measure_posts(args, table, clients)
        print(summary("POST alone (process_time)", posts))
        with_sockets, renders = asyncio.run(measure_sockets(args, table, clients, cookies))
        print(summary("POST with 4 sockets open", with_sockets))
        print(summary("4 sockets' game.updated", renders))
        per_action = [a + b for a, b in zip(with_sockets, renders, strict=True)]
        print(summary("whole action in-process", per_action))
        return 0
    finally:
        from django.db import connections

        connections.close_all()
        if args.pg_db:
            pg_admin(args, f'DROP DATABASE IF EXISTS "{args.pg_db}" WITH (FORCE)')


if __name__ == "__main__":
    sys.exit(main())
