"""The tests' own house: one folder per room, every folder a package, shared helpers only in ``tests.support``
imported by that path, and no test module importing another (read from each file's syntax tree)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support.paths import TESTS

#: The folders test modules may live in (docs/testing.md lists what each holds).
ROOMS = {"engine", "games", "games/speicherstadt", "games/kaispeicher", "games/packet_row", "bots", "analysis",
         "records", "interop", "ui", "browser", "project"}
SUPPORT = TESTS / "support"
#: Every module under tests/ by its top-level name, for bare imports (``import scenario``) that bypass the package.
LOCAL_NAMES = {p.stem for p in TESTS.rglob("*.py")} | {p.name for p in TESTS.iterdir() if p.is_dir()}


def python_files() -> list[Path]:
    """Every Python file under tests/ (caches and golden data left out)."""
    return sorted(p for p in TESTS.rglob("*.py") if "__pycache__" not in p.parts)


def package_of(path: Path) -> list[str]:
    """The dotted package a file under tests/ belongs to, as parts (``tests/ui/test_app.py`` -> tests, ui)."""
    return ["tests", *path.relative_to(TESTS).parent.parts]


def wrong_imports(source: str, package: list[str]) -> list[str]:
    """The imports in ``source`` (a module of ``package``) that reach a test module or conftest, or a helper of the
    tests by a bare name instead of ``tests.support...``; each as ``line: module``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [(a.name, False) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the package
                base = package[: len(package) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
                names = [(target, True), *((f"{target}.{a.name}", True) for a in node.names)]
            else:
                names = [(node.module or "", False), *((f"{node.module}.{a.name}", False) for a in node.names)]
        else:
            continue
        for name, relative in names:
            parts = name.split(".")
            bad = any(p.startswith("test_") or p == "conftest" for p in parts)
            bare = not relative and parts[0] != "tests" and parts[0] in LOCAL_NAMES
            if bad or bare:
                found.append(f"{node.lineno}: {name}")
    return sorted(set(found))


def test_the_checker_finds_each_kind_of_wrong_import() -> None:
    """The check below can fail: each way one test module can reach another is reported."""
    pkg = ["tests", "ui"]
    assert wrong_imports("from test_app import GatedBot\n", pkg) == ["1: test_app", "1: test_app.GatedBot"]
    assert wrong_imports("import tests.ui.test_app\n", pkg) == ["1: tests.ui.test_app"]
    assert wrong_imports("from tests.ui import test_app\n", pkg) == ["1: tests.ui.test_app"]
    assert wrong_imports("from .test_app import tree_items\n", pkg) == ["1: tests.ui.test_app",
                                                                         "1: tests.ui.test_app.tree_items"]
    assert wrong_imports("from ..conftest import browser\n", pkg) == ["1: tests.conftest",
                                                                       "1: tests.conftest.browser"]
    assert wrong_imports("def f():\n    from scenario import play\n", pkg) == ["2: scenario", "2: scenario.play"]
    assert wrong_imports("import toy_game\n", pkg) == ["1: toy_game"]
    ok = "import json\nfrom tests.support.scenario import play\nfrom tests.support import toy_game\nimport pytest\n"
    assert wrong_imports(ok, pkg) == []


@pytest.mark.parametrize("path", python_files(), ids=lambda p: str(p.relative_to(TESTS)))
def test_no_test_module_imports_another_and_helpers_come_from_tests_support(path: Path) -> None:
    assert wrong_imports(path.read_text(encoding="utf-8"), package_of(path)) == [], (
        f"{path.relative_to(TESTS)}: shared code belongs in tests/support (imported as tests.support.<name>) "
        "or in a conftest.py fixture")


def test_test_modules_live_in_the_room_folders_and_every_folder_is_a_package() -> None:
    modules = [p for p in python_files() if p.name.startswith("test_")]
    assert modules, "no test modules found"
    outside = [str(p.relative_to(TESTS)) for p in modules if p.parent.relative_to(TESTS).as_posix() not in ROOMS]
    assert outside == [], f"test modules outside the room folders {sorted(ROOMS)}: {outside}"
    folders = {p.parent for p in python_files()}
    missing = [str(f.relative_to(TESTS.parent)) for f in folders if not (f / "__init__.py").is_file()]
    assert missing == [], f"folders without __init__.py (same-named test files would clash): {missing}"


def test_the_support_package_holds_helpers_not_tests() -> None:
    for path in SUPPORT.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        tests = [n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)
                 and n.name.lower().startswith("test")]
        assert not path.name.startswith("test_") and tests == [], f"{path.name}: tests belong in a room folder"
