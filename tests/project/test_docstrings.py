"""Every public definition of the lab's engine, games and lab modules says what it is and why, in its docstring.

Walks the modules below (packages with all their modules) with ``inspect``: module-level functions and classes
defined there whose names do not start with ``_``, and the public methods, properties, class and static methods
of those classes (defined in the class itself, so an inherited one is checked where it is written; a dataclass
field's default is no method). A class's docstring must be its own: the signature a dataclass or NamedTuple
writes in its place does not count.

Of the UI only the app (``speicherstadt_lab.ui.app``) is walked yet: add the rest of ``speicherstadt_lab.ui`` to
``PACKAGES`` when it is ready.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from functools import cached_property
from types import ModuleType
from typing import Any

import pytest

#: Packages walked with every module inside them.
PACKAGES = (
    "speicherstadt_lab.engine",
    "speicherstadt_lab.games",
    "speicherstadt_lab.bots",
    "speicherstadt_lab.value",
    "speicherstadt_lab.interop",
    "speicherstadt_lab.ui.app",
)
#: Single modules walked.
MODULES = (
    "speicherstadt_lab.records",
    "speicherstadt_lab.analysis",
    "speicherstadt_lab.reviewing",
    "speicherstadt_lab.simulation",
    "speicherstadt_lab.scenarios",
    "speicherstadt_lab.lessons",
    "speicherstadt_lab.puzzles",
    "speicherstadt_lab.hints",
    "speicherstadt_lab.heldout",
    "speicherstadt_lab.cardref",
    "speicherstadt_lab.resources",
    "speicherstadt_lab.cli",
)


def module_names() -> list[str]:
    """The names of every module walked: each package, the modules inside it, and ``MODULES``."""
    names = list(MODULES)
    for package in PACKAGES:
        names.append(package)
        path = importlib.import_module(package).__path__
        names += [info.name for info in pkgutil.walk_packages(path, package + ".")]
    return sorted(names)


def _load(name: str) -> ModuleType:
    """The module, or a skip when an optional dependency of it (an extra such as ``[rl]``) is not installed."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if (e.name or "").split(".")[0] == "speicherstadt_lab":
            raise
        pytest.skip(f"{name} needs {e.name}, which is not installed")


def _function(member: Any) -> Any:
    """The function behind a class member (method, property, cached property, class or static method), or None."""
    if isinstance(member, staticmethod | classmethod):
        return member.__func__
    if isinstance(member, property):
        return member.fget
    if isinstance(member, cached_property):
        return member.func
    return member if inspect.isfunction(member) else None


def _has_doc(obj: Any) -> bool:
    """Whether ``obj`` has a docstring of its own (a class's is not the signature a dataclass writes for it)."""
    doc = obj.__dict__.get("__doc__") if inspect.isclass(obj) else obj.__doc__
    if not doc or not doc.strip():
        return False
    return not (inspect.isclass(obj) and doc.startswith(f"{obj.__name__}("))


def undocumented(module: ModuleType) -> Iterator[str]:
    """The public definitions of ``module`` without a docstring, as ``module.name`` or ``module.Class.member``."""
    for name, obj in vars(module).items():
        if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
            continue
        if not (inspect.isfunction(obj) or inspect.isclass(obj)):
            continue
        if not _has_doc(obj):
            yield f"{module.__name__}.{name}"
        if inspect.isclass(obj):
            fields = {f.name for f in dataclasses.fields(obj)} if dataclasses.is_dataclass(obj) else set()
            for member_name, member in vars(obj).items():
                if member_name in fields:  # a field's default (a function the harness calls), not a method
                    continue
                fn = _function(member)
                if member_name.startswith("_") or fn is None or fn.__module__ != module.__name__:
                    continue
                if not _has_doc(fn):
                    yield f"{module.__name__}.{name}.{member_name}"


@pytest.mark.parametrize("name", module_names())
def test_every_public_definition_has_a_docstring(name: str) -> None:
    missing = list(undocumented(_load(name)))
    assert not missing, f"{len(missing)} public definition(s) without a docstring: {', '.join(missing)}"


def test_the_walk_finds_the_games_and_the_engine() -> None:
    names = module_names()
    for expected in ("speicherstadt_lab.engine.protocol", "speicherstadt_lab.games.speicherstadt.kaispeicher",
                     "speicherstadt_lab.games.packet_row.state", "speicherstadt_lab.records",
                     "speicherstadt_lab.scenarios", "speicherstadt_lab.engine.observation"):
        assert expected in names
    assert "speicherstadt_lab.ui.app.panel" in names  # the app's panels and coordinator; the rest of ui/ not yet
    assert not any(n.startswith("speicherstadt_lab.ui") and not n.startswith("speicherstadt_lab.ui.app") for n in names)


def test_a_missing_docstring_is_found() -> None:
    module = ModuleType("docless")

    class Documented:
        """Has one."""

        def method(self) -> None:
            pass

    def bare() -> None:
        pass

    for obj in (Documented, bare):
        obj.__module__ = "docless"
    Documented.method.__module__ = "docless"
    module.Documented, module.bare = Documented, bare  # type: ignore[attr-defined]
    assert list(undocumented(module)) == ["docless.Documented.method", "docless.bare"]
