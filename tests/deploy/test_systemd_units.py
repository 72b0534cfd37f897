"""The systemd units start what deploy/run_production.py starts (and what the stack
test runs behind nginx): the same programs with the same arguments, on the ports
deploy/nginx.conf sends to, with every variable the script sets in the example
environment file."""

import importlib.util
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[2]
UNITS = BASE_DIR / "deploy" / "systemd"
INSTALLED = "/srv/carousel"


def script():
    spec = importlib.util.spec_from_file_location(
        "run_production", BASE_DIR / "deploy" / "run_production.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def unit(name):
    """A unit's [Service] keys (a key given twice keeps its last value)."""
    values, section = {}, None
    for line in (UNITS / name).read_text().splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line
        elif section == "[Service]" and "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            values[key] = value
    return values


def exec_start(name, instance=None):
    service = unit(name)
    assert service["WorkingDirectory"] == INSTALLED
    assert service["EnvironmentFile"] == "/etc/carousel/env"
    command = service["ExecStart"]
    if instance is not None:
        command = command.replace("%i", str(instance))
    return shlex.split(command)


def test_a_web_instance_runs_the_scripts_daphne_command_on_the_upstreams_port():
    upstream = re.findall(
        r"^    server 127\.0\.0\.1:(\d+);", (BASE_DIR / "deploy" / "nginx.conf").read_text(), re.M
    )
    assert upstream == ["8001", "8002"]
    for instance, port in ((1, 8001), (2, 8002)):
        program, *args = exec_start("carousel-web@.service", instance)
        expected, *expected_args = script().web_command(port)
        assert program == f"{INSTALLED}/.venv/bin/{Path(expected).name}"
        assert args == expected_args


def test_the_worker_unit_runs_the_scripts_worker_command():
    program, *args = exec_start("carousel-worker.service")
    expected, *expected_args = script().worker_command()
    assert expected == sys.executable
    assert program == f"{INSTALLED}/.venv/bin/python"
    assert args == expected_args


def test_the_example_environment_file_names_every_variable_the_script_sets(tmp_path, monkeypatch):
    for name in list(__import__("os").environ):
        monkeypatch.delenv(name)
    decided = set(script().process_env(tmp_path, 443))
    example = {
        line.split("=", 1)[0]
        for line in (UNITS / "carousel.env.example").read_text().splitlines()
        if "=" in line and not line.startswith("#")
    }
    assert decided <= example
    assert {"DATABASE_URL", "REDIS_URL", "CACHE_URL", "SECRET_KEY"} <= example


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze is not installed")
def test_systemd_accepts_the_units(tmp_path):
    # verify checks the programs exist: the units as installed, pointed at this checkout.
    for path in UNITS.glob("*.service"):
        text = path.read_text().replace(f"{INSTALLED}/.venv/bin", str(Path(sys.executable).parent))
        (tmp_path / path.name).write_text(text)
    run = subprocess.run(
        [
            "systemd-analyze",
            "verify",
            "--man=no",
            "./carousel-worker.service",
            "./carousel-web@1.service",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    # An unknown key or a bad value is only a warning (exit status 0): none may name ours.
    assert run.returncode == 0, run.stderr
    assert "carousel" not in run.stderr, run.stderr
