"""What ``manage.py backup`` writes and ``manage.py restore`` reads: one directory with
the database (``pg_dump`` custom format), the VAPID key file (browsers' push
subscriptions hold its public key, and it is not in the database) and a manifest with
each file's SHA-256.

Consistent without stopping the site: ``pg_dump`` reads the whole database in one
snapshot, and every move is one transaction (state, version and log together), so the
dump holds each game at one version with its whole log. The key file is written once
and never replaced. Nothing else needs keeping: Redis holds only the channel layer's
messages in flight and the throttle's and limits' counts, static files come from the
release, and the site takes no uploads.
"""

import hashlib
import json
import os
from pathlib import Path

from django.core.management.base import CommandError
from django.db import connection

FORMAT = 1
MANIFEST = "manifest.json"
DATABASE_FILE = "database.dump"
VAPID_FILE = "vapid-private.pem"


def postgres():
    """The libpq environment and arguments that reach Django's database."""
    if connection.vendor != "postgresql":
        raise CommandError(
            "backup and restore need PostgreSQL (DATABASE_URL); the SQLite default is "
            "one file: copy it with sqlite3's .backup command"
        )
    s = connection.settings_dict
    env = dict(os.environ)
    if s["PASSWORD"]:
        env["PGPASSWORD"] = s["PASSWORD"]
    args = ["-h", s["HOST"] or "127.0.0.1", "-p", str(s["PORT"] or 5432), "-d", s["NAME"]]
    if s["USER"]:
        args += ["-U", s["USER"]]
    return env, args


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_manifest(directory):
    """The manifest, after checking that every file it names is there, unchanged."""
    directory = Path(directory)
    try:
        manifest = json.loads((directory / MANIFEST).read_text())
    except (OSError, ValueError) as error:
        raise CommandError(f"{directory} is not a backup ({MANIFEST}: {error})") from error
    if manifest.get("format") != FORMAT:
        raise CommandError(f"{directory}: unknown backup format {manifest.get('format')!r}")
    for name, digest in manifest["files"].items():
        path = directory / name
        if not path.is_file() or sha256(path) != digest:
            raise CommandError(f"{path} is missing or damaged (its SHA-256 differs)")
    return manifest
