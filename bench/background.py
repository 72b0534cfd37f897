"""The background workers under load: bot move latency, jobs per second with one and two
workers, the queue's own CPU per job, and how soon a "your move" email leaves.

    python bench/background.py                                # SQLite scratch file
    python bench/background.py --pg-db carousel_bench_bg      # PostgreSQL scratch database
    python bench/background.py --workers 2 --games 200 --bots 4 --duration 60

Three parts, each on a fresh set of ``manage.py run_worker`` processes:

1. ``noop``: ``--jobs`` empty jobs enqueued at once, then the workers started: jobs per
   second, and the workers' CPU per job (all of it the queue's: the job does nothing).
2. ``bots``: ``--games`` practice games of one person and ``--bots`` bots, each bot's
   pause fixed at ``--bot-delay`` seconds; this process plays each person's turn (a
   draw, else a pass) as soon as it comes, for ``--duration`` seconds. A bot's move is
   due ``--bot-delay`` after the move before it commits, so its latency is the time
   between the two in the log less the pause. Also the workers' CPU per bot move.
3. ``emails``: ``--league-games`` two-player league games whose deadlines pass one after
   another during ``--duration``; each timeout starts the other player's turn, and the
   "your move" email's claim (``Notice``) says when it left. Compared with
   ``CLOCK_INTERVAL`` (one pass).
4. ``notices`` (not among the default parts): the cost of one email and one push. In
   this process, no worker: ``--notices`` players each told "your move" by one email
   pass (the locmem backend: the message built and serialised, no SMTP), then as many
   others with one device each told by one push pass (encrypted and signed, POSTed to a
   push service on this machine, the tests' one, whose own CPU is not counted); then
   each pass again with nothing left to send. The pass thread's CPU and PostgreSQL's.

The figures and the machine they were measured on: docs/benchmarks.md.
"""

import argparse
import contextlib
import os
import secrets
import subprocess
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
        LOG_LEVEL="WARNING",
        BOT_DELAY=f"{args.bot_delay},{args.bot_delay}",
        CLOCK_INTERVAL=str(args.clock_interval),
        EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend",
    )
    for name in ("DATABASE_URL", "REDIS_URL", "CACHE_URL", "VAPID_PRIVATE_KEY"):
        os.environ.pop(name, None)
    if args.pg_db:
        os.environ["DATABASE_URL"] = f"{args.pg_url.rstrip('/')}/{args.pg_db}"
    else:
        os.environ["SQLITE_PATH"] = str(workdir / "background.sqlite3")


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


