"""The channel layer's prefix: Redis pub/sub channels belong to the whole server, so two
sites on one Redis (each with its own database number) must not hear each other."""

import os
import subprocess
import sys

from django.conf import settings


def prefix(**env):
    environ = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CHANNEL_PREFIX")}
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from config import settings as s;"
            "print(s.CHANNEL_LAYERS['default']['CONFIG']['prefix'])",
        ],
        cwd=settings.BASE_DIR,
        env={**environ, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_each_database_number_has_its_own_channels():
    assert prefix(REDIS_URL="redis://127.0.0.1:6379/7") == "carousel:7"
    assert prefix(REDIS_URL="redis://127.0.0.1:6379") == "carousel:0"


def test_sites_sharing_a_database_number_name_their_own():
    assert prefix(REDIS_URL="redis://127.0.0.1:6379/0", CHANNEL_PREFIX="club-b") == "club-b"
