"""``manage.py backup DIR``: the whole site in a new directory, while it runs
(``rummy.management.site_backup`` says what is kept and why it is consistent)."""

import json
import shutil
import subprocess
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone

from rummy.management import site_backup


class Command(BaseCommand):
    help = "Back up the database and the VAPID key file into a new directory."

    def add_arguments(self, parser):
        parser.add_argument("directory", help="made by the command; must not exist yet")

    def handle(self, *args, directory, **options):
        target = Path(directory)
        if target.exists():
            raise CommandError(f"{target} exists already: a backup goes into a new directory")
        env, args = site_backup.postgres()
        # Written beside the target and renamed when complete: a directory with the
        # target's name is always a whole backup.
        partial = target.with_name(target.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True, mode=0o700)
        dump = partial / site_backup.DATABASE_FILE
        run = subprocess.run(
            ["pg_dump", "--format=custom", "--no-owner", "--no-privileges", "-f", str(dump), *args],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if run.returncode:
            shutil.rmtree(partial, ignore_errors=True)
            raise CommandError(f"pg_dump failed: {run.stderr.strip()}")
        files = {site_backup.DATABASE_FILE: site_backup.sha256(dump)}
        key_file = settings.VAPID_KEY_FILE and Path(settings.VAPID_KEY_FILE)
        if key_file and key_file.is_file():
            copy = partial / site_backup.VAPID_FILE
            shutil.copyfile(key_file, copy)
            copy.chmod(0o600)
            files[site_backup.VAPID_FILE] = site_backup.sha256(copy)
        elif settings.VAPID_PRIVATE_KEY:
            self.stderr.write(
                "VAPID_PRIVATE_KEY comes from the environment: keep it with the backup."
            )
        last = MigrationRecorder.Migration.objects.order_by("-applied", "-id").first()
        manifest = {
            "format": site_backup.FORMAT,
            "made": timezone.now().isoformat(),
            "database": settings.DATABASES["default"]["NAME"],
            "last_migration": f"{last.app}.{last.name}" if last else None,
            "files": files,
        }
        (partial / site_backup.MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
        partial.rename(target)
        self.stdout.write(f"Backup written to {target}: {', '.join(files)}")
