"""How long a game's score sheet and one replay step take to render ("a replay
step of a 10-round game renders in a few tens of milliseconds"), and in how many queries.

    python bench/history.py                    # a 10-round game, 50 requests each
    python bench/history.py --rounds 10 --repeat 200 --seed 3

It makes a scratch SQLite database (a temporary file), then plays 2-player games
through the write path (``rummy.play``) with the engine's bots and seeded deals, seed
after seed, until one finishes after exactly ``--rounds`` rounds. A seated player then
asks, with the Django test client (the whole middleware stack, templates and all), for
the game's score sheet, for a replay step in the middle of the game (the full page)
and for the step after it as HTMX asks for it when "next" is tapped (the fragment),
``--repeat`` times each after a warm-up. It prints the median and 95th percentile of
the wall time and the queries each request ran. Not run by the tests.
"""

import argparse
import os
import random
import statistics
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
    from django.test.utils import setup_test_environment

    call_command("migrate", verbosity=0)
    setup_test_environment()  # the test client's host, in-memory e-mail


def play_game(users, league, seed, target):
    """One game of ``users`` played to its end by the bots, deals seeded by ``seed``."""
    from rummy import play
    from rummy.engine import bots
    from rummy.models import Game
    from rummy.play import store

    rng = random.Random(seed)
    store.system_random = rng  # seeded deals: the same game on every run
    game = play.open_table(league, users[0], max_seats=len(users))
    Game.objects.filter(pk=game.pk).update(target_score=target)
    for user in users[1:]:
        play.take_seat(game.pk, user)  # the last one fills the table: it starts
    by_seat = {s.number: s.user for s in Game.objects.get(pk=game.pk).seated()}
    while True:
        game = Game.objects.get(pk=game.pk)
        if game.status != Game.Status.ACTIVE:
            return game
        state = game.engine_state()
        play.act(
            game.pk, by_seat[state.turn], game.version, bots.choose_action(state, state.turn, rng)
        )


def ten_round_game(rounds, seed, target, tries=60):
    from django.contrib.auth import get_user_model

    from leagues.models import League, Membership

    users = [
        get_user_model().objects.create_user(f"bench{n}", f"bench{n}@example.com", "x")
        for n in range(2)
    ]
    league = League.objects.create(name="Bench", slug="bench")
    for user in users:
        Membership.objects.create(league=league, user=user, role=Membership.Role.MEMBER)
    seen = []
    for n in range(tries):
        game = play_game(users, league, seed + n, target)
        seen.append(game.rounds.count())
        if seen[-1] == rounds:
            return game, users[0]
    raise SystemExit(f"no game of {rounds} rounds in {tries} tries (got {seen}); try --target")


def timed(client, url, repeat, **headers):
    """``repeat`` GETs of ``url`` after a warm-up: (milliseconds each, queries, bytes)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    response = client.get(url, headers=headers)
    assert response.status_code == 200, (url, response.status_code)
    times = []
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = client.get(url, headers=headers)
            times.append(1000 * (time.perf_counter() - started))
        assert response.status_code == 200
    return times, len(queries), len(response.content)


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10, help="rounds of the game to time")
    parser.add_argument("--repeat", type=int, default=50, help="requests of each page")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target", type=int, default=150, help="the game's target score")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="history-bench-") as workdir:
        setup_django(Path(workdir) / "bench.sqlite3")
        from django.test import Client
        from django.urls import reverse

        started = time.perf_counter()
        game, viewer = ten_round_game(args.rounds, args.seed, args.target)
        moves = game.moves.count()
        print(
            f"set-up: game {game.pk}, {game.rounds.count()} rounds, {moves} moves, "
            f"played in {time.perf_counter() - started:.0f} s"
        )
        client = Client()
        client.force_login(viewer)
        middle = game.moves.order_by("seq")[moves // 2].seq
        replay = reverse("rummy:replay", args=[game.pk])
        pages = [
            ("score sheet", reverse("rummy:record", args=[game.pk]), {}),
            ("replay step, full page", f"{replay}?at={middle}", {}),
            ("replay step, HTMX fragment", f"{replay}?at={middle + 1}", {"HX-Request": "true"}),
        ]
        print(f"{args.repeat} requests each (after one warm-up), a seated player, finished game:")
        for name, url, headers in pages:
            times, queries, size = timed(client, url, args.repeat, **headers)
            print(
                f"  {name:28} median {statistics.median(times):6.1f} ms  "
                f"p95 {percentile(times, 0.95):6.1f} ms  {queries} queries  "
                f"{size / 1024:.0f} KiB"
            )


if __name__ == "__main__":
    main()
