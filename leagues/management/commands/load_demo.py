from django.core.management.base import BaseCommand

from leagues.demo import DEMO_PASSWORD, create_demo_people


class Command(BaseCommand):
    help = "Create demo users and leagues (safe to run again: creates only what is missing)."

    def handle(self, *args, **options):
        users, league = create_demo_people()
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo ready: users {', '.join(users)} (password {DEMO_PASSWORD!r}); "
                f"league {league.name!r} at {league.get_absolute_url()}"
            )
        )
