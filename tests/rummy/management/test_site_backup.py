"""What backup and restore refuse, in words, before touching anything (the whole round
trip on PostgreSQL is tests/stack/test_backup.py)."""

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from rummy.management import site_backup


def a_backup(directory, **files):
    directory.mkdir()
    for name, content in files.items():
        (directory / name).write_bytes(content)
    manifest = {
        "format": site_backup.FORMAT,
        "made": "2026-01-01T00:00:00+00:00",
        "database": "carousel",
        "last_migration": None,
        "files": {name: site_backup.sha256(directory / name) for name in files},
    }
    (directory / site_backup.MANIFEST).write_text(json.dumps(manifest))
    return directory


def test_a_damaged_file_is_named(tmp_path):
    backup = a_backup(tmp_path / "b", **{site_backup.DATABASE_FILE: b"dump"})
    (backup / site_backup.DATABASE_FILE).write_bytes(b"dumq")
    with pytest.raises(CommandError, match="missing or damaged"):
        site_backup.read_manifest(backup)


def test_a_missing_file_is_named(tmp_path):
    backup = a_backup(tmp_path / "b", **{site_backup.DATABASE_FILE: b"dump"})
    (backup / site_backup.DATABASE_FILE).unlink()
    with pytest.raises(CommandError, match="missing or damaged"):
        site_backup.read_manifest(backup)


def test_a_directory_without_a_manifest_is_not_a_backup(tmp_path):
    with pytest.raises(CommandError, match="is not a backup"):
        site_backup.read_manifest(tmp_path)


def test_an_intact_backup_reads(tmp_path):
    backup = a_backup(tmp_path / "b", **{site_backup.DATABASE_FILE: b"dump"})
    assert site_backup.read_manifest(backup)["database"] == "carousel"


@pytest.mark.django_db
def test_backup_says_it_needs_postgresql_on_the_default(tmp_path):
    from django.db import connection

    if connection.vendor == "postgresql":
        pytest.skip("the embedded default only")
    with pytest.raises(CommandError, match="need PostgreSQL"):
        call_command("backup", str(tmp_path / "b"))
    assert not (tmp_path / "b").exists()


def test_backup_never_writes_into_an_existing_directory(tmp_path):
    with pytest.raises(CommandError, match="exists already"):
        call_command("backup", str(tmp_path))
