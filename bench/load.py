"""Load generator: N simulated players over M concurrent games, through the real HTTP and
WebSocket endpoints of real daphne processes that it starts itself.

    python bench/load.py --stack pg        # 2 daphne workers, PostgreSQL + Redis
    python bench/load.py --stack default   # 1 daphne, SQLite + in-memory layer

It makes a scratch database (PostgreSQL: ``carousel_bench``, created and dropped; SQLite:
a temporary file), creates the players, one league and the games through the services,
gives every player a session cookie, starts the servers (DEBUG off, static files
collected, as in production but over plain HTTP), opens each player's socket as the
table page does (the game's ``/ws/games/<id>/``, which carries the header's badge too;
``--me`` adds a header socket ``/ws/me/`` per player, as a second tab on another page
holds, and as the table page itself once did), then for ``--duration``
seconds the player whose view shows a Draw or Pass button POSTs it at once, as the
table page's HTMX fallback does. It prints actions per second, the move-to-update
latency (from the POST being sent to each OTHER player's socket frame showing the new
version) at p50/p95/p99, and the throughput of the trivial ``/healthz/live`` view on the same
servers as the baseline, before the load and after it (``--gc``: also the servers'
garbage collections during the load). Loopback only; bounded in clients and time;
stops by itself.

One file over 400 lines, on purpose: a benchmark is easier to read, copy to another
machine and trust when everything it does is in one place, top to bottom.
"""

import argparse
import asyncio
import json
import os
import re
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

from tests.stack.servers import HOST, free_port, start_servers, stop  # noqa: E402

# A frame carries only the parts of the view that changed (rummy.table.rendering): the
# version input always (it changes with every move), the buttons when they changed.
VERSION_RE = re.compile(r'data-version="(\d+)"')
DRAW_RE = re.compile(r'id="btn-draw"')
PASS_RE = re.compile(r'id="btn-pass"')
FINAL_RE = re.compile(r'id="final" class')
# The view the page shows (its form's hidden "stamp", kept current by every frame and
# answer): sent with each action, as the page's form sends it.
STAMP_RE = re.compile(r'id="view-stamp" value="([0-9a-f]+)"')
MAX_PLAYERS, MAX_DURATION = 1000, 300  # bounded, whatever the arguments
# --rolling-restart: how often one action is tried again before it counts as failed.
RETRY_ATTEMPTS = 50
# --rolling-restart: how long after the load's end a dropped socket may take to reopen
# (on a busy machine a restarted worker takes a while to accept them all).
RECONNECT_PATIENCE = 60


# --- set-up: a scratch database, rows through the services, sessions --------------------


def scratch_env(args, workdir):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        SECRET_KEY="bench-" + secrets.token_urlsafe(48),
        DEBUG="0",
        SECURE_SSL_REDIRECT="0",
        SECURE_COOKIES="0",
        ALLOWED_HOSTS=f"{HOST},localhost",
        STATIC_ROOT=str(workdir / "static"),
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
    )
    if args.stack == "pg":
        env["DATABASE_URL"] = f"{args.pg_url.rstrip('/')}/{args.pg_db}"
        env["REDIS_URL"] = args.redis_url
    else:
        env["SQLITE_PATH"] = str(workdir / "bench.sqlite3")
    return env


def pg_admin(args, sql):
    import psycopg

    with psycopg.connect(f"{args.pg_url.rstrip('/')}/postgres", autocommit=True) as conn:
        conn.execute(sql)


def create_database(args, env):
    if args.stack == "pg":
        pg_admin(args, f'DROP DATABASE IF EXISTS "{args.pg_db}" WITH (FORCE)')
        pg_admin(args, f'CREATE DATABASE "{args.pg_db}"')
    for command in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=BASE_DIR, env=env, check=True)


def drop_database(args):
    if args.stack == "pg":
        pg_admin(args, f'DROP DATABASE IF EXISTS "{args.pg_db}" WITH (FORCE)')


