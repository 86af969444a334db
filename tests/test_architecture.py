"""The package's folders are its layers, and arrows only run down (docs/architecture.md).

engine ← record ← players ← table ← cli, with ``text`` at the ground (every layer may use it).  The
import graph is read with ``ast`` — imports inside functions included, ``TYPE_CHECKING`` ones too —
so a late import cannot hide a cycle or an arrow running up.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "agility_cli"
LAYERS = ["ground", "engine", "record", "players", "table", "cli"]
# record may use players? no: players may use record (self-play writes files).
MAY_IMPORT = {
    "ground": {"ground"},
    "engine": {"ground", "engine"},
    "record": {"ground", "engine", "record"},
    "players": {"ground", "engine", "record", "players"},
    "table": {"ground", "engine", "record", "players", "table"},
    "cli": {"ground", "engine", "record", "players", "table", "cli"},
}
MAX_MODULE_LINES = 620  # "about 600"
MAX_CLASS_LINES = 250
MAX_COMMAND_LINES = 40  # a CLI command's body, its docstring left out


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def layer_of(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1 or parts[1] not in LAYERS:
        return "ground"  # agility_cli, agility_cli.text, agility_cli.__main__
    return parts[1]


@functools.cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PKG.rglob("*.py")}


@functools.cache
def parsed(path: Path) -> ast.Module:
    """A module's syntax tree, read once per test run (every check below walks the same trees)."""
    return ast.parse(path.read_text(encoding="utf-8"))


def imports_of(path: Path, name: str) -> set[str]:
    """Every agility_cli module ``path`` imports, at any depth of the code."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    known = modules()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("agility_cli"):
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                out.add(sub if sub in known else target)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("agility_cli")}
    out.discard(name)
    return out


def graph() -> dict[str, set[str]]:
    return {name: set(deps) for name, deps in _graph().items()}


@functools.cache
def _graph() -> dict[str, frozenset[str]]:
    return {name: frozenset(imports_of(path, name)) for name, path in modules().items()}


def test_imports_never_run_up_a_layer():
    wrong = [
        f"{mod} ({layer_of(mod)}) imports {dep} ({layer_of(dep)})"
        for mod, deps in graph().items()
        for dep in deps
        if layer_of(dep) not in MAY_IMPORT[layer_of(mod)] and mod != "agility_cli.__main__"
    ]
    assert not wrong, "\n".join(wrong)


def test_the_import_graph_has_no_cycle():
    g = graph()
    # the package's own __init__ files import nothing of their children here, so a plain DFS will do
    state: dict[str, int] = {}
    cycle: list[str] = []

    def visit(node: str, path: list[str]) -> bool:
        state[node] = 1
        for dep in sorted(g.get(node, ())):
            if dep not in g or dep == "agility_cli":
                continue
            if state.get(dep) == 1:
                cycle.extend(path[path.index(dep):] + [dep] if dep in path else [node, dep])
                return True
            if state.get(dep) is None and visit(dep, path + [dep]):
                return True
        state[node] = 2
        return False

    for node in sorted(g):
        if state.get(node) is None and visit(node, [node]):
            break
    assert not cycle, " -> ".join(cycle)


def test_the_checks_above_can_fail():
    # The graph reader sees a late import and resolves relative imports: a test of the test.
    here = module_name(PKG / "record" / "keys.py")
    assert "agility_cli.record.storage" in imports_of(PKG / "record" / "keys.py", here)
    assert layer_of("agility_cli.engine.rules") == "engine" and layer_of("agility_cli.text") == "ground"
    assert "table" not in MAY_IMPORT["engine"]


@pytest.mark.parametrize("name", sorted(modules()))
def test_no_module_is_over_about_600_lines(name: str):
    lines = modules()[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_MODULE_LINES, f"{name} has {lines} lines"


def test_no_class_is_over_about_250_lines():
    big = []
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.end_lineno - node.lineno + 1 > MAX_CLASS_LINES:
                big.append(f"{name}.{node.name}: {node.end_lineno - node.lineno + 1} lines")
    assert not big, big


def test_no_cli_command_is_over_about_40_lines():
    long = []
    for name, path in modules().items():
        if layer_of(name) != "cli":
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if not isinstance(node, ast.FunctionDef):
                continue
            commands = [d for d in node.decorator_list if "command" in ast.unparse(d)]
            if not commands:
                continue
            body = node.body[1:] if ast.get_docstring(node) else node.body
            size = body[-1].end_lineno - body[0].lineno + 1
            if size > MAX_COMMAND_LINES:
                long.append(f"{name}.{node.name}: {size} lines")
    assert not long, long


# ----------------------------------------------------------------------------------------------
# Rooms inside the layers: a folder inside a layer is one room (record/sealed, record/mail,
# table/replay, table/svg).  Its __init__ says in a docstring what it owns and names in __all__ the
# modules it offers; a module outside the room imports only those, never a private (_) name of it;
# and the rooms and loose modules of a layer form no cycle, so each room sits on its own floor.

def rooms() -> dict[str, Path]:
    """Each folder below a layer's own folder, by module name."""
    return {module_name(p.parent / "__init__.py"): p.parent for p in PKG.glob("*/*/__init__.py")}


