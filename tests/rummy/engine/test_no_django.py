"""Hard rule (DESIGN): nothing under rummy/engine imports Django; modules stay small."""

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[3] / "rummy" / "engine"
MODULES = sorted(ENGINE.glob("*.py"))


def test_no_module_imports_django_in_source():
    assert MODULES
    for path in MODULES:
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            assert not any(n == "django" or n.startswith("django.") for n in names), path
        assert "__import__" not in path.read_text() and "import_module" not in path.read_text(), (
            path
        )


def test_importing_the_engine_loads_no_django():
    code = (
        "import sys, rummy.engine, rummy.engine.vectors, rummy.engine.bench, rummy.engine.bots; "
        "bad = [m for m in sys.modules if m == 'django' or m.startswith('django.')]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ENGINE.parents[1],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_modules_are_small():
    for path in MODULES:
        assert len(path.read_text().splitlines()) < 800, path
