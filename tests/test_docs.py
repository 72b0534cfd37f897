"""README's layout and CONTRIBUTING's rooms, checked against the import contracts and the
tree, so that a room or a module added to the code without its line in the docs fails
here instead of leaving the docs untrue."""

import itertools
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Django's conventional places, which the layout need not name one by one.
CONVENTIONAL = {"__init__", "apps", "admin", "migrations", "management", "__pycache__"}


def _contracts() -> list[dict]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)["tool"]["importlinter"]["contracts"]


def rooms() -> list[str]:
    """Every room of the `rooms` layers contract, top to bottom ("a | b" gives both)."""
    (contract,) = [c for c in _contracts() if c["id"] == "rooms"]
    return [name.strip() for layer in contract["layers"] for name in layer.split("|")]


def code_block_after(text: str, heading: str, nth: int = 0) -> str:
    """The nth fenced block after a heading line (up to the next heading of any level)."""
    start = text.index(f"\n{heading}\n")
    section = re.split(r"\n#{1,6} ", text[start + len(heading) + 2 :], maxsplit=1)[0]
    blocks = re.findall(r"^```[^\n]*\n(.*?)^```", section, flags=re.S | re.M)
    return blocks[nth]


def readme_layout() -> str:
    return code_block_after((ROOT / "README.md").read_text(), "## Layout")


def contributing_rooms() -> str:
    return code_block_after((ROOT / "CONTRIBUTING.md").read_text(), "## The rooms of the code")


def contributing_arrows() -> str:
    return code_block_after((ROOT / "CONTRIBUTING.md").read_text(), "## The rooms of the code", 1)


def top_level(package: str) -> list[str]:
    """The package's own modules (name.py) and sub-packages (name/), as the docs spell them."""
    names = []
    for path in sorted((ROOT / package).iterdir()):
        if path.stem in CONVENTIONAL or path.name.startswith("."):
            continue
        if path.is_dir() and (path / "__init__.py").exists():
            names.append(f"{package}/{path.name}/")
        elif path.suffix == ".py":
            names.append(f"{package}/{path.name}")
    return names


def mentions_module(block: str, name: str) -> bool:
    """A package is named by its path ("rummy/table/"); a module by its path or, in a list
    of one folder's modules, by its file name ("routing.py")."""
    if name.endswith("/"):
        return name in block
    return name in block or re.search(rf"(?<![\w/]){re.escape(name.split('/')[-1])}", block)


def test_the_contract_has_rooms():
    # the parsing below would pass vacuously on an empty list
    assert {"engine", "table", "play", "templatetags"} <= set(rooms())


@pytest.mark.parametrize("room", rooms())
def test_every_room_is_in_readme_layout(room):
    assert f"rummy/{room}/" in readme_layout(), f"README's layout has no line for rummy/{room}/"


@pytest.mark.parametrize("room", rooms())
def test_every_room_is_in_contributing_rooms(room):
    assert f"rummy/{room}/" in contributing_rooms(), (
        f"CONTRIBUTING's rooms list has no line for rummy/{room}/"
    )


@pytest.mark.parametrize("room", rooms())
def test_every_room_is_in_contributing_diagram(room):
    assert re.search(rf"\b{room}\b", contributing_arrows()), (
        f"CONTRIBUTING's diagram of the rooms does not show {room}"
    )


def test_the_diagram_keeps_the_contract_order():
    """Read left to right, top to bottom, the diagram names the layers in the contract's
    order (side-by-side rooms in any order among themselves)."""
    diagram = contributing_arrows()
    # a room missing from the diagram is the test above's finding; order the others
    found = {room: re.search(rf"\b{room}\b", diagram) for room in rooms()}
    positions = {room: match.start() for room, match in found.items() if match}
    (contract,) = [c for c in _contracts() if c["id"] == "rooms"]
    layers = [[n.strip() for n in layer.split("|")] for layer in contract["layers"]]
    layers = [[r for r in layer if r in positions] for layer in layers]
    layers = [layer for layer in layers if layer]
    for upper, lower in itertools.pairwise(layers):
        assert max(positions[r] for r in upper) < min(positions[r] for r in lower), (
            f"the diagram shows {lower} before {upper}"
        )