def room_of(module: str) -> str:
    for room in rooms():
        if module == room or module.startswith(room + "."):
            return room
    return module


def offered(room: str) -> set[str]:
    tree = ast.parse((rooms()[room] / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in node.targets):
            return {f"{room}.{name}" for name in ast.literal_eval(node.value)}
    return set()


def test_each_room_says_what_it_owns_and_what_it_offers():
    found = rooms()
    assert {"agility_cli.record.sealed", "agility_cli.record.mail", "agility_cli.table.replay"} <= set(found)
    for room, folder in found.items():
        tree = ast.parse((folder / "__init__.py").read_text(encoding="utf-8"))
        assert ast.get_docstring(tree), f"{room}/__init__.py has no paragraph on what it owns"
        names = offered(room)
        imports = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
        assert not imports, f"{room}/__init__.py imports (a room loads its modules only when used)"
        assert all((folder / (n.rpartition(".")[2] + ".py")).exists() for n in names), f"{room}: __all__ names a missing module"
    assert "agility_cli.record.sealed.verify" in offered("agility_cli.record.sealed")


def outside_imports(room: str) -> list[tuple[str, str, str]]:
    """(importer, module of the room, name) for each import into ``room`` from outside it."""
    out = []
    known = modules()
    for mod, path in known.items():
        if room_of(mod) == room:
            continue
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(parsed(path)):
            if not isinstance(node, ast.ImportFrom):
                continue
            base = package.split(".")
            target = (".".join(base[: len(base) - node.level + 1] + ([node.module] if node.module else []))
                      if node.level else node.module or "")
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                if sub in known and room_of(sub) == room:
                    out.append((mod, sub, ""))
                elif target in known and room_of(target) == room and target != room:
                    out.append((mod, target, alias.name))
    return out


@pytest.mark.parametrize("room", sorted(rooms()))
def test_an_import_from_outside_a_room_goes_through_what_it_offers(room: str):
    offers = offered(room)
    wrong = [f"{mod} imports {sub}" + (f".{name}" if name else "")
             for mod, sub, name in outside_imports(room)
             if sub not in offers or name.startswith("_")]
    assert not wrong, "\n".join(wrong)


def test_rooms_and_modules_of_a_layer_form_no_cycle():
    g: dict[str, set[str]] = {}
    for mod, deps in graph().items():
        here = room_of(mod)
        g.setdefault(here, set()).update(room_of(d) for d in deps if room_of(d) != here)
    state: dict[str, int] = {}

    def cycle_from(node: str, path: list[str]) -> list[str]:
        state[node] = 1
        for dep in sorted(g.get(node, ())):
            if state.get(dep) == 1:
                return path[path.index(dep):] + [dep]
            if state.get(dep) is None and (found := cycle_from(dep, path + [dep])):
                return found
        state[node] = 2
        return []

    for node in sorted(g):
        if state.get(node) is None and (found := cycle_from(node, [node])):
            pytest.fail(" -> ".join(found))


def test_the_room_checks_can_fail(tmp_path: Path):
    # A test of the test: a private name and an unoffered module are seen.
    assert room_of("agility_cli.record.sealed.crypto") == "agility_cli.record.sealed"
    assert room_of("agility_cli.record.verify") == "agility_cli.record.verify"
    assert "agility_cli.record.sealed.crypto" not in offered("agility_cli.record.sealed")
    inside = [(m, s) for m, s, _ in outside_imports("agility_cli.record.sealed")]
    assert ("agility_cli.record.verify", "agility_cli.record.sealed.verify") in inside
