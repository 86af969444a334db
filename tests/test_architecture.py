"""The package's folders are its layers, and arrows only run down (docs/architecture.md).

engine ← record ← players ← table ← cli, with ``text`` at the ground (every layer may use it).  The
import graph is read with ``ast`` — imports inside functions included, ``TYPE_CHECKING`` ones too —
so a late import cannot hide a cycle or an arrow running up.
"""

from __future__ import annotations

import ast
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


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PKG.rglob("*.py")}


def imports_of(path: Path, name: str) -> set[str]:
    """Every agility_cli module ``path`` imports, at any depth of the code."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    known = modules()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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
    return {name: imports_of(path, name) for name, path in modules().items()}


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
