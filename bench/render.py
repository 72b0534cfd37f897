"""CPU of one table socket's render after a move, in-process: what each of a game's
sockets does on the event loop when the broadcast of a new version arrives
(``rummy.table.rendering.render_remembered`` and ``Frames.since``).

    python bench/render.py            # 4 players, 15 melds on the table
    python bench/render.py --melds 20 --moves 200

A scratch test database (Django's test runner: SQLite in memory by default), one game
of four players at a real-sized table (``tests.positions.table_position``). The player to
move draws or passes through the write path; then every player's socket renders the new
version from this process's memory, as one server process does, with the fragment
cache shared (a new version's status, players and hand render once, the rest is
reused). Prints the median and mean ``time.process_time()`` per socket render and the
median frame size. Steadier than the load benchmark on a shared machine (only this
process's CPU is counted), but it leaves out the transport (daphne, the channel layer).
"""

import argparse
import os
import secrets
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "bench-" + secrets.token_urlsafe(48))
os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("ALLOWED_HOSTS", "localhost")


def measure(n_melds, moves):
    from django.utils import translation

    from rummy import play
    from rummy.models import Game, seats_of_game
    from rummy.table import access, rendering
    from tests.factories import game_at, make_league, make_user
    from tests.positions import table_position

    users = [make_user() for _ in range(4)]
    league = make_league(users[0], members=users[1:])

    def new_game():
        position = table_position(n_melds, players=4, hand_size=10, drawn=0)
        return game_at(position, users, league=league)

    game = new_game()
    translation.activate("en")
    times, sizes, shown = [], [], {}
    for _ in range(moves):
        current = Game.with_seats(seats_of_game(game.pk))
        if current.status != Game.Status.ACTIVE:  # a round's random deal may end it
            game = new_game()
            current = Game.with_seats(seats_of_game(game.pk))
        turn = current.engine_state().turn
        mover = next(s.user for s in current.seated() if s.number == turn)
        try:
            result = play.draw(current.pk, mover, current.version)
        except play.ActionRefused:
            result = play.pass_turn(current.pk, mover, current.version)
        access.remember(result.game)
        for user in users:
            access.rights(user, result.game)  # fresh in memory, as under load
        start = time.process_time()
        for user in users:
            frames = rendering.render_remembered(
                user, current.pk, "suit", result.version, draft_free=True
            )
            html, shown[user.pk] = frames.since(shown.get(user.pk))
            sizes.append(len(html))
        times.append((time.process_time() - start) / len(users))
    return times[moves // 6 :], sizes  # the first ones warm the caches


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--melds", type=int, default=15)
    parser.add_argument("--moves", type=int, default=120)
    args = parser.parse_args(argv)
    import django

    django.setup()
    from django.test.runner import DiscoverRunner

    runner = DiscoverRunner(verbosity=0)
    old = runner.setup_databases()
    try:
        times, sizes = measure(args.melds, max(12, args.moves))
    finally:
        runner.teardown_databases(old)
    print(
        f"melds={args.melds} players=4: one socket's render after a move "
        f"median {1000 * statistics.median(times):.3f} ms, "
        f"mean {1000 * statistics.mean(times):.3f} ms ({len(times)} moves); "
        f"frame median {statistics.median(sizes):.0f} bytes"
    )


if __name__ == "__main__":
    main()
