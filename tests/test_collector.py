"""config.collector: a server process freezes what it has imported and widens the
youngest generation of the garbage collector; ``GC_TUNING=0`` leaves Python's defaults.
Each case runs in a process of its own (the collector's settings are process-wide)."""

import json
import os
import subprocess
import sys

from django.conf import settings

PROBE = (
    "import gc, json; {imports}; "
    "print(json.dumps([gc.get_freeze_count(), gc.get_threshold()[0], gc.isenabled()]))"
)


def _run(imports, **env):
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(imports=imports)],
        cwd=settings.BASE_DIR,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_server_process_freezes_its_imports_and_widens_the_young_generation():
    frozen, young, enabled = _run("import config.asgi", GC_TUNING="1")
    assert frozen > 10_000  # Django and the site's modules
    assert young == 20_000 and enabled


def test_a_server_process_logs_its_collections_when_asked(tmp_path):
    _run(
        "import config.asgi; gc.collect(0); gc.collect(2)",
        GC_TUNING="0",
        GC_LOG=str(tmp_path),
    )
    (log,) = tmp_path.glob("gc-*.log")
    generations = [line.split()[1] for line in log.read_text().splitlines()]
    assert {"0", "2"} <= set(generations)  # the young passes and the full one asked for
    at, _generation, took = log.read_text().splitlines()[-1].split()
    assert float(at) > 1.7e9 and float(took) >= 0


def test_tuning_once_only_and_off_on_request():
    frozen, young, _ = _run(
        "from config import collector; collector.tune(); n = gc.get_freeze_count(); "
        "collector.tune(); assert gc.get_freeze_count() == n",
        GC_TUNING="1",
    )
    assert frozen > 0 and young == 20_000
    assert _run("import config.asgi", GC_TUNING="0")[:2] == [0, 700]
