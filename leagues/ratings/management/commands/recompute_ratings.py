"""Rebuild every rating from the finished games (after an upgrade of the model, or to
check that the stored ratings are what the games say)."""

from django.core.management.base import BaseCommand

from leagues.ratings.rating import recompute


class Command(BaseCommand):
    help = (
        "Rebuild every rating from the finished games in the order they finished, and "
        "print a digest of all ratings (run twice: the same digest)."
    )

    def handle(self, *args, **options):
        games, digest = recompute()
        self.stdout.write(f"{games} games rated; digest {digest}")
