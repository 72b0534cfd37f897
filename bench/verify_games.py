"""How long ``manage.py verify_games`` takes, and in how much memory, for many stored games.

    python bench/verify_games.py                 # 10,000 games (and 1,000 to compare)
    python bench/verify_games.py --games 2000 --sizes 500,2000
    python bench/verify_games.py --db /tmp/v.sqlite3     # keep it; later: --db ... --reuse

It makes a scratch SQLite database (a temporary file), plays ``--distinct`` complete
games (R10 defaults: to 150) through the write path with the engine's bots and seeded
deals, then stores copies of their rows (game, seats, move log, rounds, as the write
path wrote them) until there are ``--games`` games: verifying a copy costs what
verifying the original does. For each size it runs ``manage.py verify_games`` in a
fresh process over the first N games and prints the wall time and that process's peak
resident memory; constant memory means the peak does not grow with N.
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))


def setup_django(db_path):
    os.environ["SQLITE_PATH"] = str(db_path)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    for name in ("DATABASE_URL", "REDIS_URL"):
        os.environ.pop(name, None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def play_distinct(count, seed):
    """``count`` finished games played through the write path, seeded."""
    from django.contrib.auth import get_user_model

    from leagues.models import League, Membership
    from rummy import play
    from rummy.engine import bots
    from rummy.models import Game
    from rummy.play import store

    rng = random.Random(seed)
    store.system_random = rng  # seeded deals: the same games on every run
    users = [
        get_user_model().objects.create_user(f"bench{n}", f"bench{n}@example.com", "x")
        for n in range(5)
    ]
    league = League.objects.create(name="Bench", slug="bench")
    for user in users:
        Membership.objects.create(league=league, user=user, role=Membership.Role.MEMBER)
    games = []
    for n in range(count):
        seated = users[: 2 + n % 3]
        game = play.open_table(league, seated[0], max_seats=len(seated))
        for user in seated[1:]:
            play.take_seat(game.pk, user)
        by_seat = {s.number: s.user for s in Game.objects.get(pk=game.pk).seated()}
        while True:
            game = Game.objects.get(pk=game.pk)
            if game.status != Game.Status.ACTIVE:
                break
            state = game.engine_state()
            action = bots.choose_action(state, state.turn, rng, level=n % 2)
            play.act(game.pk, by_seat[state.turn], game.version, action)
        assert game.engine_state().game_over
        games.append(game.pk)
    return games


def copy_games(originals, total):
    """Store copies of the original games' rows until there are ``total`` games."""
    from rummy.models import Game, Move, Round, Seat

    made = len(originals)
    sources = []
    for pk in originals:
        game = Game.objects.get(pk=pk)
        sources.append((game, list(game.seated()), list(game.moves.all()), list(game.rounds.all())))
    while made < total:
        batch = min(500, total - made)
        new_games = []
        for i in range(batch):
            game = sources[(made + i) % len(sources)][0]
            values = {f.attname: getattr(game, f.attname) for f in Game._meta.concrete_fields}
            new_games.append(Game(**{**values, "id": None}))
        Game.objects.bulk_create(new_games)
        seats, moves, rounds = [], [], []
        for i, new in enumerate(new_games):
            _game, src_seats, src_moves, src_rounds = sources[(made + i) % len(sources)]
            for row, into, model in (
                *((s, seats, Seat) for s in src_seats),
                *((m, moves, Move) for m in src_moves),
                *((r, rounds, Round) for r in src_rounds),
            ):
                values = {f.attname: getattr(row, f.attname) for f in model._meta.concrete_fields}
                values.update(id=None, game_id=new.pk)
                into.append(model(**values))
        Seat.objects.bulk_create(seats)
        Move.objects.bulk_create(moves, batch_size=2000)
        Round.objects.bulk_create(rounds)
        made += batch
    return Game.objects.order_by("pk").values_list("pk", flat=True)


def measure(db_path, pks):
    """``manage.py verify_games`` in its own process over ``pks``: seconds, peak KiB."""
    env = {**os.environ, "SQLITE_PATH": str(db_path)}
    # The games by id range: every game up to the last of ``pks``.
    # The peak is read from /proc (VmHWM, reset by exec): ru_maxrss would still hold
    # this parent's size from the fork.
    script = (
        "import resource\nfrom rummy.history.verify import verify\n"
        "from rummy.models import Game\nn = d = 0\n"
        f"for n, diff in verify(Game.objects.filter(pk__lte={pks[-1]})):\n"
        "    d += diff is not None\n"
        "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "try:\n"
        "    status = open('/proc/self/status').read().split('VmHWM:')[1]\n"
        "    peak = int(status.split()[0])\n"
        "except (OSError, IndexError):\n"
        "    pass\n"
        "print(n, d, peak)"
    )
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    seconds = time.perf_counter() - started
    checked, differ, peak_kib = (int(x) for x in done.stdout.split()[-3:])
    return seconds, peak_kib, checked, differ


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--sizes", default="1000,10000", help="game counts to time")
    parser.add_argument("--distinct", type=int, default=30, help="games actually played")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", help="keep the scratch database at this (new) path")
    parser.add_argument(
        "--reuse", action="store_true", help="time the games already in --db (no set-up)"
    )
    args = parser.parse_args()
    sizes = sorted({min(int(s), args.games) for s in args.sizes.split(",")})
    with tempfile.TemporaryDirectory(prefix="verify-bench-") as workdir:
        db_path = Path(args.db) if args.db else Path(workdir) / "bench.sqlite3"
        if db_path.exists() != args.reuse:
            parser.error(
                f"{db_path} exists: the benchmark makes its own database (or --reuse it)"
                if not args.reuse
                else f"--reuse needs an existing --db, not {db_path}"
            )
        setup_django(db_path)
        started = time.perf_counter()
        from rummy.models import Game, Move

        if args.reuse:
            pks = list(Game.objects.order_by("pk").values_list("pk", flat=True)[: args.games])
        else:
            originals = play_distinct(args.distinct, args.seed)
            pks = list(copy_games(originals, args.games))

        print(
            f"set-up: {len(pks)} games "
            f"({'reused' if args.reuse else f'{args.distinct} played, the rest copies'}), "
            f"{Move.objects.count()} moves, in {time.perf_counter() - started:.0f} s"
        )
        from django.db import connection

        # Fold the set-up's write-ahead log (hundreds of MB) into the database first, as
        # any later run would find it: reading through it would count in the peak memory.
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.close()
        for size in sizes:
            seconds, peak_kib, checked, differ = measure(db_path, pks[:size])
            print(
                f"verify_games over {checked} games: {seconds:.1f} s "
                f"({1000 * seconds / checked:.2f} ms a game), peak memory {peak_kib / 1024:.0f} MiB"
                f", {differ} differ"
            )


if __name__ == "__main__":
    main()
