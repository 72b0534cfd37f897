"""Run Django in a subprocess with a production-like environment (settings are read
once per process, so the production branch of config/settings.py can only be seen in a
fresh interpreter)."""

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]


def production_env(tmp_path, **extra):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"}
        and not k.startswith("PYTEST")
    }
    env.update(
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="carousel.example",
        CSRF_TRUSTED_ORIGINS="https://carousel.example",
        DATABASE_URL="postgres://carousel@127.0.0.1:5432/carousel",
        REDIS_URL="redis://127.0.0.1:6379/0",
        STATIC_ROOT=str(tmp_path / "static"),
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    env.update(extra)
    return env


def run(args, env, timeout=120):
    return subprocess.run(
        [sys.executable, *args],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def run_json(code, env):
    """Run ``code`` after django.setup(); it must print one JSON document last."""
    script = "import django, json\ndjango.setup()\n" + code
    done = run(["-c", script], env)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
