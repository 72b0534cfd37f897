"""What rebuilding every rating costs: a throwaway SQLite database with ``--games``
finished league games of 2 to 5 of ``--players`` people in three leagues, then
``recompute`` timed twice (the digests must match).

    SQLITE_PATH=/tmp/ratings-bench.sqlite3 python -m bench.ratings [--games 2000]

The database at SQLITE_PATH is migrated and overwritten: never point it at real data.
"""

import argparse
import datetime
import os
import random
import time


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=40)
    args = ap.parse_args(argv)
    if "SQLITE_PATH" not in os.environ or os.environ.get("DATABASE_URL"):
        raise SystemExit("set SQLITE_PATH to a throwaway file (and no DATABASE_URL)")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import transaction
    from django.utils import timezone

    from leagues.models import League, User
    from leagues.ratings.rating import recompute
    from rummy.models import Game, Seat

    if os.path.exists(os.environ["SQLITE_PATH"]):
        os.remove(os.environ["SQLITE_PATH"])
    call_command("migrate", verbosity=0)
    rng = random.Random(0)
    start = timezone.now()
    with transaction.atomic():
        people = [
            User.objects.create(username=f"p{i}", email=f"p{i}@example.com", display_name=f"P{i}")
            for i in range(args.players)
        ]
        leagues = [League.objects.create(name=f"L{i}", slug=f"l{i}") for i in range(3)]
        for n in range(args.games):
            game = Game.objects.create(
                league=rng.choice(leagues),
                status=Game.Status.FINISHED,
                finished_at=start + datetime.timedelta(minutes=n),
            )
            players = rng.sample(people, rng.randint(2, 5))
            Seat.objects.bulk_create(
                Seat(game=game, user=u, number=i, final_score=rng.randrange(0, 400, 5))
                for i, u in enumerate(players)
            )
    for run in (1, 2):
        began = time.perf_counter()
        games, digest = recompute()
        took = time.perf_counter() - began
        print(f"run {run}: {games} games rated in {took:.2f} s; digest {digest[:16]}")


if __name__ == "__main__":
    main()
