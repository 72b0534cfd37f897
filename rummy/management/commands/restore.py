"""``manage.py restore DIR``: a backup made by ``manage.py backup`` into an empty
set-up: the database (which must have no tables yet) and the VAPID key file (to
``VAPID_KEY_FILE``). Then ``manage.py migrate`` brings it to this release and
``manage.py verify_games`` checks every game against its move log."""

import shutil
import subprocess
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from rummy.management import site_backup


class Command(BaseCommand):
    help = "Restore a backup into an empty database (and the VAPID key file)."

    def add_arguments(self, parser):
        parser.add_argument("directory", help="a directory made by manage.py backup")

    def handle(self, *args, directory, **options):
        source = Path(directory)
        manifest = site_backup.read_manifest(source)
        env, args = site_backup.postgres()
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
            (tables,) = cursor.fetchone()
        connection.close()
        if tables:
            raise CommandError(
                f"the database {connection.settings_dict['NAME']} has {tables} tables: "
                "restore only into an empty database"
            )
        key_target = None
        if site_backup.VAPID_FILE in manifest["files"]:
            if not settings.VAPID_KEY_FILE:
                raise CommandError(
                    "the backup holds a VAPID key file: set VAPID_KEY_FILE to where it goes"
                )
            key_target = Path(settings.VAPID_KEY_FILE)
            if (
                key_target.exists()
                and site_backup.sha256(key_target) != manifest["files"][site_backup.VAPID_FILE]
            ):
                raise CommandError(
                    f"{key_target} holds another VAPID key: move it away first "
                    "(replacing it would unsubscribe every browser of one of the sites)"
                )
        run = subprocess.run(
            [
                "pg_restore",
                "--no-owner",
                "--no-privileges",
                "--exit-on-error",
                "--single-transaction",
                *args,
                str(source / site_backup.DATABASE_FILE),
            ],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if run.returncode:
            raise CommandError(f"pg_restore failed (nothing was restored): {run.stderr.strip()}")
        if key_target and not key_target.exists():
            key_target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source / site_backup.VAPID_FILE, key_target)
            key_target.chmod(0o600)
        self.stdout.write(
            f"Restored {source} (made {manifest['made']}, last migration "
            f"{manifest['last_migration']}). Next: manage.py migrate, manage.py verify_games."
        )
