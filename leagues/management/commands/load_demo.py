from django.core.management.base import BaseCommand
from django.test import override_settings

from leagues.demo import DEMO_PASSWORD, create_demo_people
from rummy.public import create_demo_games


class Command(BaseCommand):
    help = "Create demo users and leagues (safe to run again: creates only what is missing)."

    def handle(self, *args, **options):
        users, league = create_demo_people()
        # Demo addresses are example.com: mark them verified so the demo shows emails
        # (to the console) the way a real player would get them.
        for user in users.values():
            if not user.email_verified:
                user.email_verified = True
                user.save(update_fields=["email_verified"])
        # Setting up the demo is not news to anyone: no "your move" emails for it.
        with override_settings(EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend"):
            games = create_demo_games(users, league)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo ready: users {', '.join(users)} (password {DEMO_PASSWORD!r}); "
                f"league {league.name!r} at {league.get_absolute_url()}; "
                f"{len(games)} demo tables"
            )
        )