def create_rows(args, env):
    """Players, a league, started games; a session per player. Runs Django in-process
    against the scratch database, with the servers' SECRET_KEY."""
    os.environ.update(env)
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from leagues.models import League, Membership, User
    from rummy import play

    per_game = args.players // args.games
    users = [
        User.objects.create_user(
            username=f"bench{i}",
            email=f"bench{i}@example.com",
            password=None,
            display_name=f"Bench {i}",
        )
        for i in range(per_game * args.games)
    ]
    league = League.objects.create(name="Bench", slug="bench")
    Membership.objects.bulk_create(
        [Membership(league=league, user=u, role=Membership.Role.MEMBER) for u in users]
    )
    games = []
    for g in range(args.games):
        seated = users[g * per_game : (g + 1) * per_game]
        game = play.open_table(league, seated[0], max_seats=per_game)
        for user in seated[1:]:
            play.take_seat(game.pk, user)  # a full table starts by itself
        sessions = []
        for user in seated:
            store = SessionStore()
            store[SESSION_KEY] = str(user.pk)
            store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]  # as a log-in
            store[HASH_SESSION_KEY] = user.get_session_auth_hash()
            store.create()
            sessions.append(store.session_key)
        games.append((game.pk, sessions))
    from django.db import connections

    connections.close_all()
    return games


# --- the load ----------------------------------------------------------------------------


class Pacer:
    """Lets actions go at ``rate`` per second in all (evenly spaced), whatever the
    number of players waiting to act: the offered load of an open-loop benchmark."""

    def __init__(self, rate):
        self.interval = 1.0 / rate
        self.next_slot = time.monotonic()

    async def wait(self):
        now = time.monotonic()
        slot = max(self.next_slot, now)
        self.next_slot = slot + self.interval
        if slot > now:
            await asyncio.sleep(slot - now)


@dataclass
class Stats:
    actions: int = 0
    refused: int = 0
    errors: int = 0
    server_errors: int = 0
    frames: int = 0
    latencies: list = field(default_factory=list)
    post_times: list = field(default_factory=list)
    server_cpu: float = float("nan")
    client_cpu: float = float("nan")
    frame_bytes: int = 0
    settle_seconds: float = float("nan")
    chat_sent: int = 0  # chat messages sent (--chat-rate)
    chat_frames: int = 0  # the copies of them the sockets received
    chat_bytes: int = 0
    window: tuple = (0.0, 0.0)  # the load's start and end, seconds since the epoch (--gc)
    # --rolling-restart: what the restarts cost the players, and the ledger of actions
    # sent (game, version acted on) and answered 200, to set against the move log.
    retries: int = 0
    gave_up: int = 0
    stale_after_retry: int = 0
    socket_drops: int = 0
    reconnects: int = 0
    sent: set = field(default_factory=set)
    acked: dict = field(default_factory=dict)
    restarts: list = field(default_factory=list)
    reconnect_errors: dict = field(default_factory=dict)
    refused_by: dict = field(default_factory=dict)


@dataclass
class Game:
    pk: int
    players: list = field(default_factory=list)
    # Actions not yet seen by everyone: version made on -> (time the POST was sent,
    # the other players whose socket has not yet shown a later version).
    pending: dict = field(default_factory=dict)
    over: bool = False