@pytest.mark.parametrize("name", [n for p in ("rummy", "leagues", "config") for n in top_level(p)])
def test_every_top_level_module_is_in_readme_layout(name):
    assert mentions_module(readme_layout(), name), f"README's layout does not name {name}"


def layout_entries() -> dict[str, str]:
    """README's layout by entry: each path an entry starts with ("manage.py, config/",
    "rummy/urls.py, routing.py") -> the entry's whole text."""
    entries: dict[str, str] = {}
    head, lines = "", []
    for line in readme_layout().splitlines() + ["end"]:
        if line[:1].strip():
            for path in re.split(r",\s*", head):
                entries[path] = "\n".join(lines)
            head, lines = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0], []
        lines.append(line)
    return entries


def sub_packages() -> list[str]:
    """Every package with an entry of its own: the apps but rummy (whose modules have
    entries of their own, above) and every package below them but the conventional
    ones (management commands, migrations)."""
    found = []
    for root in ("rummy", "leagues", "chat", "config"):
        for init in sorted((ROOT / root).rglob("__init__.py")):
            parts = init.parent.relative_to(ROOT).parts
            if parts != ("rummy",) and not CONVENTIONAL & set(parts):
                found.append("/".join(parts) + "/")
    return found


@pytest.mark.parametrize(
    "module",
    [
        f"{package}{path.name}"
        for package in sub_packages()
        for path in sorted((ROOT / package).glob("*.py"))
        if path.stem not in CONVENTIONAL
    ],
)
def test_every_module_of_a_package_is_in_its_layout_entry(module):
    """A package's entry in README's layout names each of its modules, so that a newcomer
    who finds the package finds the module."""
    package, name = module.rsplit("/", 1)
    if module in layout_entries():
        return  # an entry of its own (config/caches.py)
    entry = layout_entries().get(package + "/")
    assert entry is not None, f"README's layout has no entry for {package}/"
    assert re.search(rf"(?<![\w]){re.escape(name.removesuffix('.py'))}(?!\w)", entry), (
        f"README's layout entry for {package}/ does not name {name}"
    )


def benchmarks() -> list[str]:
    """Every benchmark of bench/: its scripts (not the empty job another one imports)."""
    names = [p.name for p in sorted((ROOT / "bench").glob("*.py"))]
    names = [n for n in names if n not in {"__init__.py", "background_jobs.py"}]
    return names


@pytest.mark.parametrize("name", benchmarks())
def test_every_benchmark_has_its_section_with_a_command(name):
    """docs/benchmarks.md gives each benchmark a section of its own, with the command that
    reproduces its figures."""
    text = (ROOT / "docs" / "benchmarks.md").read_text()
    sections = re.split(r"\n(?=## )", text)
    (section,) = [s for s in sections if s.startswith(f"## `{name}`")] or [None]
    assert section, f"docs/benchmarks.md has no section headed `{name}`"
    if name.endswith(".py"):
        module = name.removesuffix(".py")
        assert f"bench/{name}" in section or f"bench.{module}" in section, (
            f"the section of {name} gives no command that runs it"
        )


def _forbidden(contract_id: str) -> set[str]:
    (contract,) = [c for c in _contracts() if c["id"] == contract_id]
    return set(contract["forbidden_modules"])


def _modules(package: str) -> set[str]:
    """The package's own modules and sub-packages, dotted (the conventional ones left out)."""
    return {name.rstrip("/").removesuffix(".py").replace("/", ".") for name in top_level(package)}


def test_leagues_contract_forbids_all_of_rummy_but_its_door_and_the_engine():
    """CONTRIBUTING: leagues reaches rummy only through rummy.public (and the pure
    engine's values); a module added to rummy is forbidden to leagues until said otherwise."""
    missing = (
        _modules("rummy") - {"rummy.public", "rummy.engine"} - _forbidden("leagues-through-public")
    )
    assert not missing, f"leagues-through-public does not forbid {sorted(missing)}"


def test_chat_contract_forbids_all_of_chat_but_its_door():
    """CONTRIBUTING: rummy and leagues import only chat.public of the chat."""
    missing = _modules("chat") - {"chat.public"} - _forbidden("chat-through-public")
    assert not missing, f"chat-through-public does not forbid {sorted(missing)}"
