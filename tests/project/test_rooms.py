"""One room per concern, doors one way: no import cycles in the package (module- and function-level imports alike),
and the engine, the games and the bots import nothing of the UI stack."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

from tests.support.paths import REPO

PACKAGE = REPO / "speicherstadt_lab"
UI_STACK = ("ipywidgets", "anywidget", "plotly", "voila", "IPython")
RULES_ROOMS = ("engine", "games", "bots")


def _modules() -> dict[str, Path]:
    out = {}
    for f in PACKAGE.rglob("*.py"):
        rel = f.relative_to(PACKAGE.parent).with_suffix("")
        out[".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)] = f
    return out


def _imports(name: str, path: Path) -> set[str]:
    """Every module name ``path`` imports anywhere in its body, relative imports resolved."""
    base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            mod = ".".join(base[: len(base) - node.level + 1] + ([node.module] if node.module else [])) \
                if node.level else (node.module or "")
            found.add(mod)
            found.update(f"{mod}.{a.name}" for a in node.names)
    return found


def test_the_package_has_no_import_cycles() -> None:
    mods = _modules()
    graph = {m: {t for t in _imports(m, f) if t in mods and t != m and not m.startswith(t + ".")}
             for m, f in mods.items()}
    try:
        list(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as err:
        raise AssertionError(f"import cycle: {' -> '.join(err.args[1])}") from None


def test_the_rules_import_nothing_of_the_ui() -> None:
    mods = _modules()
    bad = {m: sorted(t for t in _imports(m, f) if t.split(".")[0] in UI_STACK or ".ui" in f".{t}")
           for m, f in mods.items() if m.split(".")[1:2] and m.split(".")[1] in RULES_ROOMS}
    assert not {m: t for m, t in bad.items() if t}, bad