class Player:
    def __init__(self, game, session, server, stats, deadline, http):
        self.game = game
        self.session = session
        self.server = server
        self.stats = stats
        self.deadline = deadline
        self.http = http
        self.csrf = secrets.token_hex(16)
        self.acted_on = -1
        self.seen = -1
        self.started = False
        self.held = None  # the frames before the start: only the last one matters
        self.pacer = None
        self.via_socket = False
        self.socket = None
        self.ws_sent = None  # (version acted on, time sent) of an action sent over the socket
        self.controls = ""  # the page's buttons as last sent (a frame may leave them out)
        self.stamp = ""
        # --rolling-restart: every server, and whether a failed request or a dropped
        # socket is tried again (on the next server, as a proxy would) instead of counted.
        self.servers = [server]
        self.resilient = False
        self.posts = set()
        self.connected = False

    def fail_over(self):
        """The next server: the one this player used is going away (or gone)."""
        if len(self.servers) > 1:
            index = self.servers.index(self.server) if self.server in self.servers else -1
            self.server = self.servers[(index + 1) % len(self.servers)]

    def on_socket_frame(self, html, now):
        if self.started:
            self.on_frame(html, now)
        elif VERSION_RE.search(html):
            self.held = html

    def start(self, now):
        self.started = True
        if self.held:
            self.on_frame(self.held, now)
            self.held = None

    @property
    def headers(self):
        return {
            "Cookie": f"sessionid={self.session}; csrftoken={self.csrf}",
            "Origin": f"http://{HOST}:{self.server.port}",
        }

    def on_frame(self, html, now):
        match = VERSION_RE.search(html)
        if not match:
            return  # a flash-only frame
        version = int(match.group(1))
        stamp = STAMP_RE.search(html)
        if stamp and version >= self.seen:
            self.stamp = stamp.group(1)
        self.seen = max(self.seen, version)
        if self.ws_sent is not None and version > self.ws_sent[0]:
            self.stats.actions += 1
            self.stats.post_times.append(now - self.ws_sent[1])
            self.ws_sent = None
        pending = self.game.pending
        for base in [b for b in pending if b < version]:
            sent, awaiting = pending[base]
            if self in awaiting:
                awaiting.discard(self)
                self.stats.latencies.append(now - sent)
            if not awaiting:
                del pending[base]
        if FINAL_RE.search(html):
            self.game.over = True
            return
        start = html.find('<div id="controls"')
        if start >= 0:  # the buttons, up to the next part (or the end of the frame)
            end = html.find("hx-swap-oob", html.find(">", start))
            self.controls = html[start : end if end > 0 else len(html)]
        if version > self.acted_on and version >= self.seen:
            if DRAW_RE.search(self.controls):
                self.act("draw", version)
            elif PASS_RE.search(self.controls):
                self.act("pass", version)

    def act(self, action, version):
        if time.monotonic() >= self.deadline:
            return
        self.acted_on = version
        task = asyncio.get_running_loop().create_task(self.post(action, version))
        self.posts.add(task)
        task.add_done_callback(self.posts.discard)

    async def post(self, action, version):
        if self.pacer is not None:
            # Open loop: players are people who tap at some rate, not a tight loop; the
            # latency is measured from the moment the POST leaves, not from the wait.
            await self.pacer.wait()
            if time.monotonic() >= self.deadline:
                return
        others = {p for p in self.game.players if p is not self}
        t0 = time.monotonic()
        self.game.pending[version] = (t0, others)
        if self.via_socket:
            # As the table page does while its socket is up (htmx ws-send): the form's
            # fields as JSON over the game's socket; the new view comes back on it.
            self.ws_sent = (version, t0)
            try:
                await self.socket.send(
                    json.dumps({"action": action, "version": str(version), "stamp": self.stamp})
                )
            except Exception:
                self.stats.errors += 1
            return
        intent = (self.game.pk, version)
        self.stats.sent.add(intent)
        attempts = 0
        while True:
            try:
                reply = await self.http.post(
                    f"http://{HOST}:{self.server.port}/games/{self.game.pk}/act/",
                    data={"action": action, "version": str(version), "stamp": self.stamp},
                    headers={**self.headers, "X-CSRFToken": self.csrf, "HX-Request": "true"},
                )
            except Exception:
                reply = None
            if reply is not None and reply.status_code < 500:
                break
            if not self.resilient:
                if reply is None:
                    self.stats.errors += 1
                else:
                    self.stats.server_errors += 1
                return
            # The server went away mid-request: the same action at the same version,
            # on the next server. The write path's version check makes it land once:
            # if the first try was applied, this one is refused as stale (409).
            attempts += 1
            self.stats.retries += 1
            if attempts > RETRY_ATTEMPTS:
                self.stats.gave_up += 1
                return
            self.fail_over()
            await asyncio.sleep(min(0.1 * attempts, 1.0))
        self.stats.post_times.append(time.monotonic() - t0)
        if reply.status_code == 200:
            self.stats.actions += 1
            self.stats.acked[intent] = self.stats.acked.get(intent, 0) + 1
            self.on_frame(reply.text, time.monotonic())
        elif attempts and reply.status_code == 409:
            # Stale after a retry: the game moved on, by the first try (the move log
            # says so at the end). The answer is the current view: carry on from it.
            self.stats.stale_after_retry += 1
            self.on_frame(reply.text, time.monotonic())
        else:
            self.stats.refused += 1
            code = reply.status_code
            self.stats.refused_by[code] = self.stats.refused_by.get(code, 0) + 1
            if self.resilient and VERSION_RE.search(reply.text):
                # The answer is the game page as it is now: carry on from it.
                self.on_frame(reply.text, time.monotonic())

    async def listen(self, path, ready, on_frame):
        """The socket, read until the load's end. With ``resilient`` a socket that drops
        (its server stopped) is opened again, on the next server, as the page does."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        dropped = False
        while True:
            url = f"ws://{HOST}:{self.server.port}{path}"
            try:
                socket = await connect(
                    url, additional_headers=self.headers, max_size=2**22, open_timeout=30
                )
            except Exception as error:
                if not (self.resilient and ready.is_set()):
                    raise
                name = type(error).__name__
                self.stats.reconnect_errors[name] = self.stats.reconnect_errors.get(name, 0) + 1
                if time.monotonic() > self.deadline + RECONNECT_PATIENCE:
                    return
                self.fail_over()
                await asyncio.sleep(0.2)
                continue
            async with socket:
                self.connected = True
                if dropped:
                    self.stats.reconnects += 1
                    dropped = False
                if path.startswith("/ws/games/"):
                    self.socket = socket
                ready.set()
                while True:
                    timeout = self.deadline + 2 - time.monotonic()
                    if timeout <= 0:
                        return
                    try:
                        html = await asyncio.wait_for(socket.recv(), timeout)
                    except ConnectionClosed:
                        if not self.resilient or time.monotonic() > self.deadline:
                            return
                        self.stats.socket_drops += 1
                        self.connected, dropped = False, True
                        self.fail_over()
                        break
                    except (TimeoutError, Exception):
                        return
                    self.stats.frames += 1
                    self.stats.frame_bytes += len(html)
                    if 'id="chat-msg-' in html:
                        self.stats.chat_frames += 1
                        self.stats.chat_bytes += len(html)
                    if on_frame:
                        on_frame(html, time.monotonic())


async def run_load(games, servers, args, worker=None):
    import httpx

    stats = Stats()
    limits = httpx.Limits(max_connections=args.games * 2, max_keepalive_connections=args.games)
    async with httpx.AsyncClient(limits=limits, timeout=30) as http:
        # The trivial request's cost is measured twice, before the load and after it, and
        # the action is set against their mean: on a shared machine the same request's
        # CPU drifts by a third from one minute to the next, and one measurement after
        # the load made the printed ratio swing as much. A second of it first, unused:
        # each worker's first requests warm it up.
        await baseline(http, servers, 1.0, args.games)
        before = await baseline(http, servers, args.baseline_seconds, args.games)
        deadline = time.monotonic() + 3600  # set properly once every socket is open
        table, players = [], []
        for index, (pk, sessions) in enumerate(games):
            game = Game(pk)
            for seat, session in enumerate(sessions):
                # Spread players over the workers: a game's players on different ones,
                # so that every move has to cross the channel layer.
                server = servers[(index + seat) % len(servers)]
                game.players.append(Player(game, session, server, stats, deadline, http))
            table.append(game)
            players.extend(game.players)
        tasks = []
        connect_limit = asyncio.Semaphore(50)

        async def open_sockets(player):
            paths = [f"/ws/games/{player.game.pk}/"] + (["/ws/me/"] if args.me else [])
            async with connect_limit:
                for path in paths:
                    ready = asyncio.Event()
                    handler = player.on_socket_frame if path.startswith("/ws/games/") else None
                    tasks.append(asyncio.create_task(player.listen(path, ready, handler)))
                    await asyncio.wait_for(ready.wait(), 30)

        t_connect = time.monotonic()
        await asyncio.gather(*(open_sockets(p) for p in players))
        connect_seconds = time.monotonic() - t_connect
        await asyncio.sleep(0.5)
        start = time.monotonic()
        wall_start = time.time()
        cpu_start = cpu_seconds(servers)
        client_start = time.process_time()
        deadline = start + args.duration
        # From now on frames drive the players; each game starts from its connect frame.
        pacer = Pacer(args.rate) if args.rate > 0 else None
        for player in players:
            player.pacer = pacer
            player.via_socket = args.via == "socket"
            player.deadline = deadline
            if args.rolling_restart:
                player.servers, player.resilient = list(servers), True
            player.start(time.monotonic())
        if args.chat_rate > 0:
            tasks.append(asyncio.create_task(chatter(players, stats, args.chat_rate, deadline)))
        if args.rolling_restart:
            await asyncio.sleep(args.duration / 5)  # the load first, then the restarts
            for player in players:  # players go on however long the restarts take
                player.deadline = time.monotonic() + 3600
            await rolling_restart(servers, worker, stats, signal.Signals[args.restart_signal])
            # Players go on for a while on the restarted servers, whatever is left.
            deadline = max(deadline, time.monotonic() + 5)
            for player in players:
                player.deadline = deadline
        await asyncio.sleep(max(0.0, deadline - time.monotonic()))
        elapsed = time.monotonic() - start
        # Let in-flight requests finish (and their retries), then close the sockets.
        await asyncio.sleep(1.0)
        posts = [task for player in players for task in player.posts]
        if posts:
            await asyncio.wait(posts, timeout=60)
        if args.rolling_restart:  # every dropped socket is given its time to reopen
            patience = time.monotonic() + RECONNECT_PATIENCE
            while time.monotonic() < patience and not all(p.connected for p in players):
                await asyncio.sleep(0.2)
        stats.server_cpu = cpu_seconds(servers) - cpu_start
        stats.window = (wall_start, time.time())
        stats.client_cpu = time.process_time() - client_start
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        # The servers handle the sockets' closing after the client has let go (about a
        # second of CPU for 400 sockets): counted in the baseline, it would make the
        # trivial request look dearer by a varying amount, so wait for it to end first.
        stats.settle_seconds = await settle(servers)
        after = await baseline(http, servers, args.baseline_seconds, args.games)
    return stats, elapsed, connect_seconds, (before, after)


# What the chatting players send, in turn: quick phrases (an id, shown in each reader's
# language) and short typed messages, as the game page's chat drawer sends them.
CHAT_LINES = [{"phrase": "good_luck"}, {"text": "Back in a minute"}, {"phrase": "well_played"}]


async def chatter(players, stats, rate, deadline):
    """``--chat-rate``: chat messages at ``rate`` per second in all, from the players in
    turn (each far below the chat's flood limit), over their game's socket as the page's
    chat drawer sends them (a "chat" frame); every socket of that game gets a copy."""
    pacer = Pacer(rate)
    turn = 0
    while True:
        await pacer.wait()
        if time.monotonic() >= deadline:
            return
        player = players[turn % len(players)]
        turn += 1
        if player.socket is None:
            continue
        line = CHAT_LINES[turn % len(CHAT_LINES)]
        frame = {"chat": "send", "token": f"bench-{turn}", **line}
        try:
            await player.socket.send(json.dumps(frame))
            stats.chat_sent += 1
        except Exception:
            stats.errors += 1


async def rolling_restart(servers, worker, stats, sig=signal.SIGTERM):
    """An upgrade: each web worker in turn stopped with ``sig`` (SIGTERM: as systemd
    stops a unit; SIGKILL: a crash), started again on its port and waited for until it
    answers, then the next; then the background worker the same way. Records, per
    process, the seconds it took to exit, whether it exited by itself (not killed after
    30 s) and the seconds until it was back."""
    loop = asyncio.get_running_loop()
    named = [*((f"web-{n + 1}", s) for n, s in enumerate(servers)), ("worker", worker)]
    for name, process in named:
        if process is None:
            continue
        exited, by_itself, back = await loop.run_in_executor(None, restart_process, process, sig)
        stats.restarts.append((name, exited, by_itself, back))


def restart_process(process, sig):
    """Signal, wait for the exit (SIGKILL after 30 s), start again, wait until ready."""
    t0 = time.monotonic()
    process.process.send_signal(sig)
    by_itself = True
    try:
        process.process.wait(30)
    except subprocess.TimeoutExpired:
        by_itself = False
        process.process.kill()
        process.process.wait(10)
    exited = time.monotonic() - t0
    process.stop()  # closes its log; the new process appends to it
    process.start(timeout=120)
    return exited, by_itself, time.monotonic() - t0


@dataclass
class BackgroundWorker:
    """``manage.py run_worker``, as deploy/run_production.py starts it."""

    env: dict
    log_path: Path
    process: subprocess.Popen | None = None
    _log: object = None

    def start(self, timeout=None):
        self._log = open(self.log_path, "ab")  # noqa: SIM115 (kept open while it runs)
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "run_worker"],
            cwd=BASE_DIR,
            env=self.env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        return self

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        if self._log:
            self._log.close()
            self._log = None


def check_log(games, stats):
    """The move log against the players' ledger: every game's log contiguous (one move
    for each version from the start's to the game's), every draw or pass logged at a
    version some player acted on, none twice, and every action sent in the log (the
    rest failed)."""
    from rummy.models import Game as GameRow
    from rummy.models import Move

    pks = [pk for pk, _sessions in games]
    contiguous = True
    for pk, version in GameRow.objects.filter(pk__in=pks).values_list("pk", "version"):
        seqs = list(Move.objects.filter(game_id=pk).order_by("seq").values_list("seq", flat=True))
        # Seating before the start changes the version without a move: the log
        # begins at the start's version and has one move for each after it.
        contiguous = contiguous and bool(seqs) and seqs == list(range(seqs[0], version + 1))
    logged = {}
    for pk, seq in Move.objects.filter(
        game_id__in=pks, kind__in=[Move.Kind.DRAW, Move.Kind.PASS], user__isnull=False
    ).values_list("game_id", "seq"):
        logged[(pk, seq - 1)] = logged.get((pk, seq - 1), 0) + 1
    unasked = sum(n for key, n in logged.items() if key not in stats.sent)
    twice = sum(n - 1 for n in logged.values() if n > 1)
    acked_twice = sum(n - 1 for n in stats.acked.values() if n > 1)
    failed = len(stats.sent - set(logged))
    from django.db import connections

    connections.close_all()
    return {
        "contiguous": contiguous,
        "duplicates": unasked + twice + acked_twice,
        "failed": failed,
        "logged": sum(logged.values()),
    }


def verify_games(env):
    done = subprocess.run(
        [sys.executable, "manage.py", "verify_games"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    return done.returncode == 0, (done.stdout + done.stderr).strip().splitlines()[-1:]


async def settle(servers, quiet=0.02, step=0.5, limit=15.0):
    """Wait until the servers use less than ``quiet`` CPU seconds in ``step`` seconds
    (at most ``limit`` seconds); returns the seconds waited."""
    start = time.monotonic()
    before = cpu_seconds(servers)
    while time.monotonic() - start < limit:
        await asyncio.sleep(step)
        now = cpu_seconds(servers)
        if now - before < quiet:
            break
        before = now
    return time.monotonic() - start


async def baseline(http, servers, seconds, concurrency):
    """Requests per second of the trivial /healthz/live view on the same servers, and the
    server CPU seconds per request (which, unlike the rate, does not depend on how
    fast this one-process client can send)."""
    done = 0
    cpu_start = cpu_seconds(servers)
    end = time.monotonic() + seconds

    async def loop(server):
        nonlocal done
        while time.monotonic() < end:
            reply = await http.get(f"http://{HOST}:{server.port}/healthz/live")
            if reply.status_code == 200:
                done += 1

    start = time.monotonic()
    await asyncio.gather(*(loop(servers[i % len(servers)]) for i in range(concurrency)))
    rate = done / (time.monotonic() - start)
    return rate, (cpu_seconds(servers) - cpu_start) / max(done, 1)


def cpu_seconds(servers):
    """User + system CPU seconds used so far by the server processes (Linux /proc): a
    figure that, per action, does not depend on what else the machine is doing."""
    total = 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    for server in servers:
        try:
            fields = Path(f"/proc/{server.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, AttributeError):
            return float("nan")
        total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime
    return total


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def gc_passes(folder, window):
    """(passes per generation, seconds in them) of the servers' garbage collector within
    ``window``, from the lines ``config.collector.log_passes`` wrote into ``folder``."""
    passes, seconds = [0, 0, 0], 0.0
    for path in Path(folder).glob("gc-*.log"):
        for line in path.read_text().splitlines():
            at, generation, took = line.split()
            if window[0] <= float(at) <= window[1]:
                passes[int(generation)] += 1
                seconds += float(took)
    return passes, seconds


def report(args, stats, elapsed, connect_seconds, baseline_result, workers, gc_folder=None):
    (before, before_cpu), (after, after_cpu) = baseline_result
    healthz, healthz_cpu = (before + after) / 2, (before_cpu + after_cpu) / 2
    ms = [x * 1000 for x in stats.latencies]
    post_ms = [x * 1000 for x in stats.post_times]
    rate = stats.actions / elapsed
    per_action = stats.server_cpu / max(stats.actions, 1)

    def costs(cpu):
        return f"{per_action / cpu:.1f}" if cpu else "nan"

    lines = [
        f"stack={args.stack} workers={workers} players={args.players} games={args.games} "
        f"offered={'saturation' if args.rate <= 0 else f'{args.rate:g} actions/s'} "
        f"via={args.via} "
        f"duration={elapsed:.1f}s sockets_opened_in={connect_seconds:.1f}s",
        f"actions applied: {stats.actions}  ({rate:.1f} actions/s)",
        f"refused (4xx): {stats.refused} (by status: {stats.refused_by or 'none'})  "
        f"server errors (5xx): {stats.server_errors}  "
        f"client errors: {stats.errors}  frames received: {stats.frames} "
        f"(mean {stats.frame_bytes / max(stats.frames, 1) / 1024:.1f} KiB)",
        f"move-to-update latency (ms, {len(ms)} samples): p50={percentile(ms, 50):.1f} "
        f"p95={percentile(ms, 95):.1f} p99={percentile(ms, 99):.1f}",
        f"{'POST round trip' if args.via == 'post' else 'action to own new view'} (ms): "
        f"p50={percentile(post_ms, 50):.1f} p95={percentile(post_ms, 95):.1f}",
        f"server CPU per action: {1000 * per_action:.1f} ms "
        f"({stats.server_cpu:.1f} CPU-s in {elapsed:.0f} s over {workers} workers; "
        f"this load generator itself: {stats.client_cpu:.1f} CPU-s)",
        f"baseline /healthz before the load and after it (after {stats.settle_seconds:.1f} s"
        f" for the closed sockets to settle): {before:.0f} and {after:.0f} requests/s; "
        f"actions/s ÷ healthz/s = {rate / healthz if healthz else float('nan'):.3f}; "
        f"server CPU per request {1000 * before_cpu:.1f} and {1000 * after_cpu:.1f} ms, "
        f"mean {1000 * healthz_cpu:.1f} ms, so one action costs {costs(healthz_cpu)} "
        f"trivial requests ({costs(before_cpu)} against the one before, "
        f"{costs(after_cpu)} against the one after)",
    ]
    if args.chat_rate > 0:
        lines.append(
            f"chat: {stats.chat_sent} messages sent ({stats.chat_sent / elapsed:.1f}/s), "
            f"{stats.chat_frames} copies received by the games' sockets "
            f"({stats.chat_frames / max(stats.chat_sent, 1):.1f} a message, mean "
            f"{stats.chat_bytes / max(stats.chat_frames, 1):.0f} B)"
        )
    if ms:
        lines.append(f"mean latency {statistics.mean(ms):.1f} ms")
    if gc_folder is not None:
        (young, middle, full), seconds = gc_passes(gc_folder, stats.window)
        lines.append(
            f"garbage collector during the load: {young} young, {middle} middle and {full} "
            f"full passes, {seconds:.2f} s in all, {1000 * seconds / max(stats.actions, 1):.2f}"
            f" ms an action (GC_TUNING={os.environ.get('GC_TUNING', '1')})"
        )
    print("\n".join(lines))
    return rate, percentile(ms, 95)


def report_restart(args, games, stats, env, expected_restarts):
    """The upgrade's figures; exit status 1 unless nothing was lost or applied twice."""
    log = check_log(games, stats)
    replayed, last_line = verify_games(env)
    still_down = stats.socket_drops - stats.reconnects
    summary = {
        **log,
        "restarts": stats.restarts,
        "sent": len(stats.sent),
        "retries": stats.retries,
        "gave_up": stats.gave_up,
        "stale_after_retry": stats.stale_after_retry,
        "socket_drops": stats.socket_drops,
        "reconnects": stats.reconnects,
        "sockets_still_down": still_down,
        "server_errors": stats.server_errors,
        "replayed": replayed,
    }
    restarts = ", ".join(
        f"{name} exited in {exited:.1f} s{'' if by_itself else ' (KILLED)'}, back in {back:.1f} s"
        for name, exited, by_itself, back in stats.restarts
    )
    print(
        f"rolling restart: {restarts}\n"
        f"actions sent {len(stats.sent)}, logged {log['logged']}; failed actions "
        f"{log['failed']}; duplicates {log['duplicates']}; retried requests "
        f"{stats.retries} ({stats.stale_after_retry} found applied by the first try); "
        f"refused at the first try, by status: {stats.refused_by or 'none'}\n"
        f"sockets dropped {stats.socket_drops}, reconnected by themselves "
        f"{stats.reconnects}, still down {still_down} (failed attempts to reopen: "
        f"{stats.reconnect_errors or 'none'})\n"
        f"move logs contiguous: {log['contiguous']}; verify_games: "
        f"{'passed' if replayed else 'FAILED'} ({' '.join(last_line)})"
    )
    if args.summary:
        Path(args.summary).write_text(json.dumps(summary, indent=2))
    clean = (
        log["failed"] == 0
        and log["duplicates"] == 0
        and log["contiguous"]
        and still_down == 0
        and replayed
        and len(stats.restarts) == expected_restarts
    )
    return 0 if clean else 1


def main(argv=None):
    # Longer than 60 lines: the options, then the run and its report, in the order they
    # happen; split up, the report would be harder to check against what was measured.
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stack", choices=["default", "pg"], default="pg")
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--duration", type=float, default=30)
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="daphne processes (default: 1 for default, 2 for pg)",
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=120,
        help="actions per second offered in all (open loop); 0: every "
        "player acts the moment it is their move (saturation)",
    )
    parser.add_argument(
        "--via",
        choices=["post", "socket"],
        default="post",
        help="how players send their actions: HTTP POST (the page's "
        "fallback, the default) or the game's WebSocket (what the page "
        "does while its socket is up)",
    )
    parser.add_argument(
        "--chat-rate",
        type=float,
        default=0,
        help="chat messages per second in all, sent by the players in turn over their "
        "game's socket while they play (0, the default: no chat)",
    )
    parser.add_argument("--baseline-seconds", type=float, default=5)
    parser.add_argument(
        "--me",
        action="store_true",
        help="also a header socket (/ws/me/) per player, as another tab would hold",
    )
    parser.add_argument(
        "--pg-url", default=os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432")
    )
    parser.add_argument("--pg-db", default="carousel_bench")
    parser.add_argument(
        "--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the scratch database and folder (logs)"
    )
    parser.add_argument(
        "--gc",
        action="store_true",
        help="log the servers' garbage collections and report those during the load "
        "(config/collector.py; GC_TUNING=0 in the environment: Python's defaults)",
    )
    parser.add_argument(
        "--rolling-restart",
        action="store_true",
        help="an upgrade during the load: each web worker in turn, then a background "
        "worker (started for this), stopped with SIGTERM and started again; players "
        "retry a failed action (same version) and reopen a dropped socket on the other "
        "worker; reports failed actions, reconnects and duplicates against the move log",
    )
    parser.add_argument(
        "--restart-signal",
        choices=["SIGTERM", "SIGKILL"],
        default="SIGTERM",
        help="how --rolling-restart stops each process: SIGTERM (an upgrade; daphne "
        "drains, config/shutdown.py) or SIGKILL (a crash)",
    )
    parser.add_argument("--summary", help="also write the rolling restart's figures as JSON here")
    args = parser.parse_args(argv)
    if args.rolling_restart and (args.stack != "pg" or args.via != "post"):
        parser.error("--rolling-restart needs --stack pg and --via post")
    args.players = max(2, min(args.players, MAX_PLAYERS))
    args.games = max(1, min(args.games, args.players // 2))
    args.duration = max(1.0, min(args.duration, MAX_DURATION))
    workers = args.workers or (2 if args.stack == "pg" else 1)
    if args.stack == "default" and workers != 1:
        parser.error("the in-memory channel layer works inside one process only")

    workdir = Path(tempfile.mkdtemp(prefix="carousel-bench-"))
    env = scratch_env(args, workdir)
    gc_folder = None
    if args.gc:
        gc_folder = workdir / "gc"
        gc_folder.mkdir()
        env["GC_LOG"] = str(gc_folder)
    servers = []
    worker = None
    try:
        create_database(args, env)
        games = create_rows(args, env)
        # DEBUG is off, so sockets are accepted only from the site's own origins
        # (config/origins.py): the servers' own addresses, known before they start.
        ports = [free_port() for _ in range(workers)]
        env["CSRF_TRUSTED_ORIGINS"] = ",".join(f"http://{HOST}:{port}" for port in ports)
        servers = start_servers(workers, env, workdir, ports=ports)
        if args.rolling_restart:
            worker = BackgroundWorker(env, workdir / "worker.log").start()
        stats, elapsed, connect_seconds, healthz = asyncio.run(
            run_load(games, servers, args, worker)
        )
        report(args, stats, elapsed, connect_seconds, healthz, workers, gc_folder)
        if args.rolling_restart:
            return report_restart(args, games, stats, env, workers + 1)
        for server in servers:
            if server.process.poll() is not None or stats.server_errors:
                errors = [
                    line
                    for line in server.log_tail(200_000).splitlines()
                    if "Error" in line or "Exception" in line
                ]
                print(f"daphne {server.port}: {len(errors)} error lines, last ones:")
                print("\n".join(errors[-8:]))
        return 0 if stats.server_errors == 0 else 1
    finally:
        stop(servers)
        if worker is not None:
            worker.stop()
        if not args.keep:
            drop_database(args)
        if args.keep:
            print(f"kept: the database {args.pg_db} and {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
