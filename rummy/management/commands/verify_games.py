"""``manage.py verify_games [GAME_ID ...]``: replay every stored game's move log
through the engine and report each game whose stored state, rounds or results differ
(``rummy.history.verify``). Exit status 1 when any game differs: cheap enough to run
nightly, in the same memory however many games there are."""

import time

from django.core.management.base import BaseCommand, CommandError

from rummy.history.verify import verify
from rummy.models import Game


class Command(BaseCommand):
    help = "Replay every stored game's move log and report each game that differs from it."

    def add_arguments(self, parser):
        parser.add_argument("game_ids", nargs="*", type=int, help="only these games")
        parser.add_argument(
            "--chunk", type=int, default=200, help="games read at a time (default 200)"
        )

    def handle(self, *args, game_ids=(), chunk=200, **options):
        if chunk < 1:
            raise CommandError("--chunk must be at least 1")
        started = time.monotonic()
        checked = differ = 0
        games = Game.objects.filter(pk__in=game_ids) if game_ids else None
        for count, difference in verify(games, chunk=chunk):
            checked = count
            if difference is not None:
                differ += 1
                self.stdout.write(str(difference))
        seconds = time.monotonic() - started
        summary = f"{checked} games checked in {seconds:.1f} s, {differ} differ from their move log"
        if differ:
            raise CommandError(summary, returncode=1)
        self.stdout.write(summary)