def start_workers(n, workdir, tag, threads=None):
    workers = []
    extra = ["--threads", str(threads)] if threads else []
    for i in range(n):
        log = open(workdir / f"worker-{tag}-{i}.log", "wb")  # noqa: SIM115 closed in stop_workers
        process = subprocess.Popen(
            [sys.executable, "manage.py", "run_worker", "-v", "0", *extra],
            cwd=BASE_DIR,
            env=os.environ.copy(),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        workers.append((process, log))
    return workers


def cpu_seconds(pid):
    """User + system CPU of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def database_cpu(args):
    """CPU seconds so far of the PostgreSQL backends serving the scratch database, by pid
    (the server's shared processes, and other databases' backends, are not counted)."""
    if not args.pg_db:
        return {}
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", [args.pg_db])
        pids = [pid for (pid,) in cursor.fetchall()]
    seconds = {}
    for pid in pids:
        with contextlib.suppress(OSError):  # gone, or not on this machine
            seconds[pid] = cpu_seconds(pid)
    return seconds


def database_cpu_since(args, before):
    after = database_cpu(args)
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items())


def stop_workers(workers):
    for process, _log in workers:
        process.terminate()
    for process, log in workers:
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def clear_queue():
    from django_tasks_db.models import DBTaskResult

    from rummy.models import JobKey

    DBTaskResult.objects.all().delete()
    JobKey.objects.all().delete()


def threads(args):
    return args.workers * (args.threads or (8 if args.pg_db else 1))


def label(args):
    return f"{args.workers} worker(s) x {threads(args) // args.workers} thread(s)"


def pct(values, p):
    values = sorted(values)
    if not values:
        return float("nan")
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


# --- 1. empty jobs ---------------------------------------------------------------------


def part_noop(args, workdir):
    from django_tasks_db.models import DBTaskResult

    from bench.background_jobs import noop

    clear_queue()
    for _ in range(args.jobs):
        noop.enqueue()
    workers = start_workers(args.workers, workdir, "noop", args.threads)
    # The start-up (Django, the first look) is not the queue's: measured from the
    # first job done to the last.
    done = DBTaskResult.objects.filter(task_path=noop.module_path, status="SUCCESSFUL")
    while not done.exists():
        time.sleep(0.05)
    started, cpu0 = time.monotonic(), sum(cpu_seconds(p.pid) for p, _ in workers)
    db0 = database_cpu(args)
    first = done.count()
    while (count := done.count()) < args.jobs:
        time.sleep(0.1)
    seconds = time.monotonic() - started
    cpu = sum(cpu_seconds(p.pid) for p, _ in workers) - cpu0
    db = database_cpu_since(args, db0)
    stop_workers(workers)
    ran = count - first
    # The wall time of one job, to one thread: what a job waits for besides the CPU.
    print(
        f"noop: {label(args)}, {ran} jobs in {seconds:.1f} s: "
        f"{ran / seconds:.0f} jobs/s; workers' CPU {1000 * cpu / ran:.2f} ms per job, "
        f"PostgreSQL's {1000 * db / ran:.2f} ms; each thread "
        f"{1000 * seconds * threads(args) / ran:.1f} ms of wall time per job"
    )


# --- 2. bot turns ----------------------------------------------------------------------


def person_turns(games, stop_at):
    """Play each person's turn as soon as it comes: a draw, else a pass."""
    from rummy import engine, play
    from rummy.models import Game

    persons = dict(games)
    while time.monotonic() < stop_at:
        waiting = Game.objects.filter(
            pk__in=persons, status=Game.Status.ACTIVE, to_move__in=list(persons.values())
        ).values_list("pk", "version", "state")
        for pk, version, state in waiting:
            turn = engine.GameState.from_dict(state)
            legal = engine.legal_actions(turn, turn.turn)
            try:
                if engine.Action.DRAW in legal:
                    play.draw(pk, persons[pk], version)
                else:
                    play.pass_turn(pk, persons[pk], version)
            except play.ActionRefused:
                pass
        time.sleep(0.05)


def part_bots(args, workdir):
    import datetime

    from django.db.models import F, Window
    from django.db.models.functions import Lag
    from django_tasks_db.models import DBTaskResult

    from leagues.models import User
    from rummy import play
    from rummy.background import tasks
    from rummy.models import Move

    clear_queue()
    people = [
        User.objects.create_user(username=f"bg{i}", email=f"bg{i}@example.com", password=None)
        for i in range(args.games)
    ]
    games = [(play.start_practice(p, args.bots, args.level).pk, p) for p in people]
    ids = [pk for pk, _ in games]
    workers = start_workers(args.workers, workdir, "bots", args.threads)
    time.sleep(args.warm_up)
    started = time.monotonic()
    from django.utils import timezone

    since = timezone.now()
    cpu0 = sum(cpu_seconds(p.pid) for p, _ in workers)
    db0 = database_cpu(args)
    person_turns(games, started + args.duration)
    seconds = time.monotonic() - started
    cpu = sum(cpu_seconds(p.pid) for p, _ in workers) - cpu0
    db = database_cpu_since(args, db0)
    stop_workers(workers)
    moves = (
        Move.objects.filter(game_id__in=ids)
        .annotate(before=Window(Lag("created_at"), partition_by=[F("game_id")], order_by="seq"))
        .values_list("bot_level", "created_at", "before")
    )
    latency = [
        (at - before).total_seconds() - args.bot_delay
        for level, at, before in moves
        if level and before is not None and before >= since
    ]
    jobs = DBTaskResult.objects.filter(
        task_path=tasks.bot_turn.module_path, status="SUCCESSFUL", finished_at__gte=since
    )
    made = max(len(latency), 1)
    print(
        f"bots: {label(args)}, {args.games} games of {args.bots} bots, "
        f"{len(latency)} bot moves in {seconds:.0f} s ({len(latency) / seconds:.1f}/s), "
        f"{jobs.count()} bot jobs; latency from due to made p50 {pct(latency, 50):.2f} s, "
        f"p95 {pct(latency, 95):.2f} s, max {max(latency, default=float('nan')):.2f} s; "
        f"workers' CPU {1000 * cpu / made:.1f} ms per bot move, PostgreSQL's "
        f"{1000 * db / made:.1f} ms"
    )
    # Where the latency goes, from the queue's own timestamps: due (the move before, plus
    # the pause) to enqueued (the look), enqueued to started (waiting for a thread),
    # started to the move's commit (the job).
    moves_made = Move.objects.filter(game_id__in=ids, created_at__gte=since)
    made_at = {
        (game, seq): at for game, seq, at in moves_made.values_list("game_id", "seq", "created_at")
    }
    look, wait, run = [], [], []
    for key, enqueued, started_at in jobs.values_list(
        "args_kwargs__args__0", "enqueued_at", "started_at"
    ):
        _bot, game, version = key.split(":")
        before = made_at.get((int(game), int(version)))
        after = made_at.get((int(game), int(version) + 1))
        if before is None or after is None:
            continue
        due = before + datetime.timedelta(seconds=args.bot_delay)
        # Negative: enqueued ahead of time (due before the next look), to run when due.
        look.append((enqueued - due).total_seconds())
        wait.append((started_at - max(enqueued, due)).total_seconds())
        run.append((after - started_at).total_seconds())
    print(
        "bots: p50 / p95 of due to enqueued (the look) "
        f"{pct(look, 50):.2f} / {pct(look, 95):.2f} s, due and enqueued to started (the queue) "
        f"{pct(wait, 50):.2f} / {pct(wait, 95):.2f} s, started to made (the job) "
        f"{pct(run, 50):.2f} / {pct(run, 95):.2f} s"
    )
    # What 200 games ask for when every bot answers at once: a bot move each pause at
    # most, per game (less by the person's turns).
    demand = args.games / args.bot_delay
    print(
        f"bots: demand at most {demand:.0f} bot moves/s; at the CPU measured here "
        f"{demand * (cpu + db) / made:.2f} cores (workers {demand * cpu / made:.2f}, "
        f"PostgreSQL {demand * db / made:.2f})"
    )
    # The practice games end here: their bots must not hold up the next part.
    from rummy.models import Game

    Game.objects.filter(pk__in=ids).delete()


# --- 3. emails -------------------------------------------------------------------------


def part_emails(args, workdir):
    import datetime

    from django.utils import timezone

    from rummy.models import Game, Notice

    clear_queue()
    start = timezone.now() + datetime.timedelta(seconds=args.warm_up)
    ids = []
    for i, game in enumerate(league_games(args.league_games, "mail")):
        due = start + datetime.timedelta(seconds=args.duration * i / args.league_games)
        Game.objects.filter(pk=game.pk).update(turn_deadline=due)
        ids.append(game.pk)
    workers = start_workers(args.workers, workdir, "emails", args.threads)
    time.sleep(args.warm_up + args.duration + 2 * args.clock_interval)
    stop_workers(workers)
    delays = []
    for game in Game.objects.filter(pk__in=ids):
        notice = Notice.objects.filter(
            game=game, kind=Notice.Kind.YOUR_MOVE, turn_started_at=game.turn_started_at
        ).first()
        if notice is not None:
            delays.append((notice.sent_at - game.turn_started_at).total_seconds())
    print(
        f"emails: {label(args)}, {len(delays)} of {len(ids)} 'your move' emails "
        f"after a timeout; from due to sent p50 {pct(delays, 50):.1f} s, "
        f"p95 {pct(delays, 95):.1f} s, max {max(delays, default=float('nan')):.1f} s "
        f"(one pass: CLOCK_INTERVAL {args.clock_interval} s)"
    )


# --- 4. the cost of one email and one push ---------------------------------------------


def league_turns(count, tag):
    """The players to move in ``count`` two-player league games (``league_games``): each
    has one "your move" to tell."""
    return [game.to_move for game in league_games(count, tag)]


def league_games(count, tag):
    """``count`` two-player league games, each awaiting the move of a player who is away
    (no page open, no move of their own yet)."""
    from leagues.models import League, Membership, User
    from rummy import play

    league = League.objects.create(name=f"Bench {tag}", slug=f"bench-{tag}")
    games = []
    for i in range(count):
        pair = [
            User.objects.create_user(
                username=f"bg-{tag}-{i}-{n}",
                email=f"{tag}{i}-{n}@example.com",
                password=None,
                email_verified=True,
            )
            for n in range(2)
        ]
        Membership.objects.bulk_create(
            [Membership(league=league, user=u, role=Membership.Role.MEMBER) for u in pair]
        )
        game = play.open_table(league, pair[0], max_seats=2)
        play.take_seat(game.pk, pair[1])
        game.refresh_from_db()
        games.append(game)
    return games


def timed_pass(args, run):
    """(sent, the pass thread's CPU seconds, PostgreSQL's) of one ``run()``."""
    db0, cpu0 = database_cpu(args), time.thread_time()
    sent = run()
    return sent, time.thread_time() - cpu0, database_cpu_since(args, db0)


def part_notices(args, workdir):
    from django.conf import settings
    from django.core import mail

    from rummy.models import Notice, PushNotice, PushSubscription
    from rummy.notifications import emails, pushes, vapid
    from tests.rummy.notifications.push_service import PushService

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    mail.outbox = []
    league_turns(args.notices, "tell-mail")
    figures = [("email", *timed_pass(args, emails.clock_pass)), ("(email pass, none to send)",)]
    figures[1] += timed_pass(args, emails.clock_pass)
    assert len(mail.outbox) == Notice.objects.count() == figures[0][1], "an email went amiss"

    signer = vapid.new_signer()
    settings.VAPID_PRIVATE_KEY = vapid.private_key_of(signer)
    settings.VAPID_PUBLIC_KEY = vapid.public_key_of(signer)
    settings.VAPID_KEY_FILE = ""
    settings.PUSH_ALLOW_LOCAL_ENDPOINTS = True
    service = PushService()
    try:
        devices = [service.subscribe(user) for user in league_turns(args.notices, "tell-push")]
        figures.append(("push", *timed_pass(args, pushes.clock_pass)))
        figures.append(("(push pass, none to send)", *timed_pass(args, pushes.clock_pass)))
    finally:
        service.close()
    received = sum(len(device.received) for device in devices)
    assert received == PushNotice.objects.count() == PushSubscription.objects.count(), received
    db = "PostgreSQL" if args.pg_db else "SQLite (in the pass thread)"
    for name, sent, cpu, db_cpu in figures:
        each = f", {1000 * cpu / sent:.2f} + {1000 * db_cpu / sent:.2f} ms each" if sent else ""
        print(
            f"notices: {name}: {sent} sent in one pass, the pass thread's CPU "
            f"{1000 * cpu:.0f} ms, {db}'s {1000 * db_cpu:.0f} ms{each}"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pg-db", help="a scratch PostgreSQL database (created and dropped)")
    parser.add_argument(
        "--pg-url", default=os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432")
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--threads", type=int, help="each worker's threads (default: WORKER_THREADS's)"
    )
    parser.add_argument("--parts", default="noop,bots,emails")
    parser.add_argument("--jobs", type=int, default=2000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--bots", type=int, default=4)
    parser.add_argument("--level", default="beginner")
    parser.add_argument("--bot-delay", type=float, default=3.0)
    parser.add_argument("--league-games", type=int, default=50)
    parser.add_argument(
        "--notices", type=int, default=300, help="players told by email, and by push (notices)"
    )
    parser.add_argument("--duration", type=float, default=60)
    parser.add_argument("--warm-up", type=float, default=5)
    parser.add_argument("--clock-interval", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        environment(args, Path(workdir))
        set_up(args)
        try:
            for part in args.parts.split(","):
                parts = {"noop": part_noop, "bots": part_bots, "emails": part_emails}
                parts["notices"] = part_notices
                parts[part](args, Path(workdir))
        finally:
            if args.pg_db:
                from django.db import connections

                connections.close_all()
                pg_admin(args, f'DROP DATABASE IF EXISTS "{args.pg_db}" WITH (FORCE)')


if __name__ == "__main__":
    main()
