"""``manage.py vapid_keys``: a new VAPID key pair for web push (RFC 8292), printed as
the two environment variables the settings read; ``--file PATH`` keeps the private key
in a PEM file instead (made once, never replaced: every subscribed browser holds the
public key), which is what ``make run`` does on its first start."""

from django.core.management.base import BaseCommand

from rummy.notifications import vapid


class Command(BaseCommand):
    help = "Make a VAPID key pair for web push (or a key file, once)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--file",
            help="write the private key to this PEM file if it does not exist yet "
            "(then set VAPID_KEY_FILE to it) and print its public key",
        )

    def handle(self, *args, file=None, **options):
        if file:
            public, made = vapid.ensure_key_file(file)
            state = "made" if made else "kept"
            self.stdout.write(f"VAPID key file {state}: {file}")
            self.stdout.write(f"VAPID_PUBLIC_KEY={public}")
            return
        signer = vapid.new_signer()
        self.stdout.write(f"VAPID_PRIVATE_KEY={vapid.private_key_of(signer)}")
        self.stdout.write(f"VAPID_PUBLIC_KEY={vapid.public_key_of(signer)}")
