"""Backup and restore: a site with games in progress is backed up while a worker serves
it (and a move is made there after the dump), restored into another (empty) database
and key file, every game there still replays from its log (verify_games), and a player
continues their turn, from the backup's state, on a worker serving the restored site."""

import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from rummy import play
from rummy.models import Game
from tests.stack.clients import Player
from tests.stack.conftest import servers_database_url
from tests.stack.game_helpers import two_player_game, version_of
from tests.stack.servers import server_env, start_servers, stop

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]

BASE_DIR = Path(__file__).resolve().parents[2]


def manage(env, *args):
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture
def empty_database():
    """Another database on the same server, created empty and dropped afterwards."""
    s = connection.settings_dict
    name = s["NAME"].removeprefix("test_") + "_restored"
    admin = dict(
        host=s["HOST"] or "127.0.0.1",
        port=s["PORT"] or 5432,
        user=s["USER"] or None,
        password=s["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    )
    with psycopg.connect(**admin) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    yield servers_database_url().rsplit("/", 1)[0] + f"/{name}"
    with psycopg.connect(**admin) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_restored_site_replays_and_a_player_continues(empty_database, tmp_path):
    running = two_player_game()[0]
    play.draw(running.pk, running.to_move, running.version)  # a turn ended: in progress
    running.refresh_from_db()
    two_player_game()  # a second game, not yet moved
    # The session the player's browser holds: in the database, so in the backup.
    player = Player(running.to_move, None)
    key_file = tmp_path / "site" / "vapid-private.pem"
    site = server_env(servers_database_url(), os.environ["REDIS_URL"], VAPID_KEY_FILE=key_file)
    assert manage(site, "vapid_keys", "--file", str(key_file)).returncode == 0

    # The site runs while it is backed up: a worker serves it, and after the dump the
    # player moves there, which the backup must not hold.
    (tmp_path / "original").mkdir()
    (original,) = start_servers(1, site, tmp_path / "original")
    try:
        made = manage(site, "backup", str(tmp_path / "backup"))
        assert made.returncode == 0, made.stderr
        _draws_at_the_backups_version(player, original, running)
    finally:
        stop([original])

    restored_key = tmp_path / "restored" / "vapid-private.pem"
    restored = server_env(empty_database, os.environ["REDIS_URL"], VAPID_KEY_FILE=restored_key)
    done = manage(restored, "restore", str(tmp_path / "backup"))
    assert done.returncode == 0, done.stderr
    assert restored_key.read_bytes() == key_file.read_bytes()
    checked = manage(restored, "verify_games")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "2 games checked" in checked.stdout
    assert manage(restored, "migrate", "--check").returncode == 0

    # Into a set-up that is not empty, restore refuses and changes nothing.
    again = manage(restored, "restore", str(tmp_path / "backup"))
    assert again.returncode != 0 and "empty" in again.stderr

    # The player to move continues on a worker of the restored site, from the backup's
    # version (the move made on the original after the dump is not there).
    (tmp_path / "restored-site").mkdir()
    (server,) = start_servers(1, restored, tmp_path / "restored-site")
    try:
        _draws_at_the_backups_version(player, server, running)
    finally:
        stop([server])
    # The original site kept its own move; the restored one made its own, apart.
    assert Game.objects.get(pk=running.pk).version == running.version + 1


def _draws_at_the_backups_version(player, server, game):
    """``player`` draws in ``game`` on ``server``, at the version the backup holds."""
    player.server = server
    status, page = player.post(
        f"/games/{game.pk}/act/",
        {"action": "draw", "version": game.version},
        headers={"HX-Request": "true"},
    )
    assert status == 200, page[:500]
    assert version_of(page) == game.version + 1
